import { type BrandedComponent, setFieldValue } from '@letterset/core';
import { permissionKeys } from '@letterset/core/permissions';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { InPlaceEditor } from '../loaded-on-demand.tsx';
import { instanceId, renderableSession, testDocument } from '../test-session.tsx';
import { CanvasEditingLayer } from './CanvasEditingLayer.tsx';
import { editingAttribute } from './in-place-surface.ts';

/**
 * Editing in place against a model, over generated orders of opening the editor in the preview,
 * typing there, typing in the side panel, undo, redo and Escape: the one history holds every edit
 * whichever side made it, and the editor in the preview, the preview and the stored value always
 * agree. Each edit is its own undo step here (no merging of quick edits), so the model is two stacks.
 */

const hero = {
  id: 2,
  label: 'Hero',
  container: false,
  field_definitions: [
    { label: 'Headline', liquid_variable: 'headline', type: 'text', default_value: 'Sale' },
  ],
} as unknown as BrandedComponent;

type Action =
  | { kind: 'open' }
  | { kind: 'typeInPlace'; text: string }
  | { kind: 'typeInSidePanel'; text: string }
  | { kind: 'undo' }
  | { kind: 'redo' }
  | { kind: 'escape' };

const actionArbitrary: fc.Arbitrary<Action> = fc.oneof(
  { weight: 2, arbitrary: fc.constant({ kind: 'open' as const }) },
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant('typeInPlace' as const), text: fc.constantFrom('a', 'B', ' ') }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('typeInSidePanel' as const),
      text: fc.constantFrom('Spring sale', 'Summer', ''),
    }),
  },
  { weight: 2, arbitrary: fc.constant({ kind: 'undo' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'redo' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'escape' as const }) },
);

/** An editor session over the test email and a preview frame that re-renders the headline on every change, as the canvas does. */
function setUp() {
  const { editor, Live } = renderableSession(
    { componentsById: new Map([[2, hero]]), selectedId: instanceId },
    permissionKeys,
    testDocument(),
    { coalesceWindowMs: 0 },
  );
  const target = { instanceId, branch: 'null_branch', locale: 'en-US', variable: 'headline' };
  const stored = () =>
    String(
      editor.getState().document.content.component_instances[0]?.field_values.null_branch?.['en-US']?.headline
        ?.value ?? 'Sale',
    );
  const frame = document.createElement('iframe');
  document.body.append(frame);
  const preview = frame.contentDocument as Document;
  const renderPreview = () => {
    preview.body.innerHTML = `<table><tbody><tr data-es-instance="${instanceId}"><td><h1 data-es-field-focus="headline"></h1></td></tr></tbody></table>`;
    (preview.querySelector('h1') as HTMLElement).textContent = stored();
  };
  renderPreview();
  const stopPreview = editor.subscribe(renderPreview);
  render(<Live>{() => <CanvasEditingLayer frame={frame} />}</Live>);
  const tearDown = () => {
    stopPreview();
    cleanup();
    frame.remove();
  };
  return { editor, target, stored, preview, tearDown };
}

const inPlaceEditor = () =>
  screen.queryByRole<HTMLTextAreaElement>('textbox', { name: 'Headline, in the preview' });

describe('CanvasEditingLayer against a model of one history', () => {
  // Downloaded once the editor is idle in the app: here before the first click, as there.
  beforeAll(async () => {
    await InPlaceEditor.preload();
  });

  it('keeps the editor in the preview, the preview and the stored value in step, with every edit in one undo history', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(actionArbitrary, { minLength: 1, maxLength: 14 }), async (actions) => {
        const { editor, target, stored, preview, tearDown } = setUp();
        const past: string[] = [];
        const future: string[] = [];
        let text = 'Sale';
        let open = false;
        const edit = (next: string) => {
          if (next === text) return;
          past.push(text);
          future.length = 0;
          text = next;
        };
        try {
          for (const action of actions) {
            const input = inPlaceEditor();
            if (action.kind === 'open') {
              await act(async () => (preview.querySelector('h1') as HTMLElement).click());
              open = true;
            } else if (action.kind === 'typeInPlace' && input) {
              await act(async () =>
                fireEvent.change(input, { target: { value: input.value + action.text } }),
              );
              edit(text + action.text);
            } else if (action.kind === 'typeInSidePanel') {
              // The preview re-renders at once; what follows it (a MutationObserver) runs before the next paint.
              await act(async () => {
                editor.dispatch(setFieldValue(target, action.text));
              });
              edit(action.text);
            } else if (action.kind === 'undo') {
              await act(async () => {
                editor.undo();
              });
              const previous = past.pop();
              if (previous !== undefined) {
                future.push(text);
                text = previous;
              }
            } else if (action.kind === 'redo') {
              await act(async () => {
                editor.redo();
              });
              const next = future.pop();
              if (next !== undefined) {
                past.push(text);
                text = next;
              }
            } else if (action.kind === 'escape' && input) {
              await act(async () => fireEvent.keyDown(input, { key: 'Escape' }));
              open = false;
            }
            expect(stored()).toBe(text);
            expect(preview.querySelector('h1')?.textContent).toBe(text);
            expect(inPlaceEditor()?.value ?? null).toBe(open ? text : null);
            expect(preview.querySelector('h1')?.hasAttribute(editingAttribute)).toBe(open);
            expect(editor.getState().canUndo).toBe(past.length > 0);
            expect(editor.getState().canRedo).toBe(future.length > 0);
          }
        } finally {
          tearDown();
        }
      }),
      { numRuns: 30 },
    );
    // Each run renders the layer afresh: seconds in jsdom when the cores are shared.
  }, 90_000);
});
