import { Alert, Button, Group, Stack, Switch, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { meQuery } from '../../app/session.ts';
import { showApiErrors } from '../../shared/form-errors.ts';
import type { Workspace } from './settings-api.ts';
import { saveWorkspace } from './settings-api.ts';

/** Creates a workspace (no `workspace`) or renames one and changes whether everyone joins it. */
export function WorkspaceForm({
  workspace,
  onDone,
  onCancel,
}: {
  workspace: Workspace | null;
  onDone: (workspace: Workspace) => void;
  onCancel: () => void;
}) {
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<string[]>([]);
  const form = useForm({
    initialValues: { name: workspace?.name ?? '', auto_join: workspace?.auto_join ?? false },
    validate: { name: (value) => (value.trim() ? null : 'Give the workspace a name') },
  });
  const save = useMutation({
    mutationFn: ({ name, auto_join }: typeof form.values) =>
      saveWorkspace(workspace?.id ?? null, { name: name.trim(), auto_join }),
    onSuccess: async (saved) => {
      // The workspace switcher lists the user's workspaces from `me`.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ['workspaces'] }),
        queryClient.invalidateQueries({ queryKey: meQuery.queryKey }),
      ]);
      onDone(saved);
    },
    onError: (error) => setProblem(showApiErrors(form, error, ['name', 'auto_join'])),
  });
  return (
    <form onSubmit={form.onSubmit((values) => save.mutate(values))} noValidate>
      <Stack gap="sm">
        {problem.length > 0 && (
          <Alert color="red" role="alert">
            {problem.join(' ')}
          </Alert>
        )}
        <TextInput label="Name" required maxLength={100} data-autofocus {...form.getInputProps('name')} />
        <Switch
          label="Everyone joins"
          description="People invited later become members automatically"
          {...form.getInputProps('auto_join', { type: 'checkbox' })}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            {workspace ? 'Save' : 'Create workspace'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
