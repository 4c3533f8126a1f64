import { Alert, Anchor, Button, Group, Modal, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useCan } from '../../app/session.ts';
import { showApiErrors } from '../../shared/form-errors.ts';
import { useOnlyChoice } from '../../shared/only-choice.ts';
import { TeamForm } from '../settings/TeamForm.tsx';
import { type Project, projectsKey, saveProject, teamsQuery } from './projects-api.ts';

interface ProjectFormValues {
  name: string;
  description: string;
  team_id: string;
}

const formFields = ['name', 'description', 'team_id'] as const;

/**
 * Creates a project, or changes one when `project` is given (name, description, owning team).
 * A project needs a team: the only team is preselected, and a new one can be made right here.
 */
export function ProjectFormModal({
  workspaceId,
  project,
  opened,
  onClose,
  onSaved,
}: {
  workspaceId: number;
  project: Project | null;
  opened: boolean;
  onClose: () => void;
  onSaved?: (project: Project) => void;
}) {
  const queryClient = useQueryClient();
  const can = useCan();
  const teams = useQuery({ ...teamsQuery(workspaceId), enabled: opened });
  const [otherErrors, setOtherErrors] = useState<string[]>([]);
  // The team form takes the dialog's place while open; the project form keeps what was typed.
  const [creatingTeam, setCreatingTeam] = useState(false);
  const form = useForm<ProjectFormValues>({
    initialValues: {
      name: project?.name ?? '',
      description: project?.description ?? '',
      team_id: project ? String(project.team_id) : '',
    },
    validate: {
      name: (value) => (value.trim() ? null : 'Enter a name'),
      team_id: (value) => (value ? null : 'Choose the team that owns the project'),
    },
  });
  const teamChoices = teams.data?.results.map((team) => ({ value: String(team.id), label: team.name }));
  useOnlyChoice(teamChoices, form.values.team_id, (value) => form.setFieldValue('team_id', value));
  const noTeams = teams.isSuccess && teams.data.results.length === 0;
  const save = useMutation({
    mutationFn: (values: ProjectFormValues) =>
      saveProject(workspaceId, project, {
        name: values.name.trim(),
        description: values.description.trim() || null,
        team_id: Number(values.team_id),
      }),
    onSuccess: async (saved) => {
      await queryClient.invalidateQueries({ queryKey: projectsKey(workspaceId) });
      onSaved?.(saved);
      onClose();
    },
    onError: (error) => setOtherErrors(showApiErrors(form, error, formFields)),
  });
  if (creatingTeam) {
    return (
      <Modal opened={opened} onClose={onClose} title="New team">
        <TeamForm
          team={null}
          defaultWorkspaceId={workspaceId}
          onCancel={() => setCreatingTeam(false)}
          onDone={async (team) => {
            await queryClient.invalidateQueries({ queryKey: ['workspaces', workspaceId, 'teams'] });
            if (team.workspace_id === workspaceId) form.setFieldValue('team_id', String(team.id));
            setCreatingTeam(false);
          }}
        />
      </Modal>
    );
  }

  return (
    <Modal opened={opened} onClose={onClose} title={project ? 'Edit project' : 'New project'}>
      <form
        onSubmit={form.onSubmit((values) => {
          setOtherErrors([]);
          save.mutate(values);
        })}
      >
        <Stack>
          {otherErrors.length > 0 && (
            <Alert color="red" role="alert">
              {otherErrors.join(' ')}
            </Alert>
          )}
          <TextInput label="Name" withAsterisk data-autofocus {...form.getInputProps('name')} />
          <Textarea label="Description" autosize minRows={2} {...form.getInputProps('description')} />
          <Select
            label="Team"
            withAsterisk
            placeholder={
              teams.isPending ? 'Loading teams…' : noTeams ? 'No team in this workspace yet' : 'Choose a team'
            }
            description="The team’s members see the project and its emails."
            data={teamChoices ?? []}
            allowDeselect={false}
            {...form.getInputProps('team_id')}
            error={teams.isError ? 'The teams could not be loaded.' : form.errors.team_id}
          />
          {can('create_teams') ? (
            <Anchor component="button" type="button" size="sm" onClick={() => setCreatingTeam(true)}>
              {noTeams ? 'Create the first team' : 'New team'}
            </Anchor>
          ) : (
            noTeams && (
              <Text size="sm" c="dimmed">
                Ask someone who manages teams to create one in this workspace.
              </Text>
            )
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending}>
              {project ? 'Save' : 'Create project'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
