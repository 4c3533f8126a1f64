import { Alert, Button, Group, Modal, Select, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../app/api.ts';
import { unwrap } from '../../shared/api-error.ts';
import { showApiErrors } from '../../shared/form-errors.ts';
import { type Project, teamsQuery } from './projects-api.ts';

interface ProjectFormValues {
  name: string;
  description: string;
  team_id: string;
}

const formFields = ['name', 'description', 'team_id'] as const;

/** Creates a project, or changes one when `project` is given (name, description, owning team). */
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
  const teams = useQuery({ ...teamsQuery(workspaceId), enabled: opened });
  const [otherErrors, setOtherErrors] = useState<string[]>([]);
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
  const save = useMutation({
    mutationFn: (values: ProjectFormValues) => {
      const body = {
        name: values.name.trim(),
        description: values.description.trim() || null,
        team_id: Number(values.team_id),
      };
      return project
        ? unwrap(
            api.PATCH('/api/v1/workspaces/{workspace_id}/projects/{id}', {
              params: { path: { workspace_id: workspaceId, id: project.id } },
              body,
            }),
          )
        : unwrap(
            api.POST('/api/v1/workspaces/{workspace_id}/projects', {
              params: { path: { workspace_id: workspaceId } },
              body,
            }),
          );
    },
    onSuccess: async (saved) => {
      await queryClient.invalidateQueries({ queryKey: ['workspaces', workspaceId, 'projects'] });
      onSaved?.(saved);
      onClose();
    },
    onError: (error) => setOtherErrors(showApiErrors(form, error, formFields)),
  });
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
            placeholder={teams.isPending ? 'Loading teams…' : 'Choose a team'}
            data={(teams.data?.results ?? []).map((team) => ({ value: String(team.id), label: team.name }))}
            error={teams.isError ? 'The teams could not be loaded.' : undefined}
            {...form.getInputProps('team_id')}
          />
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
