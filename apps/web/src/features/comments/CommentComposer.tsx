import { Button, Group, Paper, Stack, Text, Textarea, UnstyledButton } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { type KeyboardEvent, type ReactNode, useId, useLayoutEffect, useRef, useState } from 'react';
import { ApiError, errorMessage } from '../../shared/api-error.ts';
import { allWorkspaceMembersQuery } from '../settings/settings-api.ts';
import { memberName, type WorkspaceMember } from './comments-api.ts';
import { activeMention, insertMention } from './mention-tokens.ts';

/** What a refused comment tells its writer: the fields' messages (a mention refused) or the error. */
function problemOf(error: unknown): string {
  if (error instanceof ApiError && Object.keys(error.fieldErrors).length > 0) {
    return Object.values(error.fieldErrors).flat().join(' ');
  }
  return errorMessage(error);
}

/** The most people the mention list shows at once; typing narrows it. */
const shownPeople = 8;

/** The members whose name or address contains what was typed after `@`. */
export function matchingMembers(members: readonly WorkspaceMember[], query: string): WorkspaceMember[] {
  const wanted = query.trim().toLowerCase();
  return members
    .filter((member) => `${memberName(member)} ${member.email}`.toLowerCase().includes(wanted))
    .slice(0, shownPeople);
}

/**
 * A comment box: typing `@` lists the workspace's members (filtered as you type; arrow keys and
 * Enter, or a click, pick one) and inserts a mention token. Cmd/Ctrl+Enter sends.
 */
export function CommentComposer({
  workspaceId,
  initialBody = '',
  placeholder = 'Write a comment… Type @ to mention someone',
  submitLabel = 'Comment',
  onSubmit,
  onCancel,
  above,
  autoFocus,
}: {
  workspaceId: number;
  initialBody?: string;
  placeholder?: string;
  submitLabel?: string;
  /** Sends the body; the box empties once it resolves, and keeps the text if it throws. */
  onSubmit: (body: string) => Promise<unknown>;
  onCancel?: () => void;
  /** Shown above the box, e.g. where a new pin sits. */
  above?: ReactNode;
  autoFocus?: boolean;
}) {
  const [body, setBody] = useState(initialBody);
  const [caret, setCaret] = useState(initialBody.length);
  const [active, setActive] = useState(0);
  const [dismissedAt, setDismissedAt] = useState<number | null>(null);
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const input = useRef<HTMLTextAreaElement>(null);
  const caretToPlace = useRef<number | null>(null);
  const listId = useId();
  const members = useQuery(allWorkspaceMembersQuery(workspaceId));

  const mention = activeMention(body, caret);
  const open = mention !== null && mention.start !== dismissedAt;
  const people = open ? matchingMembers(members.data ?? [], mention.query) : [];
  const highlighted = Math.min(active, Math.max(0, people.length - 1));

  function pick(member: WorkspaceMember) {
    if (!mention) return;
    const next = insertMention(body, mention.start, caret, { name: memberName(member), userId: member.id });
    setBody(next.text);
    setCaret(next.caret);
    setActive(0);
    caretToPlace.current = next.caret;
  }

  // After a pick, the caret goes after the inserted token once the box shows the new text.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the text changes.
  useLayoutEffect(() => {
    const position = caretToPlace.current;
    if (position === null) return;
    caretToPlace.current = null;
    input.current?.focus();
    input.current?.setSelectionRange(position, position);
  }, [body]);

  async function submit() {
    if (body.trim() === '' || sending) return;
    setSending(true);
    setError(null);
    try {
      await onSubmit(body.trim());
      setBody('');
      setCaret(0);
    } catch (caught) {
      setError(problemOf(caught));
    } finally {
      setSending(false);
    }
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (open && people.length > 0) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setActive((highlighted + step + people.length) % people.length);
        return;
      }
      if (event.key === 'Enter' || event.key === 'Tab') {
        event.preventDefault();
        const member = people[highlighted];
        if (member) pick(member);
        return;
      }
    }
    if (open && event.key === 'Escape') {
      event.preventDefault();
      setDismissedAt(mention.start);
      return;
    }
    if (event.key === 'Enter' && (event.metaKey || event.ctrlKey)) {
      event.preventDefault();
      void submit();
    }
  }

  const track = (element: HTMLTextAreaElement) => setCaret(element.selectionStart ?? element.value.length);

  return (
    <Stack gap={6}>
      {above}
      <div style={{ position: 'relative' }}>
        <Textarea
          ref={input}
          aria-label={submitLabel === 'Reply' ? 'Reply' : 'Comment'}
          placeholder={placeholder}
          autosize
          minRows={2}
          maxRows={10}
          value={body}
          autoFocus={autoFocus}
          error={error}
          role="combobox"
          aria-expanded={open && people.length > 0}
          aria-controls={listId}
          aria-autocomplete="list"
          onChange={(event) => {
            setBody(event.currentTarget.value);
            track(event.currentTarget);
            setActive(0);
          }}
          onSelect={(event) => track(event.currentTarget)}
          onKeyDown={onKeyDown}
        />
        {open && people.length > 0 && (
          <Paper
            withBorder
            shadow="md"
            id={listId}
            role="listbox"
            aria-label="People to mention"
            pos="absolute"
            left={0}
            right={0}
            top="100%"
            p={4}
            style={{ zIndex: 20 }}
          >
            {people.map((member, index) => (
              <UnstyledButton
                key={member.id}
                role="option"
                aria-selected={index === highlighted}
                display="block"
                w="100%"
                px="xs"
                py={4}
                bg={index === highlighted ? 'blue.0' : undefined}
                style={{ borderRadius: 4 }}
                // Keeps the text box focused (and its caret) while the pointer picks.
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => pick(member)}
              >
                <Text size="sm">{memberName(member)}</Text>
                <Text size="xs" c="dimmed" truncate>
                  {member.email}
                </Text>
              </UnstyledButton>
            ))}
          </Paper>
        )}
      </div>
      <Group justify="flex-end" gap="xs">
        {onCancel && (
          <Button size="xs" variant="subtle" color="gray" onClick={onCancel}>
            Cancel
          </Button>
        )}
        <Button size="xs" onClick={() => void submit()} loading={sending} disabled={body.trim() === ''}>
          {submitLabel}
        </Button>
      </Group>
    </Stack>
  );
}
