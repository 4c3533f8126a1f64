import { Alert, Badge, Button, ColorInput, Group, Select, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { showApiErrors } from '../../shared/form-errors.ts';
import { useOnlyChoice } from '../../shared/only-choice.ts';
import type { Team, TeamColor } from './settings-api.ts';
import { allWorkspacesQuery, createTeam, updateTeam } from './settings-api.ts';
import { teamColorHex, teamColorOf, teamColors } from './team-colors.ts';

/** Creates a team in a workspace (no `team`) or renames one and changes its badge colour. */
export function TeamForm({
  team,
  defaultWorkspaceId,
  onDone,
  onCancel,
}: {
  team: Team | null;
  defaultWorkspaceId: number | null;
  onDone: (team: Team) => void;
  onCancel: () => void;
}) {
  const queryClient = useQueryClient();
  const workspaces = useQuery(allWorkspacesQuery);
  const [problem, setProblem] = useState<string[]>([]);
  const form = useForm({
    initialValues: {
      name: team?.name ?? '',
      workspace_id: String(team?.workspace_id ?? defaultWorkspaceId ?? ''),
      badge_color: (team?.badge_color ?? 'blue') as TeamColor,
    },
    validate: {
      name: (value) => (value.trim() ? null : 'Give the team a name'),
      workspace_id: (value) => (value ? null : 'Choose a workspace'),
    },
  });
  const workspaceChoices = workspaces.data?.map((workspace) => ({
    value: String(workspace.id),
    label: workspace.name,
  }));
  useOnlyChoice(workspaceChoices, form.values.workspace_id, (value) =>
    form.setFieldValue('workspace_id', value),
  );
  const save = useMutation({
    mutationFn: ({ name, workspace_id, badge_color }: typeof form.values) =>
      team
        ? updateTeam(team.id, { name: name.trim(), badge_color })
        : createTeam({ name: name.trim(), workspace_id: Number(workspace_id), badge_color }),
    onSuccess: async (saved) => {
      await queryClient.invalidateQueries({ queryKey: ['teams'] });
      onDone(saved);
    },
    onError: (error) => setProblem(showApiErrors(form, error, ['name', 'workspace_id', 'badge_color'])),
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
        <Select
          label="Workspace"
          required
          disabled={team !== null}
          description={team ? 'A team stays in the workspace it was made in' : undefined}
          data={workspaceChoices ?? []}
          allowDeselect={false}
          {...form.getInputProps('workspace_id')}
        />
        {/* The API knows named colours only, so the picker offers exactly those as swatches. */}
        <ColorInput
          label="Badge colour"
          withPicker={false}
          disallowInput
          swatches={teamColors.map((color) => teamColorHex[color])}
          swatchesPerRow={8}
          value={teamColorHex[form.values.badge_color]}
          onChange={(hex) => {
            const color = teamColorOf(hex);
            if (color) form.setFieldValue('badge_color', color);
          }}
          error={form.errors.badge_color}
          rightSection={
            <Badge color={teamColorHex[form.values.badge_color]} autoContrast>
              {form.values.badge_color}
            </Badge>
          }
          rightSectionWidth={90}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            {team ? 'Save' : 'Create team'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
