import { TextSelection } from '@tiptap/pm/state';
import { Editor, Node } from '@tiptap/react';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PersonalizationTagNode } from './personalization-tag-node.ts';
import { closeTagTrigger, type TagTrigger, tagTriggerKey } from './tag-trigger.ts';

const LineDocument = Node.create({ name: 'doc', topNode: true, content: 'paragraph' });
const LineParagraph = Node.create({ name: 'paragraph', content: 'inline*', renderHTML: () => ['p', 0] });
const LineText = Node.create({ name: 'text', group: 'inline' });

function lineEditor() {
  return new Editor({
    extensions: [
      LineDocument,
      LineParagraph,
      LineText,
      PersonalizationTagNode.configure({ pickerEnabled: () => true }),
    ],
    content: { type: 'doc', content: [{ type: 'paragraph' }] },
  });
}

type Action =
  | { kind: 'type'; character: string }
  | { kind: 'backspace' }
  | { kind: 'left' }
  | { kind: 'right' }
  | { kind: 'escape' };

/** What the picker should show after the actions, from the text and caret alone. */
interface Model {
  text: string;
  caret: number;
  /** Index of the `{` that opened the picker. */
  open: number | null;
}

function step(model: Model, action: Action): Model {
  let { text, caret, open } = model;
  switch (action.kind) {
    case 'type':
      text = text.slice(0, caret) + action.character + text.slice(caret);
      if (action.character === '{') open = caret;
      caret += 1;
      break;
    case 'backspace':
      if (caret === 0) break;
      text = text.slice(0, caret - 1) + text.slice(caret);
      caret -= 1;
      // Deleting the `{` closes the picker; deleting after it keeps its place.
      if (open !== null && caret === open) open = null;
      break;
    case 'left':
      caret = Math.max(0, caret - 1);
      break;
    case 'right':
      caret = Math.min(text.length, caret + 1);
      break;
    case 'escape':
      open = null;
      break;
  }
  // The picker stays open only while the caret is after its `{`, with a short query of no braces.
  if (open !== null) {
    const query = text.slice(open + 1, caret);
    if (caret <= open || /[{}]/.test(query) || query.length > 40) open = null;
  }
  return { text, caret, open };
}

function perform(editor: Editor, action: Action) {
  const { view } = editor;
  const head = view.state.selection.head;
  switch (action.kind) {
    case 'type': {
      // As the view does for typed text: the handlers first, else a plain insertion.
      const handled = view.someProp('handleTextInput', (handle) =>
        handle(view, head, head, action.character, () => view.state.tr),
      );
      if (!handled) view.dispatch(view.state.tr.insertText(action.character, head, head));
      break;
    }
    case 'backspace':
      if (head > 1) view.dispatch(view.state.tr.delete(head - 1, head));
      break;
    case 'left':
    case 'right': {
      const target = Math.min(
        Math.max(1, head + (action.kind === 'left' ? -1 : 1)),
        view.state.doc.content.size - 1,
      );
      view.dispatch(view.state.tr.setSelection(TextSelection.create(view.state.doc, target)));
      break;
    }
    case 'escape':
      closeTagTrigger(view);
      break;
  }
}

const action: fc.Arbitrary<Action> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .constantFrom('{', '}', 'a', 'b', ' ')
      .map((character) => ({ kind: 'type' as const, character })),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'backspace' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'left' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'right' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'escape' as const }) },
);

describe('the { trigger', () => {
  it('is open exactly while the caret follows the { that opened it, whatever is typed, deleted or moved', () => {
    fc.assert(
      fc.property(fc.array(action, { maxLength: 30 }), (actions) => {
        const editor = lineEditor();
        try {
          let model: Model = { text: '', caret: 0, open: null };
          for (const next of actions) {
            perform(editor, next);
            model = step(model, next);
            expect(editor.state.doc.textContent).toBe(model.text);
            const expected: TagTrigger | null =
              model.open === null
                ? null
                : { from: 1 + model.open, query: model.text.slice(model.open + 1, model.caret) };
            expect(tagTriggerKey.getState(editor.state)).toEqual(expected);
          }
        } finally {
          editor.destroy();
        }
      }),
      { numRuns: 150 },
    );
  });

  it('does not open where the field offers no tags', () => {
    const editor = new Editor({
      extensions: [
        LineDocument,
        LineParagraph,
        LineText,
        PersonalizationTagNode.configure({ pickerEnabled: () => false }),
      ],
    });
    perform(editor, { kind: 'type', character: '{' });
    expect(editor.state.doc.textContent).toBe('{');
    expect(tagTriggerKey.getState(editor.state)).toBeNull();
    editor.destroy();
  });
});
