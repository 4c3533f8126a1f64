import { Alert, Button, Group, Modal, MultiSelect, Select, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { showApiErrors } from '../../shared/form-errors.ts';
import { roleChoices } from './role-choices.ts';
import { allRolesQuery, allTeamsQuery, allWorkspacesQuery, inviteUser, type User } from './settings-api.ts';

const formFields = ['first_name', 'last_name', 'email', 'role_id', 'workspace_ids', 'team_ids'];

/** Invites a person: the API creates the user and emails them a link to set their password. */
export function InviteUserModal({
  opened,
  heldKeys,
  onClose,
  onInvited,
}: {
  opened: boolean;
  /** The inviter's own keys: an invitation may give only a role within them. */
  heldKeys: readonly string[];
  onClose: () => void;
  onInvited: (user: User) => void;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title="Invite a person" size="lg">
      {opened && <InviteForm heldKeys={heldKeys} onCancel={onClose} onInvited={onInvited} />}
    </Modal>
  );
}

function InviteForm({
  heldKeys,
  onCancel,
  onInvited,
}: {
  heldKeys: readonly string[];
  onCancel: () => void;
  onInvited: (user: User) => void;
}) {
  const queryClient = useQueryClient();
  const roles = useQuery(allRolesQuery);
  const workspaces = useQuery(allWorkspacesQuery);
  const teams = useQuery(allTeamsQuery);
  const [problem, setProblem] = useState<string[]>([]);
  const form = useForm({
    initialValues: {
      first_name: '',
      last_name: '',
      email: '',
      role_id: '',
      workspace_ids: [] as string[],
      team_ids: [] as string[],
    },
    validate: {
      first_name: (value) => (value.trim() ? null : 'Enter a first name'),
      last_name: (value) => (value.trim() ? null : 'Enter a last name'),
      email: (value) => (/^\S+@\S+$/.test(value.trim()) ? null : 'Enter an email address'),
      role_id: (value) => (value ? null : 'Choose a role'),
    },
  });
  const invite = useMutation({
    mutationFn: (values: typeof form.values) =>
      inviteUser({
        first_name: values.first_name.trim(),
        last_name: values.last_name.trim(),
        email: values.email.trim(),
        role_id: Number(values.role_id),
        workspace_ids: values.workspace_ids.map(Number),
        team_ids: values.team_ids.map(Number),
      }),
    onSuccess: async (user) => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ['users'] }),
        queryClient.invalidateQueries({ queryKey: ['teams'] }),
      ]);
      onInvited(user);
    },
    onError: (error) => setProblem(showApiErrors(form, error, formFields)),
  });

  // A team can only be joined along with its workspace: offer the teams of the chosen workspaces.
  const chosenWorkspaces = (workspaces.data ?? []).filter((workspace) =>
    form.values.workspace_ids.includes(String(workspace.id)),
  );
  const teamChoices = chosenWorkspaces
    .map((workspace) => ({
      group: workspace.name,
      items: (teams.data ?? [])
        .filter((team) => team.workspace_id === workspace.id)
        .map((team) => ({ value: String(team.id), label: team.name })),
    }))
    .filter((group) => group.items.length > 0);
  const chooseWorkspaces = (workspaceIds: string[]) => {
    form.setFieldValue('workspace_ids', workspaceIds);
    const stillOffered = new Set(
      (teams.data ?? [])
        .filter((team) => workspaceIds.includes(String(team.workspace_id)))
        .map((team) => String(team.id)),
    );
    form.setFieldValue(
      'team_ids',
      form.values.team_ids.filter((teamId) => stillOffered.has(teamId)),
    );
  };

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
          data={roleChoices(roles.data ?? [], heldKeys)}
          error={roles.isError ? 'The roles could not be loaded' : undefined}
          {...form.getInputProps('role_id')}
        />
        <MultiSelect
          label="Workspaces"
          description="Workspaces that everyone joins are added anyway"
          placeholder="Choose workspaces"
          data={(workspaces.data ?? []).map((workspace) => ({
            value: String(workspace.id),
            label: workspace.name,
          }))}
          searchable
          {...form.getInputProps('workspace_ids')}
          error={
            form.errors.workspace_ids ??
            (workspaces.isError ? 'The workspaces could not be loaded' : undefined)
          }
          onChange={chooseWorkspaces}
        />
        <MultiSelect
          label="Teams"
          description="Team members see the team's projects and their emails"
          placeholder={
            form.values.workspace_ids.length === 0
              ? 'Choose a workspace first'
              : teamChoices.length === 0
                ? 'The chosen workspaces have no teams'
                : 'Choose teams'
          }
          disabled={teamChoices.length === 0}
          data={teamChoices}
          searchable
          {...form.getInputProps('team_ids')}
          error={form.errors.team_ids ?? (teams.isError ? 'The teams could not be loaded' : undefined)}
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
