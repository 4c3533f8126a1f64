import { Anchor, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { type UseQueryResult, useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { visibleNavigation } from '../../app/navigation.ts';
import { useMe } from '../../app/session.ts';
import { PageHeader } from '../../shared/PageHeader.tsx';
import { QueryState } from '../../shared/QueryState.tsx';
import { relativeTime } from '../../shared/relative-time.ts';
import { AiGenerationBadge } from '../ai-generation/AiGenerationBadge.tsx';
import { EmailStatusBadge } from '../emails/EmailStatusBadge.tsx';
import { type EmailSummary, workspaceEmailsQuery } from '../emails/emails-api.ts';
import { NotificationRow } from '../notifications/NotificationBell.tsx';
import { recentNotificationsQuery } from '../notifications/notifications-api.ts';
import { StartList } from './StartList.tsx';
import { useWorkspaceId } from './workspace.ts';

/** A workspace's start page: the first steps while any is left, what needs me now, what changed lately, and where to go. */
export function WorkspaceHome() {
  const me = useMe();
  const workspaceId = useWorkspaceId();
  const workspace = me.workspaces.find((candidate) => candidate.id === workspaceId);
  const workspaceItems = visibleNavigation(me.permissions).flatMap((section) =>
    section.items.filter((item) => item.to.includes('$workspaceId')),
  );
  const awaitingMe = useQuery(
    workspaceEmailsQuery(workspaceId, 'awaiting-me', { awaiting_my_review: true }, 10),
  );
  const changesRequested = useQuery(
    workspaceEmailsQuery(
      workspaceId,
      'changes-requested',
      { submitted_by_me: true, status: 'changes_requested' },
      10,
    ),
  );
  const recent = useQuery(workspaceEmailsQuery(workspaceId, 'recent', {}, 8));
  const mentions = useQuery(recentNotificationsQuery({ kind: 'mentioned_in_comment', per: 5 }));

  return (
    <Stack>
      <PageHeader title={workspace?.name ?? 'Workspace'} />
      <StartList workspaceId={workspaceId} />
      <Title order={2} size="h4">
        Needs you
      </Title>
      <SimpleGrid cols={{ base: 1, md: 3 }}>
        <HomeCard title="Waiting on your review">
          <EmailList query={awaitingMe} workspaceId={workspaceId} empty="No review is waiting on you." />
        </HomeCard>
        <HomeCard title="Changes requested on your emails">
          <EmailList
            query={changesRequested}
            workspaceId={workspaceId}
            empty="None of the emails you submitted needs changes."
          />
        </HomeCard>
        <HomeCard title="Mentions">
          <QueryState
            query={mentions}
            skeletonRows={2}
            isEmpty={(page) => page.results.length === 0}
            empty={
              <Text size="sm" c="dimmed">
                Nobody has mentioned you yet.
              </Text>
            }
          >
            {(page) => (
              <Stack gap={2} role="list" aria-label="Mentions">
                {page.results.map((notification) => (
                  <NotificationRow key={notification.id} notification={notification} />
                ))}
              </Stack>
            )}
          </QueryState>
        </HomeCard>
      </SimpleGrid>
      <HomeCard title="Recently changed emails">
        <EmailList query={recent} workspaceId={workspaceId} empty="No emails here yet." showEditor />
      </HomeCard>
      {workspaceItems.length > 0 && (
        <>
          <Title order={2} size="h4">
            Go to
          </Title>
          <SimpleGrid cols={{ base: 2, sm: 3, md: 5 }}>
            {workspaceItems.map((item) => (
              <Anchor
                key={item.to}
                component={Link}
                to={item.to.replace('$workspaceId', String(workspaceId))}
              >
                {item.label}
              </Anchor>
            ))}
          </SimpleGrid>
        </>
      )}
    </Stack>
  );
}

function HomeCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card withBorder padding="sm" component="section" aria-label={title}>
      <Text fw={600} mb="xs">
        {title}
      </Text>
      {children}
    </Card>
  );
}

function EmailList({
  query,
  workspaceId,
  empty,
  showEditor = false,
}: {
  query: UseQueryResult<{ results: EmailSummary[] }>;
  workspaceId: number;
  empty: string;
  showEditor?: boolean;
}) {
  return (
    <QueryState
      query={query}
      skeletonRows={2}
      isEmpty={(page) => page.results.length === 0}
      empty={
        <Text size="sm" c="dimmed">
          {empty}
        </Text>
      }
    >
      {(page) => (
        <Stack gap={6} role="list">
          {page.results.map((email) => (
            <Group key={email.id} justify="space-between" wrap="nowrap" role="listitem">
              <Stack gap={0} style={{ minWidth: 0 }}>
                <Anchor
                  component={Link}
                  to={`/workspaces/${workspaceId}/emails/${email.id}/edit`}
                  size="sm"
                  truncate
                >
                  {email.name}
                </Anchor>
                <Text size="xs" c="dimmed">
                  {showEditor && email.last_updated_by
                    ? `${email.last_updated_by.first_name} ${email.last_updated_by.last_name}, `
                    : ''}
                  {relativeTime(String(email.updated_at))}
                </Text>
              </Stack>
              <Group gap={6} wrap="nowrap">
                <EmailStatusBadge status={email.status} />
                <AiGenerationBadge generation={email} />
              </Group>
            </Group>
          ))}
        </Stack>
      )}
    </QueryState>
  );
}
