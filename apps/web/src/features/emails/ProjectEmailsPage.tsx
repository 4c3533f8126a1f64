import { ActionIcon, Anchor, Button, Group, Menu, Select, Table, Text, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDots, IconPlus } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from '@tanstack/react-router';
import { useState } from 'react';
import { useCan } from '../../app/session.ts';
import { errorMessage } from '../../shared/api-error.ts';
import { confirmDestructive } from '../../shared/confirm.tsx';
import { EmptyState } from '../../shared/EmptyState.tsx';
import { ListPagination } from '../../shared/ListPagination.tsx';
import { PageHeader } from '../../shared/PageHeader.tsx';
import { QueryState } from '../../shared/QueryState.tsx';
import { SearchInput } from '../../shared/SearchInput.tsx';
import { AiGenerationBadge } from '../ai-generation/AiGenerationBadge.tsx';
import { ExportDialog } from '../exports/ExportDialog.tsx';
import { confirmAndDeleteProject } from '../projects/delete-project.ts';
import { ProjectFormModal } from '../projects/ProjectFormModal.tsx';
import { projectQuery } from '../projects/projects-api.ts';
import { TeamBadge } from '../projects/TeamBadge.tsx';
import { useWorkspaceId } from '../shell/workspace.ts';
import { CloneEmailModal } from './CloneEmailModal.tsx';
import { CreateEmailModal } from './CreateEmailModal.tsx';
import { EmailStatusBadge, emailStatusLabels } from './EmailStatusBadge.tsx';
import {
  type AiGenerationFilter,
  aiGenerationFilterOptions,
  type EmailStatus,
  type EmailSummary,
  projectEmailsQuery,
  useDeleteEmail,
} from './emails-api.ts';

const statusOptions = Object.entries(emailStatusLabels).map(([value, label]) => ({ value, label }));

/** One project: its emails, most recently changed first, and what can be done with them. */
export function ProjectEmailsPage() {
  const workspaceId = useWorkspaceId();
  const { projectId: projectParam } = useParams({
    from: '/_app/workspaces/$workspaceId/projects/$projectId/',
  });
  const projectId = Number(projectParam);
  const can = useCan();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<EmailStatus | null>(null);
  const [aiGeneration, setAiGeneration] = useState<AiGenerationFilter | null>(null);
  const [page, setPage] = useState(1);
  const [creating, setCreating] = useState(false);
  const [editingProject, setEditingProject] = useState(false);
  const [cloning, setCloning] = useState<EmailSummary | null>(null);
  const [exporting, setExporting] = useState<EmailSummary | null>(null);
  const project = useQuery(projectQuery(workspaceId, projectId));
  const emails = useQuery({
    ...projectEmailsQuery(workspaceId, projectId, { search, status, aiGeneration, page }),
    // While AI writes an email of the page, the list shows when it is done.
    refetchInterval: (query) =>
      query.state.data?.results.some((email) => email.ai_generation_status === 'generating') ? 4_000 : false,
  });
  const deleteEmail = useDeleteEmail(workspaceId);
  const refreshEmails = () =>
    queryClient.invalidateQueries({ queryKey: ['workspaces', workspaceId, 'emails'] });

  function openEditor(emailId: number) {
    navigate({ to: `/workspaces/${workspaceId}/emails/${emailId}/edit` });
  }

  async function removeEmail(email: EmailSummary) {
    const confirmed = await confirmDestructive({
      title: `Delete ${email.name}?`,
      message: 'The email and its versions are deleted for everyone. This cannot be undone.',
      confirmLabel: 'Delete email',
    });
    if (!confirmed) return;
    try {
      await deleteEmail.mutateAsync(email.id);
    } catch (error) {
      notifications.show({ color: 'red', message: errorMessage(error) });
    }
  }

  async function removeProject() {
    if (!project.data) return;
    if (await confirmAndDeleteProject(workspaceId, project.data)) {
      await queryClient.invalidateQueries({ queryKey: ['workspaces', workspaceId] });
      navigate({ to: '/workspaces/$workspaceId/projects', params: { workspaceId: String(workspaceId) } });
    }
  }

  const projectsPath = `/workspaces/${workspaceId}/projects`;
  return (
    <>
      <PageHeader
        title={
          <Group gap="sm" component="span">
            {project.data?.name ?? 'Project'}
            {project.data && <TeamBadge team={project.data.team} />}
          </Group>
        }
        breadcrumbs={[{ label: 'Projects', to: projectsPath }, { label: project.data?.name ?? 'Project' }]}
        actions={
          <>
            {can('update_projects') && project.data && (
              <Button variant="default" onClick={() => setEditingProject(true)}>
                Edit project
              </Button>
            )}
            {can('delete_projects') && project.data && (
              <Button variant="default" color="red" onClick={removeProject}>
                Delete project
              </Button>
            )}
            {can('create_emails') && (
              <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
                New email
              </Button>
            )}
          </>
        }
      />
      {project.data?.description && (
        <Text c="dimmed" mb="md">
          {project.data.description}
        </Text>
      )}
      <Group mb="md" align="flex-end">
        <SearchInput
          value={search}
          label="Search emails"
          onSearch={(term) => {
            setSearch(term);
            setPage(1);
          }}
        />
        <Select
          aria-label="Status"
          placeholder="Any status"
          clearable
          data={statusOptions}
          value={status}
          onChange={(value) => {
            setStatus(value as EmailStatus | null);
            setPage(1);
          }}
          w={200}
        />
        <Select
          aria-label="AI"
          placeholder="Any AI state"
          clearable
          data={aiGenerationFilterOptions}
          value={aiGeneration}
          onChange={(value) => {
            setAiGeneration(value as AiGenerationFilter | null);
            setPage(1);
          }}
          w={160}
        />
      </Group>
      <QueryState
        query={emails}
        isEmpty={(data) => data.results.length === 0}
        empty={
          search || status || aiGeneration ? (
            <Text c="dimmed">No email matches these filters.</Text>
          ) : (
            <EmptyState
              title="No emails in this project yet."
              hint="Start one from a layout of a design system, or from a blank email."
              action={
                can('create_emails') && (
                  <Button variant="light" onClick={() => setCreating(true)}>
                    Create the first email
                  </Button>
                )
              }
            />
          )
        }
      >
        {(data) => (
          <>
            <Table.ScrollContainer minWidth={620}>
              <Table highlightOnHover verticalSpacing="sm">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Name</Table.Th>
                    <Table.Th>Status</Table.Th>
                    <Table.Th>Locales</Table.Th>
                    <Table.Th>Last changed</Table.Th>
                    <Table.Th w={56}>
                      <VisuallyHidden>Actions</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.results.map((email) => (
                    <Table.Tr key={email.id}>
                      <Table.Td>
                        <Anchor
                          component={Link}
                          to={`/workspaces/${workspaceId}/emails/${email.id}/edit`}
                          fw={500}
                        >
                          {email.name}
                        </Anchor>
                      </Table.Td>
                      <Table.Td>
                        <Group gap={6} wrap="nowrap">
                          <EmailStatusBadge status={email.status} />
                          <AiGenerationBadge generation={email} />
                        </Group>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">{email.locales.join(', ')}</Text>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm" c="dimmed">
                          {new Date(email.updated_at).toLocaleString()}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        {(can('create_emails') || can('delete_emails') || can('create_exports')) && (
                          <Menu position="bottom-end">
                            <Menu.Target>
                              <ActionIcon
                                variant="subtle"
                                color="gray"
                                aria-label={`Actions for ${email.name}`}
                              >
                                <IconDots size={16} />
                              </ActionIcon>
                            </Menu.Target>
                            <Menu.Dropdown>
                              {can('create_emails') && (
                                <Menu.Item onClick={() => setCloning(email)}>Clone</Menu.Item>
                              )}
                              {can('create_exports') && (
                                <Menu.Item onClick={() => setExporting(email)}>Export…</Menu.Item>
                              )}
                              {can('delete_emails') && (
                                <Menu.Item color="red" onClick={() => removeEmail(email)}>
                                  Delete
                                </Menu.Item>
                              )}
                            </Menu.Dropdown>
                          </Menu>
                        )}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            <ListPagination pagination={data.pagination} onPage={setPage} />
          </>
        )}
      </QueryState>
      {creating && (
        <CreateEmailModal
          workspaceId={workspaceId}
          projectId={projectId}
          opened
          onClose={() => setCreating(false)}
          onCreated={openEditor}
        />
      )}
      {cloning && (
        <CloneEmailModal
          workspaceId={workspaceId}
          email={cloning}
          onClose={() => setCloning(null)}
          onCloned={refreshEmails}
        />
      )}
      {exporting && (
        <ExportDialog workspaceId={workspaceId} email={exporting} onClose={() => setExporting(null)} />
      )}
      {editingProject && project.data && (
        <ProjectFormModal
          workspaceId={workspaceId}
          project={project.data}
          opened
          onClose={() => setEditingProject(false)}
        />
      )}
    </>
  );
}
