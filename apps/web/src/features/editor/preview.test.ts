import { describe, expect, it } from 'vitest';
import { clickTarget, tagInstances } from './preview.ts';

function parse(html: string): Document {
  return new DOMParser().parseFromString(html, 'text/html');
}

describe('tagInstances', () => {
  it('tags the elements after each marker with its instance, up to the next marker', () => {
    const document = parse(
      '<table><tbody><!--es-instance:a--><tr id="a1"></tr><tr id="a2"></tr><!--es-instance:b--><tr id="b1"></tr></tbody></table>',
    );
    tagInstances(document.body);
    expect(document.getElementById('a1')?.getAttribute('data-es-instance')).toBe('a');
    expect(document.getElementById('a2')?.getAttribute('data-es-instance')).toBe('a');
    expect(document.getElementById('b1')?.getAttribute('data-es-instance')).toBe('b');
  });

  it('moves a first marker left outside the implied tbody in with the rows it announces', () => {
    const document = parse(
      '<table><!--es-instance:a--><tr id="a1"></tr><!--es-instance:b--><tr id="b1"></tr></table>',
    );
    tagInstances(document.body);
    expect(document.querySelector('tbody')?.getAttribute('data-es-instance')).toBeNull();
    expect(document.getElementById('a1')?.getAttribute('data-es-instance')).toBe('a');
    expect(document.getElementById('b1')?.getAttribute('data-es-instance')).toBe('b');
  });
});

describe('clickTarget', () => {
  it('names the instance and the field an element belongs to', () => {
    const document = parse(
      '<div data-es-instance="x"><h1 data-es-field-focus="headline"><span id="inside">Hi</span></h1><p id="plain"></p></div>',
    );
    expect(clickTarget(document.getElementById('inside'))).toEqual({ instanceId: 'x', field: 'headline' });
    expect(clickTarget(document.getElementById('plain'))).toEqual({ instanceId: 'x', field: null });
    expect(clickTarget(document.body)).toEqual({ instanceId: null, field: null });
  });
});
