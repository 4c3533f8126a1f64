import { type EditorState, Plugin, PluginKey, type Transaction } from '@tiptap/pm/state';
import type { EditorView } from '@tiptap/pm/view';

/** The `{` the picker was opened by, and what was typed after it (the filter). */
export interface TagTrigger {
  /** Position of the `{`. */
  from: number;
  query: string;
}

type TriggerMeta = { open: number } | { close: true };

export const tagTriggerKey = new PluginKey<TagTrigger | null>('personalizationTagTrigger');

/** Keys the open picker takes from the editor (the caret stays in the text while it is open). */
export const pickerKeys = ['ArrowDown', 'ArrowUp', 'Enter', 'Tab', 'Escape'] as const;
export type PickerKey = (typeof pickerKeys)[number];

/** A query longer than any label would be is text, not a search. */
const longestQuery = 40;

function triggerAfter(
  transaction: Transaction,
  previous: TagTrigger | null,
  state: EditorState,
): TagTrigger | null {
  const meta = transaction.getMeta(tagTriggerKey) as TriggerMeta | undefined;
  if (meta && 'close' in meta) return null;
  const from = meta && 'open' in meta ? meta.open : previous && transaction.mapping.mapResult(previous.from);
  if (from === null || from === undefined) return null;
  const position = typeof from === 'number' ? from : from.deleted ? null : from.pos;
  if (position === null) return null;
  const { selection, doc } = state;
  if (!selection.empty || selection.head <= position || position + 1 > doc.content.size) return null;
  if (doc.textBetween(position, position + 1, '\n', '\ufffc') !== '{') return null;
  const query = doc.textBetween(position + 1, selection.head, '\n', '\ufffc');
  if (/[\n\ufffc{}]/.test(query) || query.length > longestQuery) return null;
  return { from: position, query };
}

/**
 * Typing `{` opens the tag picker at the caret: the plugin remembers where, follows what is typed
 * after it (the filter) and forgets it when the caret leaves, the `{` goes or `closeTagTrigger`
 * is called (Escape: the `{` stays as typed). While open, the picker's keys go to `onKey`.
 */
export function tagTriggerPlugin(options: { enabled: () => boolean; onKey: (key: PickerKey) => boolean }) {
  return new Plugin<TagTrigger | null>({
    key: tagTriggerKey,
    state: {
      init: () => null,
      apply: (transaction, previous, _oldState, newState) => triggerAfter(transaction, previous, newState),
    },
    props: {
      handleTextInput(view, from, to, text) {
        if (text !== '{' || !options.enabled()) return false;
        view.dispatch(view.state.tr.insertText(text, from, to).setMeta(tagTriggerKey, { open: from }));
        return true;
      },
      handleKeyDown(view, event) {
        if (!tagTriggerKey.getState(view.state)) return false;
        const key = pickerKeys.find((candidate) => candidate === event.key);
        if (!key || event.shiftKey || event.altKey || event.ctrlKey || event.metaKey) return false;
        if (!options.onKey(key)) return false;
        event.preventDefault();
        return true;
      },
    },
  });
}

/** Closes the picker opened by `{`, leaving the text as it is. */
export function closeTagTrigger(view: EditorView): void {
  if (tagTriggerKey.getState(view.state))
    view.dispatch(view.state.tr.setMeta(tagTriggerKey, { close: true }));
}
