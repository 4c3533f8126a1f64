import { ActionIcon, Anchor, Badge, Button, Group, Loader, Text, Tooltip } from '@mantine/core';
import { IconArrowBackUp, IconArrowForwardUp, IconChevronLeft } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { EmailStatusBadge } from '../emails/EmailStatusBadge.tsx';
import { useEditorSession } from './EditorContext.tsx';
import { type EditTarget, nameOf } from './edit-target.ts';
import type { SaveStatus } from './use-autosave.ts';

/** Where the email's changes are: on the server, on their way, or held back (and why). */
function SaveIndicator({ status, onRetry }: { status: SaveStatus; onRetry: () => void }) {
  switch (status.kind) {
    case 'saved':
      return (
        <Badge color="green" variant="light">
          Saved
        </Badge>
      );
    case 'unsaved':
      return (
        <Badge color="gray" variant="light">
          Unsaved changes
        </Badge>
      );
    case 'saving':
      return (
        <Badge color="blue" variant="light" leftSection={<Loader size={10} />}>
          Saving…
        </Badge>
      );
    case 'offline':
      return (
        <Tooltip label="Your changes are kept in this browser and saved when the server can be reached.">
          <Badge color="orange" variant="light">
            Offline – will retry
          </Badge>
        </Tooltip>
      );
    case 'restored_draft':
      return (
        <Badge color="orange" variant="light">
          Unsaved changes restored
        </Badge>
      );
    case 'conflict':
      return (
        <Badge color="red" variant="light">
          Conflict
        </Badge>
      );
    case 'failed':
      return (
        <Group gap={4}>
          <Tooltip label={status.message}>
            <Badge color="red" variant="light">
              Not saved
            </Badge>
          </Tooltip>
          <Button size="compact-xs" variant="subtle" onClick={onRetry}>
            Retry
          </Button>
        </Group>
      );
  }
}

/**
 * The editor's top bar: back to where the email (its project) or layout (its design system's
 * layouts) lives, the name, save state, undo and redo, view controls.
 */
export function EditorToolbar({
  workspaceId,
  target,
  status,
  canUndo,
  canRedo,
  onRetrySave,
  children,
}: {
  workspaceId: number;
  target: EditTarget;
  status: SaveStatus;
  canUndo: boolean;
  canRedo: boolean;
  onRetrySave: () => void;
  children: ReactNode;
}) {
  const { editor } = useEditorSession();
  return (
    <Group justify="space-between" mb="xs" wrap="wrap" gap="xs">
      <Group gap="xs" wrap="nowrap">
        {target.kind === 'email' ? (
          <Anchor
            component={Link}
            to={`/workspaces/${workspaceId}/projects/${target.email.project_id}`}
            aria-label="Back to the project"
          >
            <IconChevronLeft size={18} />
          </Anchor>
        ) : (
          <Link
            to="/workspaces/$workspaceId/design-systems/$designSystemId"
            params={{
              workspaceId: String(workspaceId),
              designSystemId: String(target.layout.email_design_system_id),
            }}
            search={{ tab: 'layouts' }}
            aria-label="Back to the layouts"
            style={{ color: 'var(--mantine-color-anchor)', display: 'inline-flex' }}
          >
            <IconChevronLeft size={18} />
          </Link>
        )}
        <Text fw={600} component="h1" fz="lg" m={0}>
          {nameOf(target)}
        </Text>
        {target.kind === 'email' ? (
          <EmailStatusBadge status={target.email.status} />
        ) : (
          <Badge variant="light" color="grape">
            Layout
          </Badge>
        )}
        <span role="status" aria-label="Save state">
          <SaveIndicator status={status} onRetry={onRetrySave} />
        </span>
      </Group>
      <Group gap="xs">
        <Tooltip label="Undo (Ctrl/Cmd+Z)">
          <ActionIcon variant="default" aria-label="Undo" disabled={!canUndo} onClick={() => editor.undo()}>
            <IconArrowBackUp size={16} />
          </ActionIcon>
        </Tooltip>
        <Tooltip label="Redo (Ctrl/Cmd+Shift+Z)">
          <ActionIcon variant="default" aria-label="Redo" disabled={!canRedo} onClick={() => editor.redo()}>
            <IconArrowForwardUp size={16} />
          </ActionIcon>
        </Tooltip>
        {children}
      </Group>
    </Group>
  );
}
