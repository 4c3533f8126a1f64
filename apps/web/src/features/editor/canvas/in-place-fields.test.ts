import type { FieldDefinition } from '@letterset/core';
import { describe, expect, it } from 'vitest';
import { addressOf, findFieldElement, inPlaceEditing, inPlaceKindOf, shownValue } from './in-place-fields.ts';

const containerId = 'container';

function field(overrides: Partial<FieldDefinition>): FieldDefinition {
  return {
    label: 'Field',
    liquid_variable: 'field',
    type: 'text',
    default_value: '',
    ...overrides,
  } as FieldDefinition;
}

function preview(body: string): Document {
  return new DOMParser().parseFromString(`<body>${body}</body>`, 'text/html');
}

describe('inPlaceKindOf', () => {
  it('edits text fields as plain text and rich-text fields as rich text, and nothing else', () => {
    expect(inPlaceKindOf(field({ type: 'text' }))).toBe('plain_text');
    expect(inPlaceKindOf(field({ type: 'rich_text' }))).toBe('rich_text');
    for (const type of [
      'url',
      'image',
      'number',
      'boolean',
      'enum',
      'color',
      'code',
      'horizontal_align',
    ] as const) {
      expect(inPlaceKindOf(field({ type }))).toBeNull();
    }
  });
});

describe('inPlaceEditing', () => {
  const element = (html: string) =>
    preview(`<h1 data-es-field-focus="field">${html}</h1>`).querySelector('h1') as Element;

  it('opens a text field whose element shows exactly its value, whitespace aside', () => {
    expect(inPlaceEditing(element('Spring sale'), field({}), 'Spring sale')).toBe('plain_text');
    expect(inPlaceEditing(element('\n  Spring   sale '), field({}), 'Spring sale')).toBe('plain_text');
    expect(inPlaceEditing(element('Fish &amp; chips'), field({}), 'Fish & chips')).toBe('plain_text');
  });

  it('refuses an element that shows more or other than the value', () => {
    // A template adding words, a personalization tag shown as its example, a filter changing the case.
    expect(inPlaceEditing(element('Sale: Spring sale'), field({}), 'Spring sale')).toBeNull();
    expect(inPlaceEditing(element('Hello Ada'), field({}), 'Hello {{ first_name }}')).toBeNull();
    expect(inPlaceEditing(element('SPRING SALE'), field({}), 'Spring sale')).toBeNull();
  });

  it('compares the default when nothing is stored', () => {
    expect(
      inPlaceEditing(
        element('Shop now'),
        field({ default_value: 'Shop now' }),
        shownValue(field({ default_value: 'Shop now' }), undefined),
      ),
    ).toBe('plain_text');
  });

  it('opens rich text whose element shows the text of its HTML, classes the render adds aside', () => {
    const body = field({ type: 'rich_text' });
    expect(
      inPlaceEditing(
        element('<p>Hi <strong class="es-bold">there</strong></p>'),
        body,
        '<p>Hi <strong>there</strong></p>',
      ),
    ).toBe('rich_text');
    expect(inPlaceEditing(element('<p>Hi there, Ada</p>'), body, '<p>Hi there, {{ name }}</p>')).toBeNull();
  });

  it('refuses fields hidden in the editor, and unknown fields', () => {
    expect(inPlaceEditing(element('x'), field({ hidden_in_editor: true }), 'x')).toBeNull();
    expect(inPlaceEditing(element('x'), undefined, 'x')).toBeNull();
    expect(
      inPlaceEditing(element('https://example.com'), field({ type: 'url' }), 'https://example.com'),
    ).toBeNull();
  });
});

describe('addressOf and findFieldElement', () => {
  const document = () =>
    preview(
      '<p data-es-field-focus="title">Container title</p>' +
        '<table><tbody><tr data-es-instance="a"><td><h1 data-es-field-focus="title">A</h1><h2 data-es-field-focus="title">A again</h2></td></tr>' +
        '<tr data-es-instance="b"><td><h1 data-es-field-focus="title">B</h1></td></tr></tbody></table>',
    );

  it('names an element by its instance (the container outside every instance), its field and its place', () => {
    const shown = document();
    const [containerTitle, a, aAgain, b] = [...shown.querySelectorAll<HTMLElement>('[data-es-field-focus]')];
    expect(addressOf(containerTitle as HTMLElement, containerId)).toEqual({
      instanceId: containerId,
      variable: 'title',
      index: 0,
    });
    expect(addressOf(a as HTMLElement, containerId)).toEqual({
      instanceId: 'a',
      variable: 'title',
      index: 0,
    });
    expect(addressOf(aAgain as HTMLElement, containerId)).toEqual({
      instanceId: 'a',
      variable: 'title',
      index: 1,
    });
    expect(addressOf(b as HTMLElement, containerId)).toEqual({
      instanceId: 'b',
      variable: 'title',
      index: 0,
    });
  });

  it('finds the element at the same address in a fresh render of the preview', () => {
    const address = addressOf(document().querySelectorAll<HTMLElement>('h2')[0] as HTMLElement, containerId);
    const rerendered = document();
    expect(address && findFieldElement(rerendered, address, containerId)?.textContent).toBe('A again');
    expect(
      findFieldElement(rerendered, { instanceId: 'gone', variable: 'title', index: 0 }, containerId),
    ).toBeNull();
  });
});
