import { ActionIcon, Group, Menu, Stack, Text, Title } from '@mantine/core';
import { IconDots } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useCan } from '../../app/session.ts';
import { ListPagination } from '../../shared/ListPagination.tsx';
import { PageHeader } from '../../shared/PageHeader.tsx';
import { QueryState } from '../../shared/QueryState.tsx';
import { SearchInput } from '../../shared/SearchInput.tsx';
import { useWorkspaceId } from '../shell/workspace.ts';
import { ImageGenerator } from './ImageGenerator.tsx';
import { ImageGrid } from './ImageGrid.tsx';
import { ImageUploader } from './ImageUploader.tsx';
import { type Image, imagesQuery } from './images-api.ts';
import { RenameImageModal } from './RenameImageModal.tsx';
import { useDeleteImage } from './useDeleteImage.ts';

const perPage = 20;

/** The workspace's image library: upload by dropping files or generate with AI, find, rename and delete images. */
export function ImageLibraryPage() {
  const workspaceId = useWorkspaceId();
  const can = useCan();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [renaming, setRenaming] = useState<Image | null>(null);
  const query = useQuery(imagesQuery(workspaceId, { search, page, per: perPage }));
  const remove = useDeleteImage(workspaceId);
  const canRename = can('update_library_images');
  const canDelete = can('delete_library_images');

  return (
    <Stack>
      <PageHeader title="Images" />
      {can('create_library_images') && (
        <>
          <ImageUploader workspaceId={workspaceId} />
          <ImageGenerator
            workspaceId={workspaceId}
            // The new image is the newest: show the first page of the whole library, where it is.
            onGenerated={() => {
              setSearch('');
              setPage(1);
            }}
          />
        </>
      )}
      <Group justify="space-between">
        <Title order={2} fz="h4">
          Library
        </Title>
        <SearchInput
          value={search}
          label="Search images"
          placeholder="Search by name or description"
          onSearch={(term) => {
            setSearch(term);
            setPage(1);
          }}
        />
      </Group>
      <QueryState
        query={query}
        skeletonRows={4}
        isEmpty={(data) => data.results.length === 0}
        empty={
          search ? (
            <Text>No image matches “{search}”.</Text>
          ) : (
            <>
              <Text fw={500}>No images yet</Text>
              <Text size="sm" c="dimmed">
                Images uploaded here can be used in every email of this workspace.
                {can('create_library_images') &&
                  ' Drop files in the upload box above, or describe one to generate it with AI.'}
              </Text>
            </>
          )
        }
      >
        {(data) => (
          <>
            <ImageGrid
              images={data.results}
              actions={
                canRename || canDelete
                  ? (image) => (
                      <Group justify="flex-end">
                        <Menu position="bottom-end" withinPortal>
                          <Menu.Target>
                            <ActionIcon
                              variant="subtle"
                              color="gray"
                              aria-label={`Actions for ${image.name}`}
                            >
                              <IconDots size={16} />
                            </ActionIcon>
                          </Menu.Target>
                          <Menu.Dropdown>
                            <Menu.Item component="a" href={image.public_url} target="_blank" rel="noreferrer">
                              Open original
                            </Menu.Item>
                            {canRename && <Menu.Item onClick={() => setRenaming(image)}>Rename</Menu.Item>}
                            {canDelete && (
                              <Menu.Item color="red" onClick={() => remove(image)}>
                                Delete
                              </Menu.Item>
                            )}
                          </Menu.Dropdown>
                        </Menu>
                      </Group>
                    )
                  : undefined
              }
            />
            <ListPagination pagination={data.pagination} onPage={setPage} />
          </>
        )}
      </QueryState>
      <RenameImageModal workspaceId={workspaceId} image={renaming} onClose={() => setRenaming(null)} />
    </Stack>
  );
}
