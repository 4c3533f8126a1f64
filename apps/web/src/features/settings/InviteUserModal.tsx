import { Alert, Button, Group, Modal, MultiSelect, Select, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../app/api.ts';
import { unwrap } from '../../shared/api-error.ts';
import { showApiErrors } from '../../shared/form-errors.ts';
import { allRolesQuery, type User, workspacesQuery } from './settings-api.ts';

const formFields = ['first_name', 'last_name', 'email', 'role_id', 'workspace_ids'];

/** Invites a person: the API creates the user and emails them a link to set their password. */
export function InviteUserModal({
  opened,
  onClose,
  onInvited,
}: {
  opened: boolean;
  onClose: () => void;
  onInvited: (user: User) => void;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title="Invite a person" size="lg">
      {opened && <InviteForm onCancel={onClose} onInvited={onInvited} />}
    </Modal>
  );
}

function InviteForm({ onCancel, onInvited }: { onCancel: () => void; onInvited: (user: User) => void }) {
  const queryClient = useQueryClient();
  const roles = useQuery(allRolesQuery);
  const workspaces = useQuery(workspacesQuery({ page: 1, per: 100 }));
  const [problem, setProblem] = useState<string[]>([]);
  const form = useForm({
    initialValues: { first_name: '', last_name: '', email: '', role_id: '', workspace_ids: [] as string[] },
    validate: {
      first_name: (value) => (value.trim() ? null : 'Enter a first name'),
      last_name: (value) => (value.trim() ? null : 'Enter a last name'),
      email: (value) => (/^\S+@\S+$/.test(value.trim()) ? null : 'Enter an email address'),
      role_id: (value) => (value ? null : 'Choose a role'),
    },
  });
  const invite = useMutation({
    mutationFn: (values: typeof form.values) =>
      unwrap(
        api.POST('/api/v1/users', {
          body: {
            first_name: values.first_name.trim(),
            last_name: values.last_name.trim(),
            email: values.email.trim(),
            role_id: Number(values.role_id),
            workspace_ids: values.workspace_ids.map(Number),
          },
        }),
      ),
    onSuccess: async (user) => {
      await queryClient.invalidateQueries({ queryKey: ['users'] });
      onInvited(user);
    },
    onError: (error) => setProblem(showApiErrors(form, error, formFields)),
  });

  return (
    <form onSubmit={form.onSubmit((values) => invite.mutate(values))} noValidate>
      <Stack gap="sm">
        {problem.length > 0 && (
          <Alert color="red" role="alert">
            {problem.join(' ')}
          </Alert>
        )}
        <Group grow align="flex-start">
          <TextInput
            label="First name"
            required
            maxLength={100}
            data-autofocus
            {...form.getInputProps('first_name')}
          />
          <TextInput label="Last name" required maxLength={100} {...form.getInputProps('last_name')} />
        </Group>
        <TextInput label="Email" type="email" required maxLength={254} {...form.getInputProps('email')} />
        <Select
          label="Role"
          required
          placeholder={roles.isPending ? 'Loading roles…' : 'Choose a role'}
          data={(roles.data ?? []).map((role) => ({ value: String(role.id), label: role.name }))}
          error={roles.isError ? 'The roles could not be loaded' : undefined}
          {...form.getInputProps('role_id')}
        />
        <MultiSelect
          label="Workspaces"
          description="Workspaces that everyone joins are added anyway"
          placeholder="Choose workspaces"
          data={(workspaces.data?.results ?? []).map((workspace) => ({
            value: String(workspace.id),
            label: workspace.name,
          }))}
          searchable
          {...form.getInputProps('workspace_ids')}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={invite.isPending}>
            Send invitation
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
