import { Modal, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useCan } from '../../app/session.ts';
import { ListPagination } from '../../shared/ListPagination.tsx';
import { QueryState } from '../../shared/QueryState.tsx';
import { SearchInput } from '../../shared/SearchInput.tsx';
import { ImageGenerator } from './ImageGenerator.tsx';
import { ImageGrid } from './ImageGrid.tsx';
import { ImageUploader } from './ImageUploader.tsx';
import { type Image, imagesQuery } from './images-api.ts';
import { useImageProportion } from './use-image-proportion.ts';

/** What a picked image gives its user: `url` is the absolute public URL to put in an email. */
export interface PickedImage {
  id: string;
  url: string;
  name: string;
}

const perPage = 12;

function picked(image: Image): PickedImage {
  return { id: image.id, url: image.public_url, name: image.name };
}

/**
 * Chooses an image from the workspace's library, or uploads or generates one and chooses it: for
 * image fields and anywhere else an email needs a picture.
 */
export function ImagePickerDialog({
  workspaceId,
  opened,
  onClose,
  onPick,
  fieldImageUrl,
}: {
  workspaceId: number;
  opened: boolean;
  onClose: () => void;
  onPick: (image: PickedImage) => void;
  /** The image the field shows now: a generated image is cropped to its proportion. */
  fieldImageUrl?: string;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title="Choose an image" size="xl">
      {opened && (
        <PickerContent
          workspaceId={workspaceId}
          fieldImageUrl={fieldImageUrl}
          onPick={(image) => {
            onPick(picked(image));
            onClose();
          }}
        />
      )}
    </Modal>
  );
}

function PickerContent({
  workspaceId,
  onPick,
  fieldImageUrl,
}: {
  workspaceId: number;
  onPick: (image: Image) => void;
  fieldImageUrl: string | undefined;
}) {
  const can = useCan();
  const fieldProportion = useImageProportion(fieldImageUrl);
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const query = useQuery(imagesQuery(workspaceId, { search, page, per: perPage }));
  return (
    <Stack>
      {/* A fresh upload or a generated image is what the user wants to use, so it is picked at once. */}
      {can('create_library_images') && (
        <>
          <ImageUploader workspaceId={workspaceId} onUploaded={onPick} compact multiple={false} />
          <ImageGenerator workspaceId={workspaceId} onGenerated={onPick} proportion={fieldProportion} />
        </>
      )}
      <SearchInput
        value={search}
        label="Search images"
        placeholder="Search by name or description"
        onSearch={(term) => {
          setSearch(term);
          setPage(1);
        }}
      />
      <QueryState
        query={query}
        skeletonRows={3}
        isEmpty={(data) => data.results.length === 0}
        empty={<Text>{search ? `No image matches “${search}”.` : 'The library has no images yet.'}</Text>}
      >
        {(data) => (
          <>
            <ImageGrid images={data.results} onSelect={onPick} />
            <ListPagination pagination={data.pagination} onPage={setPage} />
          </>
        )}
      </QueryState>
    </Stack>
  );
}
