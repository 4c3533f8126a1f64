import {
  joinPersonalizationTagSegments,
  type PersonalizationTagSegment,
  personalizationTagToken,
  spacingAroundTag,
  splitPersonalizationTagTokens,
} from '@letterset/core';
import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import { type EditorState, TextSelection, type Transaction } from '@tiptap/pm/state';

/** The name of the chip node in every editor schema that shows tags. */
export const tagNodeName = 'personalizationTag';

/**
 * Turns every `{tag:<id>}` written as text into a chip, keeping the text's marks: what content
 * loaded, pasted or typed holds becomes chips, so a token is never half-edited as text. Returns
 * null when there was none.
 */
export function chipTokensInText(state: EditorState): Transaction | null {
  const type = state.schema.nodes[tagNodeName];
  if (!type) return null;
  const found: { from: number; to: number; node: ProseMirrorNode }[] = [];
  state.doc.descendants((node, position, parent) => {
    if (!node.isText || !node.text?.includes('{tag:')) return;
    // Not where chips cannot go (text-only blocks).
    if (parent && !parent.type.contentMatch.matchType(type)) return;
    let offset = 0;
    for (const segment of splitPersonalizationTagTokens(node.text)) {
      const length = 'tagId' in segment ? `{tag:${segment.tagId}}`.length : segment.text.length;
      if ('tagId' in segment) {
        const from = position + offset;
        found.push({ from, to: from + length, node: type.create({ id: segment.tagId }, null, node.marks) });
      }
      offset += length;
    }
  });
  if (found.length === 0) return null;
  const transaction = state.tr;
  // From the end, so earlier positions stay valid.
  for (const { from, to, node } of found.reverse()) transaction.replaceWith(from, to, node);
  return transaction;
}

type Neighbour = string | { tag: true } | null;

function neighbourOf(node: ProseMirrorNode | null | undefined, side: 'before' | 'after'): Neighbour {
  if (!node) return null;
  if (node.type.name === tagNodeName) return { tag: true };
  if (node.isText && node.text)
    return side === 'before' ? (node.text.at(-1) ?? null) : (node.text[0] ?? null);
  return ' ';
}

/**
 * Replaces `from`..`to` with the tag's chip (with the marks there), spaced as a word when `spaced`
 * (see `spacingAroundTag`), and puts the caret after what was inserted.
 */
export function insertTagChip(
  state: EditorState,
  tagId: number,
  { from, to, spaced }: { from: number; to: number; spaced: boolean },
): Transaction | null {
  const type = state.schema.nodes[tagNodeName];
  if (!type) return null;
  const $from = state.doc.resolve(from);
  const $to = state.doc.resolve(to);
  const spacing = spaced
    ? spacingAroundTag(neighbourOf($from.nodeBefore, 'before'), neighbourOf($to.nodeAfter, 'after'))
    : { before: '', after: '' };
  const marks = (from === state.selection.from ? state.storedMarks : null) ?? $from.marks();
  const nodes = [
    ...(spacing.before ? [state.schema.text(spacing.before, marks)] : []),
    type.create({ id: tagId }, null, marks),
    ...(spacing.after ? [state.schema.text(spacing.after, marks)] : []),
  ];
  const transaction = state.tr.replaceWith(from, to, nodes);
  const end = from + nodes.reduce((size, node) => size + node.nodeSize, 0);
  return transaction.setSelection(TextSelection.create(transaction.doc, end)).scrollIntoView();
}

/** A chip in the editor's HTML (`getHTML`), as the node renders it. */
const chipElement = /<span data-personalization-tag="(\d+)"><\/span>/g;

/** The editor's HTML as content stores it: each chip as its `{tag:<id>}` token. */
export function htmlWithTokens(html: string): string {
  return html.replace(chipElement, (_element, id: string) => personalizationTagToken(Number(id)));
}

/** The stored value of a one-line editor's document: its text, each chip as its token. */
export function valueOfLine(doc: ProseMirrorNode): string {
  const segments: PersonalizationTagSegment[] = [];
  doc.descendants((node) => {
    if (node.type.name === tagNodeName) segments.push({ tagId: Number(node.attrs.id) });
    else if (node.isText) segments.push({ text: node.text ?? '' });
  });
  return joinPersonalizationTagSegments(segments);
}

/** The one-line editor's document (TipTap JSON) for a stored value. */
export function lineOfValue(value: string) {
  const content = splitPersonalizationTagTokens(value).map((segment) =>
    'tagId' in segment
      ? { type: tagNodeName, attrs: { id: segment.tagId } }
      : { type: 'text', text: segment.text },
  );
  return { type: 'doc', content: [{ type: 'paragraph', content }] };
}

/**
 * Turns the tokens of the content an editor was created with into chips, as a change of view only
 * (no update event, no undo step): the value is the same.
 */
export function chipLoadedTokens(view: {
  state: EditorState;
  dispatch: (transaction: Transaction) => void;
}): void {
  const transaction = chipTokensInText(view.state);
  if (transaction) view.dispatch(transaction.setMeta('preventUpdate', true).setMeta('addToHistory', false));
}
