import type { BrandedComponent, EditorDocument } from '@letterset/core';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { EditorSession } from '../EditorContext.tsx';
import { InPlaceEditor } from '../loaded-on-demand.tsx';
import { instanceId, renderableSession, testDocument } from '../test-session.tsx';
import { CanvasEditingLayer } from './CanvasEditingLayer.tsx';

const hero = {
  id: 2,
  label: 'Hero',
  container: false,
  field_definitions: [
    { label: 'Headline', liquid_variable: 'headline', type: 'text', default_value: 'Default headline' },
    { label: 'Greeting', liquid_variable: 'greeting', type: 'text', default_value: 'Hello {{ first_name }}' },
    { label: 'Link', liquid_variable: 'link', type: 'url', default_value: 'https://example.com/' },
    {
      label: 'Picture',
      liquid_variable: 'picture',
      type: 'image',
      default_value: 'https://example.com/a.png',
    },
    { label: 'Align', liquid_variable: 'align', type: 'horizontal_align', default_value: 'left' },
  ],
} as unknown as BrandedComponent;

/** The email of the test session with a stored headline in en-US and another in de-DE. */
function twoLocales(): EditorDocument {
  const document = testDocument();
  const instance = document.content.component_instances[0];
  if (!instance) throw new Error('no instance');
  instance.field_values = {
    null_branch: {
      'en-US': { headline: { value: 'Spring sale' } },
      'de-DE': { headline: { value: 'Frühlingsangebot' } },
    },
  };
  return { ...document, locales: ['en-US', 'de-DE'] };
}

/** A preview frame showing the instance as a template marking its fields would. */
function previewFrame(headline: string): HTMLIFrameElement {
  const frame = document.createElement('iframe');
  document.body.append(frame);
  const preview = frame.contentDocument as Document;
  preview.body.innerHTML = `<table><tbody><tr data-es-instance="${instanceId}"><td>
    <h1 data-es-field-focus="headline">${headline}</h1>
    <p data-es-field-focus="greeting">Hello Ada</p>
    <a data-es-field-focus="link" href="https://example.com/">Read more</a>
  </td></tr></tbody></table>`;
  // jsdom lays nothing out: the frame and the instance's row get the boxes a browser would give them.
  Object.defineProperties(frame, { clientWidth: { value: 660 }, clientHeight: { value: 700 } });
  const row = preview.querySelector('tr') as HTMLElement;
  row.getBoundingClientRect = () => new DOMRect(30, 100, 600, 200);
  return frame;
}

afterEach(() => {
  for (const frame of document.querySelectorAll('iframe')) frame.remove();
});

function renderLayer(
  overrides: Partial<EditorSession>,
  options: { headline?: string; permissions?: Parameters<typeof renderableSession>[1] } = {},
) {
  const frame = previewFrame(options.headline ?? 'Spring sale');
  const { editor, Live } = renderableSession(
    { componentsById: new Map([[2, hero]]), selectedId: instanceId, ...overrides },
    options.permissions,
    twoLocales(),
  );
  render(<Live>{() => <CanvasEditingLayer frame={frame} />}</Live>);
  const element = (field: string) =>
    frame.contentDocument?.querySelector(`[data-es-field-focus="${field}"]`) as HTMLElement;
  return { editor, frame, element };
}

const storedHeadline = (editor: ReturnType<typeof renderLayer>['editor'], locale: string) =>
  editor.getState().document.content.component_instances[0]?.field_values.null_branch?.[locale]?.headline
    ?.value;

describe('CanvasEditingLayer', () => {
  // Downloaded once the editor is idle in the app: here before the first click, as there.
  beforeAll(async () => {
    await InPlaceEditor.preload();
  });

  it('opens a text field of the selected instance over its element, and each keystroke is a setFieldValue in the shown locale', async () => {
    const { editor, element } = renderLayer({});
    await act(async () => element('headline').click());
    const input = screen.getByRole('textbox', { name: 'Headline, in the preview' });
    expect(input).toHaveValue('Spring sale');
    expect(input).toHaveFocus();
    // The element under the editor is hidden while it is edited.
    expect(element('headline').hasAttribute('data-es-editing')).toBe(true);
    await userEvent.type(input, '!');
    expect(storedHeadline(editor, 'en-US')).toBe('Spring sale!');
    expect(storedHeadline(editor, 'de-DE')).toBe('Frühlingsangebot');
    // One undo history: the email editor's undo takes the keystroke back, and the editor shows it.
    act(() => {
      editor.undo();
    });
    expect(input).toHaveValue('Spring sale');
    fireEvent.keyDown(input, { key: 'Escape' });
    expect(screen.queryByRole('textbox', { name: 'Headline, in the preview' })).toBeNull();
    expect(element('headline').hasAttribute('data-es-editing')).toBe(false);
  });

  it('edits the locale shown', async () => {
    const { editor, element } = renderLayer({ locale: 'de-DE' }, { headline: 'Frühlingsangebot' });
    await act(async () => element('headline').click());
    await userEvent.type(screen.getByRole('textbox', { name: 'Headline, in the preview' }), '!');
    expect(storedHeadline(editor, 'de-DE')).toBe('Frühlingsangebot!');
    expect(storedHeadline(editor, 'en-US')).toBe('Spring sale');
  });

  it('opens from the keyboard: the editable elements take focus, and Enter opens them', async () => {
    const { element } = renderLayer({});
    expect(element('headline').getAttribute('tabindex')).toBe('0');
    // Its element shows the tag's example, not the value: the greeting is edited in the side panel only.
    expect(element('greeting').hasAttribute('tabindex')).toBe(false);
    await act(async () => {
      element('headline').dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    });
    expect(screen.getByRole('textbox', { name: 'Headline, in the preview' })).toBeInTheDocument();
  });

  it('leaves alone fields that do not show exactly their value, fields of other types and instances not selected', async () => {
    const shown = renderLayer({});
    await act(async () => shown.element('greeting').click());
    await act(async () => shown.element('link').click());
    expect(screen.queryByRole('textbox', { name: /in the preview/ })).toBeNull();
  });

  it('does not open on an instance that is not selected (the click selects it first)', async () => {
    const { element } = renderLayer({ selectedId: null });
    await act(async () => element('headline').click());
    expect(screen.queryByRole('textbox', { name: /in the preview/ })).toBeNull();
  });

  it('never opens in a read-only editor (a frozen email), whose elements take no focus either', async () => {
    const readOnly = renderLayer({ readOnly: true });
    await act(async () => readOnly.element('headline').click());
    expect(screen.queryByRole('textbox', { name: /in the preview/ })).toBeNull();
    expect(readOnly.element('headline').hasAttribute('tabindex')).toBe(false);
  });

  it('never opens for a role without update_emails', async () => {
    const viewer = renderLayer({}, { permissions: ['view_emails'] as never });
    await act(async () => viewer.element('headline').click());
    expect(screen.queryByRole('textbox', { name: /in the preview/ })).toBeNull();
  });

  it('gives the selected instance a toolbar opening its other fields in the side panel, and duplicate and delete', async () => {
    const focusField = vi.fn();
    const select = vi.fn();
    const { editor } = renderLayer({ focusField, select });
    const toolbar = screen.getByRole('toolbar', { name: 'Hero actions' });
    await userEvent.click(within(toolbar).getByRole('button', { name: 'Edit Link' }));
    expect(focusField).toHaveBeenLastCalledWith(instanceId, 'link');
    await userEvent.click(within(toolbar).getByRole('button', { name: 'Edit Picture' }));
    expect(focusField).toHaveBeenLastCalledWith(instanceId, 'picture');
    // The headline is edited in place: it has no button. The greeting and alignment are in the menu.
    expect(within(toolbar).queryByRole('button', { name: 'Edit Headline' })).toBeNull();
    await userEvent.click(within(toolbar).getByRole('button', { name: 'More fields of Hero' }));
    expect(screen.getByRole('menuitem', { name: 'Greeting' })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Headline' })).toBeNull();
    await userEvent.click(screen.getByRole('menuitem', { name: 'Align' }));
    expect(focusField).toHaveBeenLastCalledWith(instanceId, 'align');

    await userEvent.click(within(toolbar).getByRole('button', { name: 'Duplicate Hero' }));
    expect(editor.getState().document.content.component_instances).toHaveLength(2);
    expect(select).toHaveBeenLastCalledWith(editor.getState().document.content.component_instances[1]?.id);
    await userEvent.click(within(toolbar).getByRole('button', { name: 'Delete Hero' }));
    expect(editor.getState().document.content.component_instances).toHaveLength(1);
    expect(select).toHaveBeenLastCalledWith(null);
  });

  it('offers no duplicate or delete to a role that may only edit values', () => {
    renderLayer({}, { permissions: ['update_emails'] as never });
    const toolbar = screen.getByRole('toolbar', { name: 'Hero actions' });
    expect(within(toolbar).queryByRole('button', { name: 'Duplicate Hero' })).toBeNull();
    expect(within(toolbar).queryByRole('button', { name: 'Delete Hero' })).toBeNull();
    expect(within(toolbar).getByRole('button', { name: 'Edit Link' })).toBeInTheDocument();
  });
});
