import { ActionIcon, Popover, Portal, Stack, Text, TextInput, Tooltip, UnstyledButton } from '@mantine/core';
import { IconUserPlus } from '@tabler/icons-react';
import { Selection } from '@tiptap/pm/state';
import type { Editor } from '@tiptap/react';
import { type KeyboardEvent, type RefObject, useEffect, useId, useRef, useState } from 'react';
import type { PersonalizationTag } from '../../editor-api.ts';
import { insertTagChip } from './tag-document.ts';
import { closeTagTrigger, type PickerKey, type TagTrigger, tagTriggerKey } from './tag-trigger.ts';

type PickableTag = Pick<PersonalizationTag, 'id' | 'label'>;

/** The tags whose label holds the query (any case), those starting with it first. */
export function filterTags<Tag extends PickableTag>(tags: readonly Tag[], query: string): Tag[] {
  const wanted = query.trim().toLowerCase();
  if (wanted === '') return [...tags];
  const matching = tags.filter((tag) => tag.label.toLowerCase().includes(wanted));
  const starts = matching.filter((tag) => tag.label.toLowerCase().startsWith(wanted));
  return [...starts, ...matching.filter((tag) => !starts.includes(tag))];
}

/**
 * The highlighted option among `count`, kept in range as the list changes; arrows wrap around.
 */
function useHighlight(count: number, resetKey: string) {
  const [highlighted, setHighlighted] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new filter starts from the first option.
  useEffect(() => setHighlighted(0), [resetKey]);
  const index = count === 0 ? -1 : Math.min(highlighted, count - 1);
  const move = (step: 1 | -1) => count > 0 && setHighlighted((index + step + count) % count);
  return { index, move, setHighlighted };
}

/** The list both pickers show: the matching tags, one highlighted, picked by click or Enter. */
export function TagOptions({
  tags,
  highlighted,
  onHighlight,
  onPick,
  listId,
}: {
  tags: readonly PickableTag[];
  highlighted: number;
  onHighlight: (index: number) => void;
  onPick: (tag: PickableTag) => void;
  listId: string;
}) {
  if (tags.length === 0) {
    return (
      <Text size="sm" c="dimmed" px="xs" py={4}>
        No personalization tag matches
      </Text>
    );
  }
  return (
    <Stack gap={0} role="listbox" id={listId} aria-label="Personalization tags">
      {tags.map((tag, index) => (
        <UnstyledButton
          key={tag.id}
          id={`${listId}-${tag.id}`}
          role="option"
          aria-selected={index === highlighted}
          tabIndex={-1}
          px="xs"
          py={4}
          fz="sm"
          style={{
            borderRadius: 'var(--mantine-radius-sm)',
            background: index === highlighted ? 'var(--mantine-color-blue-light)' : undefined,
          }}
          // The caret stays in the field: a click picks without taking the focus away from it.
          onMouseDown={(event) => event.preventDefault()}
          onMouseEnter={() => onHighlight(index)}
          onClick={() => onPick(tag)}
        >
          {tag.label}
        </UnstyledButton>
      ))}
    </Stack>
  );
}

function insertAt(editor: Editor, tag: PickableTag, range: { from: number; to: number }, spaced: boolean) {
  const transaction = insertTagChip(editor.state, tag.id, { ...range, spaced });
  if (transaction) editor.view.dispatch(transaction);
  editor.view.focus();
}

/**
 * The picker `{` opens, under the caret: it filters by what is typed after the `{`; arrows and
 * Enter (or Tab) pick, replacing the `{` and the filter with the chip; Escape closes it and leaves
 * the `{`. The editor keeps the focus; its keys reach the picker through `keyHandler`.
 */
export function CaretTagPicker({
  editor,
  tags,
  spaced,
  keyHandler,
}: {
  editor: Editor | null;
  tags: readonly PickableTag[];
  spaced: boolean;
  keyHandler: RefObject<(key: PickerKey) => boolean>;
}) {
  const [trigger, setTrigger] = useState<TagTrigger | null>(null);
  const listId = useId();
  useEffect(() => {
    if (!editor) return;
    const follow = () =>
      setTrigger(editor.isDestroyed ? null : (tagTriggerKey.getState(editor.state) ?? null));
    const close = () => closeTagTrigger(editor.view);
    editor.on('transaction', follow);
    editor.on('blur', close);
    return () => {
      editor.off('transaction', follow);
      editor.off('blur', close);
    };
  }, [editor]);
  const shown = trigger ? filterTags(tags, trigger.query) : [];
  const { index, move, setHighlighted } = useHighlight(shown.length, trigger?.query ?? '');

  const pick = (tag: PickableTag) => {
    if (!editor || !trigger) return;
    insertAt(editor, tag, { from: trigger.from, to: editor.state.selection.head }, spaced);
  };
  keyHandler.current = (key) => {
    if (!editor || !trigger) return false;
    if (key === 'Escape') {
      closeTagTrigger(editor.view);
      return true;
    }
    if (key === 'ArrowDown' || key === 'ArrowUp') {
      move(key === 'ArrowDown' ? 1 : -1);
      return true;
    }
    const chosen = shown[index];
    // With nothing to pick, Enter and Tab do what they do in the text.
    if (!chosen) return false;
    pick(chosen);
    return true;
  };

  if (!editor || !trigger || editor.isDestroyed) return null;
  const caret = editor.view.coordsAtPos(trigger.from);
  return (
    <Portal>
      <Popover
        opened
        position="bottom-start"
        withinPortal={false}
        trapFocus={false}
        returnFocus={false}
        closeOnEscape={false}
        closeOnClickOutside={false}
        shadow="md"
      >
        <Popover.Target>
          <span
            aria-hidden
            style={{
              position: 'fixed',
              left: caret.left,
              top: caret.top,
              height: caret.bottom - caret.top,
              width: 1,
              pointerEvents: 'none',
            }}
          />
        </Popover.Target>
        <Popover.Dropdown p={4} miw={200} mah={260} style={{ overflowY: 'auto' }}>
          <TagOptions
            tags={shown}
            highlighted={index}
            onHighlight={setHighlighted}
            onPick={pick}
            listId={listId}
          />
        </Popover.Dropdown>
      </Popover>
    </Portal>
  );
}

/**
 * The same picker behind a button: a search box and the tags; the chip goes where the field's
 * caret (or selection) was, at the end of a field that has not had the caret yet.
 */
export function TagPickerButton({
  editor,
  tags,
  spaced,
  label,
  size = 'sm',
}: {
  editor: Editor | null;
  tags: readonly PickableTag[];
  spaced: boolean;
  /** The button's accessible name. */
  label: string;
  size?: 'sm' | 'md';
}) {
  const [opened, setOpened] = useState(false);
  const [query, setQuery] = useState('');
  const listId = useId();
  const shown = filterTags(tags, query);
  const { index, move, setHighlighted } = useHighlight(shown.length, query);
  const close = () => {
    setOpened(false);
    setQuery('');
  };
  // Until the field has had the caret, its selection is at the start: the chip goes at the end.
  const fieldWasFocused = useRef(false);
  useEffect(() => {
    if (!editor) return;
    const remember = () => {
      fieldWasFocused.current = true;
    };
    editor.on('focus', remember);
    return () => {
      editor.off('focus', remember);
    };
  }, [editor]);
  const pick = (tag: PickableTag) => {
    close();
    if (!editor) return;
    const { from, to } = fieldWasFocused.current ? editor.state.selection : Selection.atEnd(editor.state.doc);
    insertAt(editor, tag, { from, to }, spaced);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      move(event.key === 'ArrowDown' ? 1 : -1);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const chosen = shown[index];
      if (chosen) pick(chosen);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      close();
      editor?.view.focus();
    }
  };
  return (
    <Popover
      opened={opened}
      onChange={(next) => (next ? setOpened(true) : close())}
      position="bottom-end"
      trapFocus
      returnFocus={false}
      closeOnEscape={false}
      shadow="md"
    >
      <Popover.Target>
        <Tooltip label="Insert a personalization tag" disabled={opened}>
          <ActionIcon
            variant="subtle"
            size={size}
            aria-label={label}
            aria-expanded={opened}
            aria-haspopup="listbox"
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => (opened ? close() : setOpened(true))}
          >
            <IconUserPlus size={size === 'sm' ? 14 : 16} />
          </ActionIcon>
        </Tooltip>
      </Popover.Target>
      <Popover.Dropdown p={4} miw={220}>
        <TextInput
          size="xs"
          mb={4}
          data-autofocus
          placeholder="Search tags"
          aria-label="Search personalization tags"
          aria-controls={listId}
          aria-activedescendant={shown[index] ? `${listId}-${shown[index].id}` : undefined}
          value={query}
          onChange={(event) => setQuery(event.currentTarget.value)}
          onKeyDown={onKeyDown}
        />
        <div style={{ maxHeight: 240, overflowY: 'auto' }}>
          <TagOptions
            tags={shown}
            highlighted={index}
            onHighlight={setHighlighted}
            onPick={pick}
            listId={listId}
          />
        </div>
      </Popover.Dropdown>
    </Popover>
  );
}
