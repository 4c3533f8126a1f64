import { Alert, Button, Group, Modal, Stack, Switch, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { showApiErrors } from '../../shared/form-errors.ts';
import { AiBriefFields } from '../ai-generation/AiBriefFields.tsx';
import { cloneEmail, type EmailSummary } from './emails-api.ts';

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
    initialValues: {
      name: `${email.name} (copy)`,
      clone_with_ai: false,
      prompt: '',
      ai_agent_id: email.ai_agent_id === null ? '' : String(email.ai_agent_id),
    },
    validate: {
      name: (value) => (value.trim() ? null : 'Enter a name'),
      prompt: (value, values) =>
        !values.clone_with_ai || value.trim() ? null : 'Say how to rewrite the copy',
    },
  });
  const clone = useMutation({
    mutationFn: (values: typeof form.values) =>
      cloneEmail(workspaceId, email.id, {
        name: values.name.trim(),
        ...(values.clone_with_ai
          ? {
              clone_with_ai: true,
              prompt: values.prompt.trim(),
              ai_agent_id: values.ai_agent_id ? Number(values.ai_agent_id) : null,
            }
          : {}),
      }),
    onSuccess: () => {
      onCloned();
      onClose();
    },
    onError: (error) => setOtherErrors(showApiErrors(form, error, ['name', 'prompt', 'ai_agent_id'])),
  });
  return (
    <Modal opened onClose={onClose} title={`Clone ${email.name}`}>
      <form
        onSubmit={form.onSubmit((values) => {
          setOtherErrors([]);
          clone.mutate(values);
        })}
      >
        <Stack>
          {otherErrors.length > 0 && (
            <Alert color="red" role="alert">
              {otherErrors.join(' ')}
            </Alert>
          )}
          <TextInput label="Name of the copy" withAsterisk data-autofocus {...form.getInputProps('name')} />
          <Switch
            label="Rewrite the copy with AI"
            description="The copy keeps its sections; AI rewrites their values as you ask"
            {...form.getInputProps('clone_with_ai', { type: 'checkbox' })}
          />
          {form.values.clone_with_ai && (
            <AiBriefFields
              workspaceId={workspaceId}
              briefLabel="How to rewrite it"
              briefPlaceholder="Make it about our Rome weekend, same structure, prices from €249."
              prompt={form.getInputProps('prompt')}
              agent={{
                ...form.getInputProps('ai_agent_id'),
                onChange: (value: string | null) => form.setFieldValue('ai_agent_id', value ?? ''),
              }}
            />
          )}
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
