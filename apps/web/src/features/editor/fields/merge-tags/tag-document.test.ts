import { personalizationTagToken } from '@letterset/core';
import { Editor, Node } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { PersonalizationTagNode } from './personalization-tag-node.ts';
import {
  chipLoadedTokens,
  htmlWithTokens,
  insertTagChip,
  lineOfValue,
  tagNodeName,
  valueOfLine,
} from './tag-document.ts';

const labels = new Map([
  [4, 'First name'],
  [9, 'City'],
]);
const chips = PersonalizationTagNode.configure({
  labels: { labelOf: (id) => labels.get(id), subscribe: () => () => {} },
});
const editors: Editor[] = [];
afterEach(() => {
  for (const editor of editors.splice(0)) editor.destroy();
});

function richEditor(html: string): Editor {
  const editor = new Editor({
    extensions: [StarterKit.configure({ undoRedo: false, link: false }), chips],
    content: html,
  });
  // What the field does once its editor is created.
  chipLoadedTokens(editor.view);
  editors.push(editor);
  return editor;
}

const LineDocument = Node.create({ name: 'doc', topNode: true, content: 'paragraph' });
const LineParagraph = Node.create({
  name: 'paragraph',
  content: 'inline*',
  parseHTML: () => [{ tag: 'p' }],
  renderHTML: () => ['p', 0],
});
const LineText = Node.create({ name: 'text', group: 'inline' });

function lineEditor(value: string): Editor {
  const editor = new Editor({
    extensions: [LineDocument, LineParagraph, LineText, chips],
    content: lineOfValue(value),
  });
  editors.push(editor);
  return editor;
}

const chipIds = (editor: Editor) => {
  const ids: number[] = [];
  editor.state.doc.descendants((node) => {
    if (node.type.name === tagNodeName) ids.push(Number(node.attrs.id));
  });
  return ids;
};

describe('rich text with tags', () => {
  it('shows tokens as chips and serializes them back to the same HTML', () => {
    const html = '<p>Hi <strong>{tag:4}</strong>, from {tag:9}{tag:77}!</p><p>{tag:x} stays text</p>';
    const editor = richEditor(html);
    expect(chipIds(editor)).toEqual([4, 9, 77]);
    expect(editor.view.dom.querySelectorAll('.ls-tag-chip').length).toBe(3);
    expect([...editor.view.dom.querySelectorAll('.ls-tag-chip')].map((chip) => chip.textContent)).toEqual([
      'First name',
      'City',
      'Unknown tag',
    ]);
    expect(
      editor.view.dom.querySelector('[data-personalization-tag="77"]')?.hasAttribute('data-unknown'),
    ).toBe(true);
    expect(htmlWithTokens(editor.getHTML())).toBe(html);
  });

  it('leaves tokens in link addresses alone', () => {
    const html =
      '<p><a target="_blank" rel="noopener noreferrer nofollow" href="https://x.test/?n={tag:4}">Go {tag:4}</a></p>';
    const editor = new Editor({
      extensions: [StarterKit.configure({ undoRedo: false }), chips],
      content: html,
    });
    chipLoadedTokens(editor.view);
    editors.push(editor);
    expect(chipIds(editor)).toEqual([4]);
    expect(htmlWithTokens(editor.getHTML())).toBe(html);
  });

  // Paragraphs of words, marks and tokens, written as the editor writes HTML: each survives.
  const word = fc.oneof(
    fc.constantFrom(
      'Hi',
      'there',
      ',',
      '!',
      ' ',
      'a&amp;b',
      '&lt;x&gt;',
      '{',
      '}',
      '{tag:',
      '{tag:01}',
      '😀',
    ),
    fc.nat({ max: 5000 }).map(personalizationTagToken),
  );
  const run = fc.tuple(fc.constantFrom('', 'strong', 'em'), fc.array(word, { minLength: 1, maxLength: 6 }));
  const paragraph = fc
    .array(run, { minLength: 1, maxLength: 4 })
    .map(
      (runs) =>
        `<p>${runs
          .map(([mark, words]) => (mark ? `<${mark}>${words.join('')}</${mark}>` : words.join('')))
          .join('')}</p>`,
    );

  it('gives back the HTML it loaded, whatever tokens it holds (round trip)', () => {
    fc.assert(
      fc.property(fc.array(paragraph, { minLength: 1, maxLength: 3 }), (paragraphs) => {
        const html = paragraphs.join('');
        // What the editor makes of the HTML without chips is the baseline: chips change nothing.
        const plain = new Editor({
          extensions: [StarterKit.configure({ undoRedo: false, link: false })],
          content: html,
        });
        const expected = plain.getHTML();
        plain.destroy();
        const editor = richEditor(html);
        expect(chipIds(editor).length).toBe(html.match(/\{tag:(0|[1-9]\d*)\}/g)?.length ?? 0);
        expect(htmlWithTokens(editor.getHTML())).toBe(expected);
        editor.destroy();
        editors.pop();
      }),
      { numRuns: 60 },
    );
  });
});

describe('one-line text with tags', () => {
  it('gives back any value it loaded (round trip)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(fc.string(), fc.nat({ max: 5000 }).map(personalizationTagToken), fc.constant('{tag:')),
          {
            maxLength: 8,
          },
        ),
        (pieces) => {
          const value = pieces.join('');
          const editor = lineEditor(value);
          expect(chipIds(editor).length).toBe(value.match(/\{tag:(0|[1-9]\d*)\}/g)?.length ?? 0);
          expect(valueOfLine(editor.state.doc)).toBe(value);
          editor.destroy();
          editors.pop();
        },
      ),
      { numRuns: 60 },
    );
  });

  it('turns a typed or pasted token into a chip', () => {
    const editor = lineEditor('Hi ');
    editor.view.dispatch(editor.state.tr.insertText('{tag:9}!', 4));
    expect(chipIds(editor)).toEqual([9]);
    expect(valueOfLine(editor.state.doc)).toBe('Hi {tag:9}!');
  });
});

describe('inserting a tag', () => {
  const insert = (value: string, caret: number, spaced = true) => {
    const editor = lineEditor(value);
    const position = 1 + caret;
    const transaction = insertTagChip(editor.state, 4, { from: position, to: position, spaced });
    if (transaction) editor.view.dispatch(transaction);
    return editor;
  };

  it('spaces the chip as a word next to words, not next to spaces or punctuation', () => {
    expect(valueOfLine(insert('Hiyou', 2).state.doc)).toBe('Hi {tag:4} you');
    expect(valueOfLine(insert('Hi !', 3).state.doc)).toBe('Hi {tag:4}!');
    expect(valueOfLine(insert('Dear (you)', 6).state.doc)).toBe('Dear ({tag:4} you)');
    expect(valueOfLine(insert('', 0).state.doc)).toBe('{tag:4}');
  });

  it('adds no spaces in an address', () => {
    expect(valueOfLine(insert('https://x.test/?n=', 18, false).state.doc)).toBe('https://x.test/?n={tag:4}');
  });

  it('puts the caret after what it inserted', () => {
    const editor = insert('Hiyou', 2);
    expect(editor.state.selection.from).toBe(1 + 'Hi '.length + 1 + ' '.length);
  });

  it('spaces a chip next to another chip', () => {
    const editor = lineEditor('{tag:9}');
    const transaction = insertTagChip(editor.state, 4, { from: 2, to: 2, spaced: true });
    if (transaction) editor.view.dispatch(transaction);
    expect(valueOfLine(editor.state.doc)).toBe('{tag:9} {tag:4}');
  });
});

describe('deleting a chip', () => {
  it('takes one Backspace after it or one Delete before it', () => {
    const editor = lineEditor('Hi {tag:4}{tag:9}');
    editor.commands.setTextSelection(editor.state.doc.content.size - 1);
    editor.commands.keyboardShortcut('Backspace');
    expect(valueOfLine(editor.state.doc)).toBe('Hi {tag:4}');
    editor.commands.setTextSelection(4);
    editor.commands.keyboardShortcut('Delete');
    expect(valueOfLine(editor.state.doc)).toBe('Hi ');
  });
});
