import { Badge, Button, Card, Group, List, Skeleton, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconCheck, IconCircleDashed } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { type ReactNode, useState } from 'react';
import { useCan, useMe } from '../../app/session.ts';
import { connectorListQuery } from '../connectors/connectors-api.ts';
import { CreateEmailModal } from '../emails/CreateEmailModal.tsx';
import { workspaceEmailsQuery } from '../emails/emails-api.ts';
import { ProjectFormModal } from '../projects/ProjectFormModal.tsx';
import { firstProjectQuery } from '../projects/projects-api.ts';
import { InviteUserModal } from '../settings/InviteUserModal.tsx';
import { usersQuery } from '../settings/settings-api.ts';

interface StartStep {
  key: string;
  label: string;
  /** Why this step, or what to do first when it cannot be done yet. */
  hint: string;
  done: boolean | undefined;
  action: ReactNode;
}

/**
 * The first steps of a new workspace, each ticked off from real data (a project, an email, a
 * second person, a connector), with a button that does it. Only the steps the person's role
 * allows are listed, and the list goes away once they are all done.
 */
export function StartList({ workspaceId }: { workspaceId: number }) {
  const can = useCan();
  const me = useMe();
  const navigate = useNavigate();
  const [dialog, setDialog] = useState<'project' | 'email' | 'invite' | null>(null);
  const canProjects = can('create_projects');
  const canEmails = can('create_emails');
  const canInvite = can('create_users');
  const canConnect = can('create_connectors');
  // Each step's count is the total of its list, one row asked for: no endpoint of its own. The
  // queries sit under the lists' own keys, so creating a project, email, person or connector
  // refreshes them. Without the lists' placeholders, as the previous workspace's ticks would show
  // until this one's counts come.
  const projects = useQuery({ ...firstProjectQuery(workspaceId), enabled: canProjects || canEmails });
  const emails = useQuery({
    ...workspaceEmailsQuery(workspaceId, 'start-list', {}, 1),
    placeholderData: undefined,
    enabled: canEmails,
  });
  const people = useQuery({ ...usersQuery({ page: 1, per: 1 }), enabled: canInvite });
  const connectors = useQuery({
    ...connectorListQuery(workspaceId, 1, 1),
    placeholderData: undefined,
    enabled: canConnect,
  });

  const projectCount = projects.data?.pagination.total;
  const onlyProject = projectCount === 1 ? projects.data?.results[0] : undefined;
  const steps: StartStep[] = [];
  if (canProjects) {
    steps.push({
      key: 'project',
      label: 'Create a project',
      hint: 'A project holds the emails one team works on.',
      done: projectCount === undefined ? undefined : projectCount > 0,
      action: <Button onClick={() => setDialog('project')}>New project</Button>,
    });
  }
  if (canEmails) {
    const noProject = projectCount === 0;
    steps.push({
      key: 'email',
      label: 'Create an email',
      hint: noProject
        ? 'Create a project first: every email belongs to one.'
        : 'Start from a layout of the Letterset Starter design system, or a blank email.',
      done: emails.data === undefined ? undefined : emails.data.pagination.total > 0,
      action: (
        <Button
          disabled={projectCount === undefined || noProject}
          onClick={() =>
            onlyProject
              ? setDialog('email')
              : navigate({
                  to: '/workspaces/$workspaceId/projects',
                  params: { workspaceId: String(workspaceId) },
                })
          }
        >
          {onlyProject || noProject ? 'New email' : 'Choose a project'}
        </Button>
      ),
    });
  }
  if (canInvite) {
    steps.push({
      key: 'invite',
      label: 'Invite people',
      hint: 'Bring in the people who write, translate and review your emails.',
      done: people.data === undefined ? undefined : people.data.pagination.total > 1,
      action: <Button onClick={() => setDialog('invite')}>Invite a person</Button>,
    });
  }
  if (canConnect) {
    steps.push({
      key: 'connect',
      label: 'Connect a sending platform',
      hint: 'Send finished emails to Iterable or Salesforce Marketing Cloud as templates.',
      done: connectors.data === undefined ? undefined : connectors.data.pagination.total > 0,
      action: (
        <Button
          onClick={() =>
            navigate({
              to: '/workspaces/$workspaceId/connectors',
              params: { workspaceId: String(workspaceId) },
            })
          }
        >
          Connect a platform
        </Button>
      ),
    });
  }

  const loading = steps.some((step) => step.done === undefined);
  const remaining = steps.filter((step) => step.done === false).length;
  if (steps.length === 0 || (!loading && remaining === 0)) return null;

  return (
    <Card withBorder padding="md" component="section" aria-label="Get started">
      <Group justify="space-between" mb="xs">
        <Text fw={600}>Get started</Text>
        {!loading && (
          <Badge variant="light">
            {steps.length - remaining} of {steps.length} done
          </Badge>
        )}
      </Group>
      <List spacing="sm" center listStyleType="none">
        {steps.map((step) => (
          <List.Item
            key={step.key}
            aria-label={`${step.label}${step.done ? ' (done)' : ''}`}
            icon={
              step.done ? (
                <ThemeIcon color="teal" size={24} radius="xl" aria-hidden>
                  <IconCheck size={16} />
                </ThemeIcon>
              ) : (
                <ThemeIcon color="gray" variant="light" size={24} radius="xl" aria-hidden>
                  <IconCircleDashed size={16} />
                </ThemeIcon>
              )
            }
          >
            <Group justify="space-between" wrap="wrap" gap="xs">
              <Stack gap={0}>
                <Text size="sm" fw={500} td={step.done ? 'line-through' : undefined}>
                  {step.label}
                </Text>
                <Text size="xs" c="dimmed">
                  {step.hint}
                </Text>
              </Stack>
              {step.done === undefined ? <Skeleton height={30} width={120} /> : !step.done && step.action}
            </Group>
          </List.Item>
        ))}
      </List>
      {dialog === 'project' && (
        <ProjectFormModal
          workspaceId={workspaceId}
          project={null}
          opened
          onClose={() => setDialog(null)}
          onSaved={(project) => navigate({ to: `/workspaces/${workspaceId}/projects/${project.id}` })}
        />
      )}
      {dialog === 'email' && onlyProject && (
        <CreateEmailModal
          workspaceId={workspaceId}
          projectId={onlyProject.id}
          opened
          onClose={() => setDialog(null)}
          onCreated={(emailId) => navigate({ to: `/workspaces/${workspaceId}/emails/${emailId}/edit` })}
        />
      )}
      <InviteUserModal
        heldKeys={me.permissions}
        opened={dialog === 'invite'}
        onClose={() => setDialog(null)}
        onInvited={() => setDialog(null)}
      />
    </Card>
  );
}
