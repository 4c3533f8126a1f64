import { describe, expect, it } from 'vitest';
import {
  changedInstance,
  clickTarget,
  type PreviewInput,
  renderForDownload,
  renderPreview,
  tagInstances,
  updatePreviewHtml,
} from './preview.ts';

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

describe('renderPreview with personalization tags', () => {
  const input: PreviewInput = {
    designSystem: { id: 1, name: 'System', design_tokens: {}, custom_styles: [] },
    components: [
      {
        id: 1,
        name: 'container',
        label: 'Email',
        container: true,
        template: '<main>{{ children }}</main>',
        field_definitions: [],
      },
      {
        id: 2,
        name: 'greeting',
        label: 'Greeting',
        container: false,
        template: '<p>{{ text }}</p>',
        field_definitions: [{ type: 'text', label: 'Text', liquid_variable: 'text', default_value: '' }],
      },
    ],
    brandProfile: null,
    content: {
      subject: { branch_content: { null_branch: { 'en-US': 'Hi {tag:4}' } } },
      preheader: { branch_content: { null_branch: { 'en-US': '' } } },
      container_component_instance: { id: 'c', component_id: 1, field_values: {} },
      component_instances: [
        {
          id: 'g',
          component_id: 2,
          field_values: { null_branch: { 'en-US': { text: { value: 'Hello {tag:4}' } } } },
        },
      ],
    },
    locale: 'en-US',
    branchSelection: {},
    personalizationTags: [{ id: 4, label: 'First name', default_value: 'there', example_value: 'Ada' }],
    linkTrackingProfile: null,
    conditionals: [],
    emailName: 'Tags',
  };

  it('shows example values, or the tags’ names when asked', () => {
    expect(parse(renderPreview(input)).querySelector('p')?.textContent).toBe('Hello Ada');
    const named = parse(renderPreview({ ...input, showPersonalizationTagNames: true }));
    expect(named.querySelector('p')?.textContent).toBe('Hello {First name}');
    expect(named.querySelector('p .es-personalization-tag-name')?.textContent).toBe('{First name}');
  });

  it('leaves the download untouched: default values', async () => {
    expect(parse(await renderForDownload(input)).querySelector('p')?.textContent).toBe('Hello there');
  });
});

describe('updatePreviewHtml', () => {
  // Rows in a table: an instance's block must be parsed where it goes (in the table's body).
  const input = (texts: string[], note = ''): PreviewInput => ({
    designSystem: { id: 1, name: 'System', design_tokens: {}, custom_styles: [] },
    components: [
      {
        id: 1,
        name: 'container',
        label: 'Email',
        container: true,
        template: '<table><tbody>{{ children }}</tbody></table><p>{{ note }}</p>',
        field_definitions: [{ type: 'text', label: 'Note', liquid_variable: 'note', default_value: '' }],
      },
      {
        id: 2,
        name: 'row',
        label: 'Row',
        container: false,
        template: '<tr><td class="cell">{{ text }}</td></tr>',
        field_definitions: [{ type: 'text', label: 'Text', liquid_variable: 'text', default_value: '' }],
      },
    ],
    brandProfile: null,
    content: {
      subject: { branch_content: { null_branch: { 'en-US': 'Rows' } } },
      preheader: { branch_content: { null_branch: { 'en-US': '' } } },
      container_component_instance: {
        id: 'c',
        component_id: 1,
        field_values: { null_branch: { 'en-US': { note: { value: note } } } },
      },
      component_instances: texts.map((text, index) => ({
        id: `i${index}`,
        component_id: 2,
        field_values: { null_branch: { 'en-US': { text: { value: text } } } },
      })),
    },
    locale: 'en-US',
    branchSelection: {},
    personalizationTags: [],
    linkTrackingProfile: null,
    conditionals: [],
    emailName: 'Rows',
  });
  const shown = (before: PreviewInput) => {
    const document = parse('<!doctype html><html><head></head><body></body></html>');
    const html = renderPreview(before);
    updatePreviewHtml(document, html, null);
    return { document, html };
  };
  const cells = (document: Document) => [...document.querySelectorAll('td.cell')];

  it('replaces only the edited instance’s block: the other instances keep their elements', () => {
    const { document, html } = shown(input(['One', 'Two', 'Three']));
    const [first, second, third] = cells(document);
    const edited = renderPreview(input(['One', 'Two and more', 'Three']));
    expect(changedInstance(html, edited)?.instanceId).toBe('i1');

    updatePreviewHtml(document, edited, html);

    const after = cells(document);
    expect(after.map((cell) => cell.textContent)).toEqual(['One', 'Two and more', 'Three']);
    expect(after[0]).toBe(first);
    expect(after[2]).toBe(third);
    expect(after[1]).not.toBe(second);
    // Parsed in the table's body, tagged with its instance, like the whole document's parse.
    expect(after[1]?.closest('tr')?.parentElement?.tagName).toBe('TBODY');
    expect(after[1]?.closest('tr')?.getAttribute('data-es-instance')).toBe('i1');
    expect(document.body.innerHTML).toBe(
      shown(input(['One', 'Two and more', 'Three'])).document.body.innerHTML,
    );
  });

  it('rewrites the whole body when a change reaches past one instance', () => {
    const { document, html } = shown(input(['One', 'Two']));
    const [first] = cells(document);
    const reordered = renderPreview({
      ...input(['One', 'Two']),
      content: {
        ...input(['One', 'Two']).content,
        component_instances: [...input(['One', 'Two']).content.component_instances].reverse(),
      },
    });
    expect(changedInstance(html, reordered)).toBeNull();

    updatePreviewHtml(document, reordered, html);

    expect(cells(document).map((cell) => cell.textContent)).toEqual(['Two', 'One']);
    expect(cells(document)[1]).not.toBe(first);
  });

  it('finds no single instance when the change is outside every instance (the container’s fields)', () => {
    const before = renderPreview(input(['One'], 'Hello'));
    const after = renderPreview(input(['One'], 'Goodbye'));
    expect(before).not.toBe(after);
    expect(changedInstance(before, after)).toBeNull();
  });
});
