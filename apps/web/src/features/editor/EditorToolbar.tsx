import {
  ActionIcon,
  Anchor,
  Badge,
  Box,
  Button,
  Group,
  Loader,
  Menu,
  Switch,
  Text,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import {
  IconArrowBackUp,
  IconArrowForwardUp,
  IconCheck,
  IconChevronLeft,
  IconDotsVertical,
} from '@tabler/icons-react';
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

/** An action of the top bar that makes way for the primary ones when the window is not wide. */
export interface SecondaryAction {
  label: string;
  onClick: () => void;
  /** A view setting turned on and off (a switch on a wide window, a checked entry in the menu). */
  checked?: boolean;
}

/**
 * The secondary actions: buttons on a wide window (at least 100em, 1600 px), else the entries of a
 * "More actions" menu, so that the bar keeps one row at 1280 and 1440 px with the review actions.
 */
function SecondaryActions({ actions }: { actions: readonly SecondaryAction[] }) {
  const wide = useMediaQuery('(min-width: 100em)') === true;
  if (actions.length === 0) return null;
  if (wide) {
    return actions.map((action) =>
      action.checked === undefined ? (
        <Button key={action.label} size="xs" variant="default" onClick={action.onClick}>
          {action.label}
        </Button>
      ) : (
        <Switch
          key={action.label}
          size="xs"
          label={action.label}
          checked={action.checked}
          onChange={action.onClick}
          styles={{ label: { whiteSpace: 'nowrap' } }}
        />
      ),
    );
  }
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Tooltip label="More actions">
          <ActionIcon variant="default" aria-label="More actions">
            <IconDotsVertical size={16} />
          </ActionIcon>
        </Tooltip>
      </Menu.Target>
      <Menu.Dropdown>
        {actions.map((action) =>
          action.checked === undefined ? (
            <Menu.Item key={action.label} onClick={action.onClick}>
              {action.label}
            </Menu.Item>
          ) : (
            // Mantine's menu items are always `menuitem` (no aria-checked), so the state is in the name.
            <Menu.Item
              key={action.label}
              leftSection={action.checked ? <IconCheck size={14} /> : <Box w={14} />}
              onClick={action.onClick}
            >
              {action.label}
              <VisuallyHidden>{action.checked ? ' (on)' : ' (off)'}</VisuallyHidden>
            </Menu.Item>
          ),
        )}
      </Menu.Dropdown>
    </Menu>
  );
}

/**
 * The editor's top bar: back to where the email (its project) or layout (its design system's
 * layouts) lives, the name, save state, undo and redo, view controls, then the secondary actions.
 * The name gives way (it is cut short) before the bar takes a second row; on a phone, where the
 * controls alone are wider than the screen, they go below the name.
 */
export function EditorToolbar({
  workspaceId,
  target,
  status,
  canUndo,
  canRedo,
  onRetrySave,
  secondaryActions = [],
  children,
}: {
  workspaceId: number;
  target: EditTarget;
  status: SaveStatus;
  canUndo: boolean;
  canRedo: boolean;
  onRetrySave: () => void;
  secondaryActions?: readonly SecondaryAction[];
  children: ReactNode;
}) {
  const { editor } = useEditorSession();
  return (
    <Group justify="space-between" mb="xs" wrap="wrap" gap="xs" data-testid="editor-toolbar">
      <Group gap="xs" wrap="nowrap" style={{ flex: '1 1 0', minWidth: 280 }}>
        {target.kind === 'email' ? (
          <Anchor
            component={Link}
            to={`/workspaces/${workspaceId}/projects/${target.email.project_id}`}
            aria-label="Back to the project"
            style={{ display: 'inline-flex', flexShrink: 0 }}
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
            style={{ color: 'var(--mantine-color-anchor)', display: 'inline-flex', flexShrink: 0 }}
          >
            <IconChevronLeft size={18} />
          </Link>
        )}
        <Text fw={600} component="h1" fz="lg" m={0} truncate="end" miw={0} title={nameOf(target)}>
          {nameOf(target)}
        </Text>
        <Group gap="xs" wrap="nowrap" style={{ flexShrink: 0 }}>
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
      </Group>
      <Group gap="xs" justify="flex-end">
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
        <SecondaryActions actions={secondaryActions} />
      </Group>
    </Group>
  );
}
