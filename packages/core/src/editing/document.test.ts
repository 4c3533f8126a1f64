import { describe, expect, it } from 'vitest';
import { applyCommand } from './apply-command.ts';
import { setFieldValue } from './commands.ts';
import { type EditorDocument, sameDocument } from './document.ts';
import { heroHeadline, sampleDocument } from './sample-document.ts';

/** The same value rebuilt with every object's keys in reverse order, as a database may return it. */
function withKeysReversed<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withKeysReversed) as T;
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([key, item]) => [key, withKeysReversed(item)]),
  ) as T;
}

describe('sameDocument', () => {
  it('holds for a copy with its keys in another order', () => {
    const document = sampleDocument();
    const copy = withKeysReversed(structuredClone(document));
    expect(JSON.stringify(copy)).not.toBe(JSON.stringify(document));
    expect(sameDocument(document, copy)).toBe(true);
  });

  it('tells apart documents that differ in one value, one array item or one locale', () => {
    const document = sampleDocument();
    expect(sameDocument(document, applyCommand(document, setFieldValue(heroHeadline, 'Other')))).toBe(false);
    expect(sameDocument(document, { ...document, locales: ['en-US'] })).toBe(false);
    const reordered: EditorDocument = {
      ...document,
      content: {
        ...document.content,
        component_instances: [...document.content.component_instances].reverse(),
      },
    };
    expect(sameDocument(document, reordered)).toBe(false);
  });

  it('counts an undefined property as absent, as JSON does, but a null one as present', () => {
    const document = sampleDocument();
    const withUndefined = { ...document, content: { ...document.content, note: undefined } };
    expect(sameDocument(document, withUndefined)).toBe(true);
    expect(sameDocument(withUndefined, document)).toBe(true);
    const withNull = { ...document, content: { ...document.content, note: null } };
    expect(sameDocument(document, withNull)).toBe(false);
    expect(sameDocument(withNull, document)).toBe(false);
  });
});
