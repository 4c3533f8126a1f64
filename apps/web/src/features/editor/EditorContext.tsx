import type {
  BranchSelection,
  BrandedComponent,
  ComponentInstance,
  CustomStyle,
  Editor,
  EditorCommand,
  EditorDocument,
  EditorState,
} from '@letterset/core';
import { notifications } from '@mantine/notifications';
import { createContext, useContext, useRef, useSyncExternalStore } from 'react';
import type { Conditional, LinkTrackingProfile, PersonalizationTag } from './editor-api.ts';

/** A request to show a field in the inspector, from a click in the preview or a validation problem. */
export interface FieldFocusRequest {
  instanceId: string;
  variable: string;
  /** Changes on every request, so asking twice for the same field focuses it twice. */
  nonce: number;
}

export interface EditorSession {
  editor: Editor;
  workspaceId: number;
  /** Published emails, and users who may not change what is open, see it without changing it. */
  readOnly: boolean;
  /** Every component of the design system as the email's brand profile sees it, by id. */
  componentsById: ReadonlyMap<number, BrandedComponent>;
  /** The design system's custom styles with the brand profile's, for rich-text fields. */
  customStyles: readonly CustomStyle[];
  conditionals: readonly Conditional[];
  personalizationTags: readonly PersonalizationTag[];
  /** The email's link tracking profile: its editor parameters get inputs in the editor. */
  linkTrackingProfile: LinkTrackingProfile | null;
  locale: string;
  setLocale: (locale: string) => void;
  branchSelection: BranchSelection;
  setBranch: (conditionalId: number, branchKey: string) => void;
  selectedId: string | null;
  select: (instanceId: string | null) => void;
  focusRequest: FieldFocusRequest | null;
  focusField: (instanceId: string, variable: string) => void;
}

const EditorSessionContext = createContext<EditorSession | null>(null);

export const EditorSessionProvider = EditorSessionContext.Provider;

export function useEditorSession(): EditorSession {
  const session = useContext(EditorSessionContext);
  if (!session) throw new Error('useEditorSession() is used outside the email editor');
  return session;
}

/** The session inside the email editor, null elsewhere: for pieces also shown outside it (the review actions). */
export function useOptionalEditorSession(): EditorSession | null {
  return useContext(EditorSessionContext);
}

/** The editor's current document and history flags, re-rendering when they change. */
export function useEditorState(editor: Editor): EditorState {
  return useSyncExternalStore(editor.subscribe, editor.getState);
}

/**
 * A part of the editor's state, re-rendering only when that part changes (by `isEqual`), not on
 * every change of the document: a keystroke in one field re-renders only what shows that field.
 */
export function useEditorSelector<T>(
  editor: Editor,
  select: (state: EditorState) => T,
  isEqual: (a: T, b: T) => boolean = Object.is,
): T {
  const kept = useRef<{ state: EditorState; select: (state: EditorState) => T; value: T } | null>(null);
  const selection = () => {
    const state = editor.getState();
    const previous = kept.current;
    if (previous && previous.state === state && previous.select === select) return previous.value;
    const next = select(state);
    const value = previous && isEqual(previous.value, next) ? previous.value : next;
    kept.current = { state, select, value };
    return value;
  };
  return useSyncExternalStore(editor.subscribe, selection);
}

/** Whether two instances differ at most in their field values. */
function sameOutsideFieldValues(a: ComponentInstance, b: ComponentInstance): boolean {
  if (a === b) return true;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  keys.delete('field_values');
  for (const key of keys)
    if (a[key as keyof ComponentInstance] !== b[key as keyof ComponentInstance]) return false;
  return true;
}

/**
 * Whether two documents have the same shape: the same locales, instances (ids, names, order,
 * conditionals, hidden locales) and settings, whatever their instances' field values. What the
 * screen around the fields shows (outline, audiences, toolbar) depends only on this.
 */
export function sameDocumentShape(a: EditorDocument, b: EditorDocument): boolean {
  if (a === b) return true;
  if (a.defaultLocale !== b.defaultLocale || a.locales.join('\n') !== b.locales.join('\n')) return false;
  const keys = new Set([...Object.keys(a.content), ...Object.keys(b.content)]);
  for (const key of keys) {
    const left = a.content[key as keyof typeof a.content];
    const right = b.content[key as keyof typeof b.content];
    if (key === 'container_component_instance') {
      if (!sameOutsideFieldValues(left as ComponentInstance, right as ComponentInstance)) return false;
    } else if (key === 'component_instances') {
      const leftInstances = left as ComponentInstance[];
      const rightInstances = right as ComponentInstance[];
      if (leftInstances.length !== rightInstances.length) return false;
      if (
        !leftInstances.every((instance, index) =>
          sameOutsideFieldValues(instance, rightInstances[index] as ComponentInstance),
        )
      )
        return false;
    } else if (left !== right) return false;
  }
  return true;
}

/** The document's shape (see `sameDocumentShape`): the same object while only field values change. */
export function useDocumentShape(editor: Editor): EditorDocument {
  return useEditorSelector(editor, selectDocument, sameDocumentShape);
}

function selectDocument(state: EditorState): EditorDocument {
  return state.document;
}

/** The instance with this id as it is now (null once removed), re-rendering only when it changes. */
export function useInstance(editor: Editor, instanceId: string | null): ComponentInstance | null {
  return useEditorSelector(editor, (state) => {
    const { content } = state.document;
    if (instanceId === null) return null;
    if (content.container_component_instance.id === instanceId) return content.container_component_instance;
    return content.component_instances.find((instance) => instance.id === instanceId) ?? null;
  });
}

/** Sends a command to the editor; a refusal (permission, stale view) is told to the user. */
export function dispatchCommand(editor: Editor, command: EditorCommand): boolean {
  const result = editor.dispatch(command);
  if (result.ok) return true;
  notifications.show({
    color: 'red',
    message:
      result.reason === 'permission'
        ? `Your role does not allow this (it needs ${result.permission.replaceAll('_', ' ')}).`
        : result.message,
  });
  return false;
}

/** The name a user knows an instance by: its own name, else its component's label. */
export function instanceLabel(
  instance: { name?: string; component_id: number },
  componentsById: ReadonlyMap<number, BrandedComponent>,
): string {
  return instance.name?.trim() || componentsById.get(instance.component_id)?.label || 'Unknown component';
}
