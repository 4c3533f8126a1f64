import { duplicateComponent, removeComponent, setFieldValue } from '@letterset/core';
import { Box } from '@mantine/core';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { dispatchCommand, instanceLabel, useEditorSession, useEditorState } from '../EditorContext.tsx';
import { InPlaceEditor, preloadEditing } from '../loaded-on-demand.tsx';
import { type FieldContext, fieldsOutsideThePreview, instanceById, resolveField } from './field-target.ts';
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
import { type Box as PreviewBox, type Size, sameBox, unionBox } from './overlay-geometry.ts';
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
  // The field editors are not part of the first screen's download: they come once the editor is idle.
  useEffect(() => (canEdit ? preloadEditing() : undefined), [canEdit]);
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

  const selected =
    selectedId && selectedId !== containerId ? instanceById(context.content, selectedId) : null;
  const selectedInstanceId = selected?.id ?? null;
  const geometry = useInstanceGeometry(frame, selectedInstanceId);
  // The same list while the same fields are listed, so that typing (a new instance object every
  // keystroke) does not re-render the toolbar.
  const fieldsNow = selected ? fieldsOutsideThePreview(context, selected.id, editableInPlace) : [];
  const fieldsKey = fieldsNow.map((definition) => definition.liquid_variable).join('\n');
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key and the components stand for the list's content.
  const toolbarFields = useMemo(() => fieldsNow, [fieldsKey, componentsById]);
  const { focusField, select } = session;
  const openField = useCallback(
    (variable: string) => selectedInstanceId && focusField(selectedInstanceId, variable),
    [selectedInstanceId, focusField],
  );
  const duplicate = useCallback(() => {
    if (!selectedInstanceId) return;
    const command = duplicateComponent(selectedInstanceId);
    if (dispatchCommand(editor, command)) select(command.newInstanceId);
  }, [editor, selectedInstanceId, select]);
  const remove = useCallback(() => {
    if (selectedInstanceId && dispatchCommand(editor, removeComponent(selectedInstanceId))) select(null);
  }, [editor, selectedInstanceId, select]);
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
          instanceBox={geometry.instanceBox}
          frameSize={geometry.frameSize}
          fields={toolbarFields}
          onOpenField={openField}
          onDuplicate={canDuplicate ? duplicate : null}
          onRemove={canRemove ? remove : null}
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
    return onPreviewChanges(frame, { rendered: mark });
  }, [frame, selectedId, canEdit]);
  return marked;
}

interface InstanceGeometry {
  instanceBox: PreviewBox | null;
  frameSize: Size;
}

/**
 * Where an instance is in the preview, and the frame's size: measured when the instance is chosen,
 * then once a frame while the preview moves (never during a React render, which would force a
 * layout of the preview on every keystroke). A new object only when
 * something moved, so the toolbar re-renders only then.
 */
function useInstanceGeometry(frame: HTMLIFrameElement, instanceId: string | null): InstanceGeometry {
  const [geometry, setGeometry] = useState<InstanceGeometry>({
    instanceBox: null,
    frameSize: { width: 0, height: 0 },
  });
  useLayoutEffect(() => {
    // Nothing selected, no toolbar to place: measuring would lay the page out for nothing (on
    // opening, after every image of the email that loads).
    if (!instanceId) {
      setGeometry((current) => (current.instanceBox === null ? current : { ...current, instanceBox: null }));
      return;
    }
    const measure = () => {
      const elements =
        frame.contentDocument?.querySelectorAll(`[data-es-instance="${CSS.escape(instanceId)}"]`) ?? [];
      const next = {
        instanceBox: unionBox([...elements].map((element) => element.getBoundingClientRect())),
        frameSize: { width: frame.clientWidth, height: frame.clientHeight },
      };
      setGeometry((current) =>
        sameBox(current.instanceBox, next.instanceBox) &&
        current.frameSize.width === next.frameSize.width &&
        current.frameSize.height === next.frameSize.height
          ? current
          : next,
      );
    };
    measure();
    return onPreviewChanges(frame, { moved: measure });
  }, [frame, instanceId]);
  return geometry;
}
