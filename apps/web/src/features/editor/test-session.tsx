import { createEditor, type EditorDocument } from '@letterset/core';
import { type PermissionKey, permissionKeys } from '@letterset/core/permissions';
import { MantineProvider } from '@mantine/core';
import type { ReactNode } from 'react';
import { type EditorSession, EditorSessionProvider, useEditorState } from './EditorContext.tsx';

export const instanceId = '00000000-0000-4000-8000-000000000001';

/** An email with one instance whose `link` url field has a stored value in en-US. */
export function testDocument(): EditorDocument {
  return {
    locales: ['en-US'],
    defaultLocale: 'en-US',
    content: {
      subject: { conditional_id: null, branch_content: { null_branch: { 'en-US': 'Hello' } } },
      preheader: { conditional_id: null, branch_content: { null_branch: { 'en-US': 'Read on' } } },
      container_component_instance: {
        id: '00000000-0000-4000-8000-000000000000',
        component_id: 1,
        field_values: { null_branch: {} },
      },
      component_instances: [
        {
          id: instanceId,
          component_id: 2,
          field_values: { null_branch: { 'en-US': { link: { value: 'https://example.com/' } } } },
        },
      ],
    },
  };
}

/** A real editor (all permissions unless told) in a session, re-rendering its children on every change. */
export function renderableSession(
  overrides: Partial<EditorSession> = {},
  permissions: Iterable<PermissionKey> = permissionKeys,
  document: EditorDocument = testDocument(),
  /** 0 makes every change its own undo step, as generated tests need. */
  editorOptions: { coalesceWindowMs?: number } = {},
) {
  const editor = createEditor({ document, permissions, ...editorOptions });
  const session: EditorSession = {
    editor,
    workspaceId: 1,
    readOnly: false,
    componentsById: new Map(),
    customStyles: [],
    conditionals: [],
    personalizationTags: [],
    linkTrackingProfile: null,
    locale: 'en-US',
    setLocale: () => {},
    branchSelection: {},
    setBranch: () => {},
    selectedId: null,
    select: () => {},
    focusRequest: null,
    focusField: () => {},
    ...overrides,
  };
  function Live({ children }: { children: (document: EditorDocument) => ReactNode }) {
    const { document } = useEditorState(editor);
    return (
      <MantineProvider env="test">
        <EditorSessionProvider value={session}>{children(document)}</EditorSessionProvider>
      </MantineProvider>
    );
  }
  return { editor, Live };
}
