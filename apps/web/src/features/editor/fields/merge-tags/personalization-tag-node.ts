import { personalizationTagToken, unknownPersonalizationTagLabel } from '@letterset/core';
import { Plugin } from '@tiptap/pm/state';
import { Node } from '@tiptap/react';
import { chipTokensInText, tagNodeName } from './tag-document.ts';
import { type PickerKey, tagTriggerPlugin } from './tag-trigger.ts';
import './merge-tags.css';

/** What a chip needs to know of the workspace's tags. */
export interface TagLabelSource {
  labelOf: (id: number) => string | undefined;
  /** Calls back when labels may have changed (tags loaded, renamed or deleted). */
  subscribe: (listener: () => void) => () => void;
}

export interface PersonalizationTagNodeOptions {
  labels: TagLabelSource;
  /** Whether typing `{` opens the picker (there are tags to pick and the field is editable). */
  pickerEnabled: () => boolean;
  /** The open picker's keys; true when the picker used the key. */
  onPickerKey: (key: PickerKey) => boolean;
}

function paintChip(chip: HTMLElement, id: number, labels: TagLabelSource) {
  const label = labels.labelOf(id);
  chip.textContent = label ?? unknownPersonalizationTagLabel;
  chip.title = label === undefined ? `No personalization tag has id ${id}: it was deleted` : label;
  chip.toggleAttribute('data-unknown', label === undefined);
}

/**
 * A personalization tag in a field: an inline atom shown as a chip with the tag's label, stored
 * as its token: the field's text (`renderText`) holds the token, its HTML an empty marker span
 * that `htmlWithTokens` turns into the token, so stored values are exactly what they were before
 * chips. Tokens in loaded, pasted or typed text become chips.
 * Backspace or Delete next to a chip removes the whole chip.
 */
export const PersonalizationTagNode = Node.create<PersonalizationTagNodeOptions>({
  name: tagNodeName,
  // Before the editor's own keymaps: Enter and the arrows reach an open picker first.
  priority: 1000,
  group: 'inline',
  inline: true,
  atom: true,
  selectable: false,
  draggable: false,

  addOptions() {
    return {
      labels: { labelOf: () => undefined, subscribe: () => () => {} },
      pickerEnabled: () => false,
      onPickerKey: () => false,
    };
  },

  addAttributes() {
    return {
      id: {
        default: null,
        parseHTML: (element) => Number(element.getAttribute('data-personalization-tag')),
        renderHTML: () => ({}),
      },
    };
  },

  parseHTML: () => [{ tag: 'span[data-personalization-tag]' }],

  // An empty marker element: `htmlWithTokens` turns it back into the token stored content holds.
  renderHTML: ({ node }) => ['span', { 'data-personalization-tag': String(node.attrs.id) }],

  renderText: ({ node }) => personalizationTagToken(Number(node.attrs.id)),

  addNodeView() {
    const labels = this.options.labels;
    return ({ node }) => {
      const chip = document.createElement('span');
      chip.className = 'ls-tag-chip';
      chip.contentEditable = 'false';
      chip.setAttribute('data-personalization-tag', String(node.attrs.id));
      let id = Number(node.attrs.id);
      paintChip(chip, id, labels);
      const unsubscribe = labels.subscribe(() => paintChip(chip, id, labels));
      return {
        dom: chip,
        update: (updated) => {
          if (updated.type.name !== tagNodeName) return false;
          id = Number(updated.attrs.id);
          paintChip(chip, id, labels);
          return true;
        },
        destroy: unsubscribe,
        ignoreMutation: () => true,
      };
    };
  },

  addKeyboardShortcuts() {
    const removeChip = (side: 'before' | 'after') => () => {
      const { selection } = this.editor.state;
      if (!selection.empty) return false;
      const neighbour = side === 'before' ? selection.$from.nodeBefore : selection.$from.nodeAfter;
      if (neighbour?.type.name !== tagNodeName) return false;
      const from = side === 'before' ? selection.from - neighbour.nodeSize : selection.from;
      return this.editor.commands.deleteRange({ from, to: from + neighbour.nodeSize });
    };
    return { Backspace: removeChip('before'), Delete: removeChip('after') };
  },

  addProseMirrorPlugins() {
    return [
      new Plugin({
        appendTransaction: (transactions, _old, state) =>
          transactions.some((transaction) => transaction.docChanged) ? chipTokensInText(state) : null,
      }),
      tagTriggerPlugin({ enabled: this.options.pickerEnabled, onKey: this.options.onPickerKey }),
    ];
  },
});
