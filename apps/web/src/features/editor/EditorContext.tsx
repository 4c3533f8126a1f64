import type {
  BranchSelection,
  BrandedComponent,
  CustomStyle,
  Editor,
  EditorCommand,
  EditorState,
} from '@letterset/core';
import { notifications } from '@mantine/notifications';
import { createContext, useContext, useSyncExternalStore } from 'react';
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
