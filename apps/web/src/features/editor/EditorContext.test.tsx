import { type BrandedComponent, renameComponent, setFieldValue } from '@letterset/core';
import { act, render } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useDocumentShape } from './EditorContext.tsx';
import { Inspector } from './Inspector.tsx';
import { instanceId, renderableSession } from './test-session.tsx';

// Each field editor rendered, by its variable: what a keystroke re-renders in the inspector.
const fieldRenders = vi.hoisted(() => [] as string[]);
vi.mock('./fields/FieldEditor.tsx', () => ({
  FieldEditor: ({ definition }: { definition: { liquid_variable: string } }) => {
    fieldRenders.push(definition.liquid_variable);
    return null;
  },
}));

const link = { instanceId, branch: 'null_branch', locale: 'en-US', variable: 'link' };

describe('useDocumentShape', () => {
  it('re-renders on a change of the instances, not on a change of a field value', () => {
    const { editor } = renderableSession();
    const shapes: unknown[] = [];
    function Outline() {
      shapes.push(useDocumentShape(editor));
      return null;
    }
    render(<Outline />);
    expect(shapes).toHaveLength(1);

    act(() => editor.dispatch(setFieldValue(link, 'https://example.com/typed')));
    expect(shapes).toHaveLength(1);

    act(() => editor.dispatch(renameComponent(instanceId, 'Call to action')));
    expect(shapes).toHaveLength(2);
    expect(shapes[1]).toBe(editor.getState().document);
  });
});

describe('Inspector', () => {
  it('re-renders the edited field only', () => {
    const component = {
      id: 2,
      label: 'Button',
      container: false,
      field_definitions: [
        { label: 'Link', liquid_variable: 'link', type: 'url', default_value: '' },
        { label: 'Label', liquid_variable: 'label', type: 'text', default_value: 'Go' },
      ],
    } as unknown as BrandedComponent;
    const { editor, Live } = renderableSession({ componentsById: new Map([[2, component]]) });
    render(
      <Live>
        {(document) => (
          <Inspector
            instance={document.content.component_instances[0] as never}
            defaultLocale={document.defaultLocale}
          />
        )}
      </Live>,
    );
    expect(fieldRenders).toEqual(['link', 'label']);
    fieldRenders.length = 0;

    act(() => editor.dispatch(setFieldValue(link, 'https://example.com/typed')));

    expect(fieldRenders).toEqual(['link']);
  });
});
