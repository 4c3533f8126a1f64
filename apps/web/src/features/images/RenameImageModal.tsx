import { Alert, Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { showApiErrors } from '../../shared/form-errors.ts';
import { type Image, imagesKey, renameImage } from './images-api.ts';

/** Renames one image; the API's messages show on the name field. */
export function RenameImageModal({
  workspaceId,
  image,
  onClose,
}: {
  workspaceId: number;
  image: Image | null;
  onClose: () => void;
}) {
  return (
    <Modal opened={image !== null} onClose={onClose} title="Rename image">
      {image && <RenameForm workspaceId={workspaceId} image={image} onDone={onClose} />}
    </Modal>
  );
}

function RenameForm({
  workspaceId,
  image,
  onDone,
}: {
  workspaceId: number;
  image: Image;
  onDone: () => void;
}) {
  const queryClient = useQueryClient();
  const [otherErrors, setOtherErrors] = useState<string[]>([]);
  const form = useForm({
    initialValues: { name: image.name },
    validate: { name: (value) => (value.trim() ? null : 'Give the image a name') },
  });
  const rename = useMutation({
    mutationFn: (name: string) => renameImage(workspaceId, image.id, name),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: imagesKey(workspaceId) });
      onDone();
    },
    onError: (error) => setOtherErrors(showApiErrors(form, error, ['name'])),
  });
  return (
    <form onSubmit={form.onSubmit((values) => rename.mutate(values.name.trim()))}>
      <Stack>
        {otherErrors.length > 0 && (
          <Alert color="red" role="alert">
            {otherErrors.join(' ')}
          </Alert>
        )}
        <TextInput label="Name" data-autofocus maxLength={200} {...form.getInputProps('name')} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" loading={rename.isPending}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
