import { duplicateComponent, removeComponent, setFieldValue } from '@letterset/core';
import { Box } from '@mantine/core';
import { useCallback, useEffect, useLayoutEffect, useMemo, useReducer, useRef, useState } from 'react';
import { dispatchCommand, instanceLabel, useEditorSession, useEditorState } from '../EditorContext.tsx';
import { type FieldContext, fieldsOutsideThePreview, instanceById, resolveField } from './field-target.ts';
import { InPlaceEditor } from './InPlaceEditor.tsx';
import { InstanceToolbar } from './InstanceToolbar.tsx';
import {
  addressOf,
  type FieldElementAddress,
  fieldElements,
  findFieldElement,
  type InPlaceKind,
  inPlaceEditing,
} from './in-place-fields.ts';
import { type EndOfEditing, editingAttribute } from './in-place-surface.ts';
import { unionBox } from './overlay-geometry.ts';
import { onPreviewChanges } from './preview-changes.ts';

/** The attribute on the selected instance's elements that open in place: the preview styles them, and they take focus. */
export const inPlaceAttribute = 'data-es-in-place';

interface Editing {
  address: FieldElementAddress;
  kind: InPlaceKind;
  caretPoint: { x: number; y: number } | null;
}

/**
 * Editing in the preview, drawn over the preview frame: a click (or Enter) on a text or rich-text
 * field of the selected instance opens the field's editor over it, and the selected instance gets
 * a small toolbar for its other fields, duplicate and delete. Every change is the same command the
 * side panel sends, so undo, autosave and validation see no difference.
 */
export function CanvasEditingLayer({ frame }: { frame: HTMLIFrameElement }) {
  const session = useEditorSession();
  const { editor, componentsById, conditionals, readOnly, locale, branchSelection, selectedId } = session;
  const { document } = useEditorState(editor);
  const { content } = document;
  const containerId = content.container_component_instance.id;
  const canEdit = !readOnly && editor.can('setFieldValue');
  const [editing, setEditing] = useState<Editing | null>(null);
  const context: FieldContext = { content, componentsById, conditionals, branchSelection, locale };
  // Read by the preview's listeners, which run right after a render of the preview, before React
  // renders this layer again: the content is read from the editor then, everything else from here.
  const latest = useRef({ selectedId, canEdit, containerId, context });
  latest.current = { selectedId, canEdit, containerId, context };
  const currentContext = useCallback(
    (): FieldContext => ({ ...latest.current.context, content: editor.getState().document.content }),
    [editor],
  );

  // Another instance, locale or branch shown: what was being edited is not there any more.
  // biome-ignore lint/correctness/useExhaustiveDependencies: each of these ends editing.
  useEffect(() => setEditing(null), [selectedId, locale, branchSelection, canEdit]);
  const edited = editing && resolveField(context, editing.address.instanceId, editing.address.variable);
  // The instance was removed (an undo of its insertion, someone else's save): editing ends rather than coming back with a redo.
  const editedFieldGone = editing !== null && !edited;
  useEffect(() => {
    if (editedFieldGone) setEditing(null);
  }, [editedFieldGone]);

  useEffect(() => {
    const previewDocument = frame.contentDocument;
    if (!previewDocument) return;
    /** Whether the element can open in place now, and how: only in the selected instance, for a role that may edit. */
    const editableAt = (element: HTMLElement | null): Editing | null => {
      const { selectedId: selected, canEdit: allowed, containerId: container } = latest.current;
      if (!element || !allowed || !selected) return null;
      const address = addressOf(element, container);
      if (!address || address.instanceId !== selected) return null;
      const field = resolveField(currentContext(), address.instanceId, address.variable);
      const kind = field && inPlaceEditing(element, field.definition, field.value);
      return kind ? { address, kind, caretPoint: null } : null;
    };
    const open = (event: MouseEvent) => {
      const element = (event.target as Element | null)?.closest<HTMLElement>('[data-es-field-focus]') ?? null;
      const opening = editableAt(element);
      if (!opening) return;
      // Taken before the preview's own click handler (which skips prevented clicks): no selection change, no navigation.
      event.preventDefault();
      setEditing({ ...opening, caretPoint: { x: event.clientX, y: event.clientY } });
    };
    const openOnEnter = (event: KeyboardEvent) => {
      if (event.key !== 'Enter') return;
      const opening = editableAt(
        (event.target as HTMLElement | null)?.closest?.('[data-es-field-focus]') ?? null,
      );
      if (!opening) return;
      event.preventDefault();
      setEditing(opening);
    };
    previewDocument.addEventListener('click', open, true);
    previewDocument.addEventListener('keydown', openOnEnter);
    return () => {
      previewDocument.removeEventListener('click', open, true);
      previewDocument.removeEventListener('keydown', openOnEnter);
    };
  }, [frame, currentContext]);

  const editableInPlace = useMarkEditableElements(frame, selectedId, canEdit, currentContext);
  const geometry = usePreviewGeometry(frame);

  const selected =
    selectedId && selectedId !== containerId ? instanceById(context.content, selectedId) : null;
  // Recomputed when the selected instance changes (an edit of its own), not on every keystroke elsewhere.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `context` is rebuilt every render from the listed parts.
  const toolbarFields = useMemo(
    () => (selected ? fieldsOutsideThePreview(context, selected.id, editableInPlace) : []),
    [selected, componentsById, conditionals, branchSelection, locale, editableInPlace],
  );
  const canDuplicate = !readOnly && editor.can('duplicateComponent');
  const canRemove = !readOnly && editor.can('removeComponent');

  const endEditing = (why: EndOfEditing) => {
    if (why === 'keyboard' && editing && frame.contentDocument) {
      // Back to the element, so the keyboard carries on from where the editor was.
      const element = findFieldElement(frame.contentDocument, editing.address, containerId);
      element?.removeAttribute(editingAttribute);
      element?.focus();
    }
    setEditing(null);
  };

  return (
    <Box pos="absolute" inset={0} style={{ overflow: 'hidden', pointerEvents: 'none' }}>
      {selected && (
        <InstanceToolbar
          instanceLabel={instanceLabel(selected, componentsById)}
          instanceBox={geometry.instanceBox(selected.id)}
          frameSize={geometry.frameSize}
          fields={toolbarFields}
          onOpenField={(variable) => session.focusField(selected.id, variable)}
          onDuplicate={
            canDuplicate
              ? () => {
                  const command = duplicateComponent(selected.id);
                  if (dispatchCommand(editor, command)) session.select(command.newInstanceId);
                }
              : null
          }
          onRemove={
            canRemove
              ? () => {
                  if (dispatchCommand(editor, removeComponent(selected.id))) session.select(null);
                }
              : null
          }
        />
      )}
      {editing && edited && (
        <InPlaceEditor
          key={`${editing.address.instanceId}/${editing.address.variable}/${editing.address.index}`}
          frame={frame}
          address={editing.address}
          containerId={containerId}
          kind={editing.kind}
          definition={edited.definition}
          customStyles={session.customStyles}
          value={edited.value}
          caretPoint={editing.caretPoint}
          onChange={(value) => dispatchCommand(editor, setFieldValue(edited.target, value))}
          onEnd={endEditing}
        />
      )}
    </Box>
  );
}

/**
 * Marks the selected instance's elements that open in place, after every render of the preview:
 * they show a text cursor and take focus (so Enter opens them from the keyboard). Returns the
 * variables of the fields so marked.
 */
function useMarkEditableElements(
  frame: HTMLIFrameElement,
  selectedId: string | null,
  canEdit: boolean,
  currentContext: () => FieldContext,
): ReadonlySet<string> {
  const contextOf = useRef(currentContext);
  contextOf.current = currentContext;
  const [marked, setMarked] = useState<ReadonlySet<string>>(new Set());
  useLayoutEffect(() => {
    const previewDocument = frame.contentDocument;
    if (!previewDocument) return;
    const mark = () => {
      for (const element of previewDocument.querySelectorAll(`[${inPlaceAttribute}]`)) {
        element.removeAttribute(inPlaceAttribute);
        element.removeAttribute('tabindex');
      }
      const variables = new Set<string>();
      if (selectedId && canEdit) {
        const context = contextOf.current();
        const containerId = context.content.container_component_instance.id;
        const instance = instanceById(context.content, selectedId);
        const component = instance && context.componentsById.get(instance.component_id);
        for (const definition of component?.field_definitions ?? []) {
          const field = resolveField(context, selectedId, definition.liquid_variable);
          if (!field) continue;
          for (const element of fieldElements(
            previewDocument,
            selectedId,
            definition.liquid_variable,
            containerId,
          )) {
            if (!inPlaceEditing(element, field.definition, field.value)) continue;
            element.setAttribute(inPlaceAttribute, '');
            element.setAttribute('tabindex', '0');
            variables.add(definition.liquid_variable);
          }
        }
      }
      setMarked((current) =>
        current.size === variables.size && [...variables].every((variable) => current.has(variable))
          ? current
          : variables,
      );
    };
    mark();
    return onPreviewChanges(frame, mark);
  }, [frame, selectedId, canEdit]);
  return marked;
}

/** The frame's size and the boxes of instances in it, refreshed once a frame while the preview moves. */
function usePreviewGeometry(frame: HTMLIFrameElement) {
  const [, refresh] = useReducer((count: number) => count + 1, 0);
  useEffect(() => {
    let scheduled = 0;
    const stop = onPreviewChanges(frame, () => {
      if (scheduled) return;
      scheduled = requestAnimationFrame(() => {
        scheduled = 0;
        refresh();
      });
    });
    return () => {
      cancelAnimationFrame(scheduled);
      stop();
    };
  }, [frame]);
  return {
    frameSize: { width: frame.clientWidth, height: frame.clientHeight },
    instanceBox: (instanceId: string) =>
      unionBox(
        [
          ...(frame.contentDocument?.querySelectorAll(`[data-es-instance="${CSS.escape(instanceId)}"]`) ??
            []),
        ].map((element) => element.getBoundingClientRect()),
      ),
  };
}
