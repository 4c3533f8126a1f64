import { Alert, Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../app/api.ts';
import { unwrap } from '../../shared/api-error.ts';
import { showApiErrors } from '../../shared/form-errors.ts';
import type { EmailSummary } from './emails-api.ts';

/** A draft copy of an email in the same project, under a new name. */
export function CloneEmailModal({
  workspaceId,
  email,
  onClose,
  onCloned,
}: {
  workspaceId: number;
  email: EmailSummary;
  onClose: () => void;
  onCloned: () => void;
}) {
  const [otherErrors, setOtherErrors] = useState<string[]>([]);
  const form = useForm({
    initialValues: { name: `${email.name} (copy)` },
    validate: { name: (value) => (value.trim() ? null : 'Enter a name') },
  });
  const clone = useMutation({
    mutationFn: (name: string) =>
      unwrap(
        api.POST('/api/v1/workspaces/{workspace_id}/emails/{id}/clone', {
          params: { path: { workspace_id: workspaceId, id: email.id } },
          body: { name },
        }),
      ),
    onSuccess: () => {
      onCloned();
      onClose();
    },
    onError: (error) => setOtherErrors(showApiErrors(form, error, ['name'])),
  });
  return (
    <Modal opened onClose={onClose} title={`Clone ${email.name}`}>
      <form
        onSubmit={form.onSubmit((values) => {
          setOtherErrors([]);
          clone.mutate(values.name.trim());
        })}
      >
        <Stack>
          {otherErrors.length > 0 && (
            <Alert color="red" role="alert">
              {otherErrors.join(' ')}
            </Alert>
          )}
          <TextInput label="Name of the copy" withAsterisk data-autofocus {...form.getInputProps('name')} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={clone.isPending}>
              Clone
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
