import {
  applyBrandProfile,
  audienceSelection,
  audiencesOf,
  type BrandProfileDefinition,
  type ComponentDefinition,
  type ComponentInstance,
  createEditor,
  type DesignSystemDefinition,
  type EditorState,
  type EmailContent,
  mergeCustomStyles,
} from '@letterset/core';
import { useHotkeys } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useCan, useMe } from '../../app/session.ts';
import { errorMessage } from '../../shared/api-error.ts';
import { takeReopenAfterImport } from '../localization/localization-api.ts';
import { frozenReason } from '../review/review-action-states.ts';
import { startingPoint } from './autosave.ts';
import { useLiveEditing } from './collaboration/use-live-editing.ts';
import { keepTabSignUp } from './drafts.ts';
import {
  type EditorSession,
  type FieldFocusRequest,
  instanceLabel,
  useDocumentShape,
  useEditorSelector,
} from './EditorContext.tsx';
import { brandProfileIdOf, copyOf, draftsOf, type EditTarget, nameOf } from './edit-target.ts';
import {
  type Conditional,
  convertToDraft as convertEmailToDraft,
  type EmailVersion,
  type LinkTrackingProfile,
  type PersonalizationTag,
  takeReopenOnHistory,
} from './editor-api.ts';
import { renderForDownload, renderPreview } from './preview.ts';
import { outlineOf } from './Structure.tsx';
import { type SaveStatus, useAutosave } from './use-autosave.ts';
import type { ContentProblem } from './ValidatePanel.tsx';

export interface EditorResources {
  designSystem: DesignSystemDefinition;
  components: ComponentDefinition[];
  brandProfiles: BrandProfileDefinition[];
  conditionals: Conditional[];
  personalizationTags: PersonalizationTag[];
  linkTrackingProfiles: LinkTrackingProfile[];
}

export type Panel =
  | 'outline'
  | 'inspector'
  | 'settings'
  | 'validate'
  | 'history'
  | 'review'
  | 'localization'
  | 'chat';

export interface EditorSessionOptions {
  workspaceId: number;
  /** The server's copy the editor opens. */
  target: EditTarget;
  resources: EditorResources;
  onSaved: (saved: EditTarget) => void;
  /** Starts over from another state (theirs after a conflict, a restored version, the saved copy). */
  onReplace: (target: EditTarget) => void;
}

/**
 * One editing session of an email or a layout, without its layout on screen: where the editor
 * starts (the server's copy or this browser's draft), the core editor and its state, what is shown
 * (locale, audience branches, selection, side panel), the brand and link tracking profiles, the
 * autosave and its status, undo and redo on the keyboard, and the commands the panels call.
 */
export function useDocumentEditorSession({
  workspaceId,
  target,
  resources,
  onSaved,
  onReplace,
}: EditorSessionOptions) {
  const me = useMe();
  const can = useCan();
  const email = target.kind === 'email' ? target.email : null;
  const frozen = email ? frozenReason(email.status) : null;
  const readOnly = email ? frozen !== null || !can('update_emails') : !can('update_layouts');
  // This tab's draft (a reload, a crash), or one a closed tab left behind; never an open tab's.
  const [start] = useState(() => {
    const { document: serverDocument, lockVersion } = copyOf(target);
    const server = { document: serverDocument, lockVersion };
    if (readOnly) return { ...startingPoint(server, null), forget: [] as (() => void)[] };
    const drafts = draftsOf(target);
    const leftBehind = drafts.leftBehind();
    const opening = startingPoint(
      server,
      drafts.slot.read(),
      leftBehind.map((entry) => entry.draft),
    );
    const forget = opening.leftBehindToRemove.flatMap((index) => leftBehind[index]?.remove ?? []);
    if (opening.staleDraft) forget.push(() => drafts.slot.clear());
    return { ...opening, forget };
  });
  // Once mounted (not in the initializer, which React may run twice): the draft offered is this
  // tab's from now on (the autosave wrote it to this tab's slot), and stale ones go.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the opening is decided once.
  useEffect(() => {
    for (const forget of start.forget) forget();
  }, []);
  useEffect(() => (readOnly ? undefined : keepTabSignUp()), [readOnly]);
  const [editor] = useState(() =>
    createEditor({ document: start.document, permissions: readOnly ? [] : me.permissions }),
  );
  const history = useEditorSelector(editor, undoRedoOf, sameUndoRedo);
  // Typing changes field values only: the screen around the fields keeps this document, and each
  // panel that shows field values subscribes to them itself.
  const document = useDocumentShape(editor);
  const [chosenLocale, setLocale] = useState<string>(start.document.defaultLocale);
  const locale = document.locales.includes(chosenLocale) ? chosenLocale : document.defaultLocale;
  // Branches picked (Audience switch, inspector, a problem opened); every other conditional the
  // email uses shows its default branch, as an export without a profile does.
  const [chosenBranches, setChosenBranches] = useState<Record<string, string>>({});
  const [audienceConditionalId, setAudienceConditionalId] = useState<number | null>(null);
  const audiences = useMemo(
    () => audiencesOf(document.content, resources.conditionals),
    [document.content, resources.conditionals],
  );
  const shownBranches = audienceSelection(audiences, chosenBranches);
  const shownBranchesKey = JSON.stringify(shownBranches);
  // One object while the branches shown stay the same, so typing does not restart the preview.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key stands for the selection's content.
  const branchSelection = useMemo(() => shownBranches, [shownBranchesKey]);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [focusRequest, setFocusRequest] = useState<FieldFocusRequest | null>(null);
  // Reopened after a translation import, the editor shows the Localization panel with its summary;
  // after a restore, the History it was restored from.
  const [panel, setPanel] = useState<Panel>(() => {
    if (email && takeReopenAfterImport(email.id)) return 'localization';
    if (email && takeReopenOnHistory(email.id)) return 'history';
    return 'settings';
  });
  const [brandProfileId, setBrandProfileId] = useState(brandProfileIdOf(target));
  // Link tracking belongs to the email being sent: a layout has none.
  const [linkTrackingProfileId, setLinkTrackingProfileId] = useState(email?.link_tracking_profile_id ?? null);

  const linkTrackingProfile =
    resources.linkTrackingProfiles.find((profile) => profile.id === linkTrackingProfileId) ?? null;
  const brandProfile = resources.brandProfiles.find((profile) => profile.id === brandProfileId) ?? null;
  const componentsById = useMemo(
    () =>
      new Map(
        applyBrandProfile(resources.components, brandProfile).map((component) => [component.id, component]),
      ),
    [resources.components, brandProfile],
  );
  const customStyles = useMemo(
    () => mergeCustomStyles(resources.designSystem.custom_styles, brandProfile?.custom_styles),
    [resources.designSystem, brandProfile],
  );

  const autosave = useAutosave({
    workspaceId,
    target,
    server: start.server,
    editor,
    restoredDraft: start.restoredDraft,
    enabled: !readOnly,
    onSaved: (saved) => {
      // The server's copy may carry someone else's settings (their save merged into ours): the
      // pickers show what it holds, unless a choice of this person's is still waiting to be sent.
      if (!autosave?.settingsPending) {
        setBrandProfileId(brandProfileIdOf(saved));
        if (saved.kind === 'email') setLinkTrackingProfileId(saved.email.link_tracking_profile_id ?? null);
      }
      onSaved(saved);
    },
  });
  const saveStatus: SaveStatus<EditTarget> = autosave?.status ?? { kind: 'saved' };
  const presentOthers = useLiveEditing({ workspaceId, target, autosave, selectedId, onReplace });

  const select = useCallback((instanceId: string | null) => {
    setSelectedId(instanceId);
    if (instanceId) setPanel('inspector');
  }, []);
  const focusField = useCallback((instanceId: string, variable: string) => {
    setSelectedId(instanceId);
    setPanel('inspector');
    setFocusRequest((current) => ({ instanceId, variable, nonce: (current?.nonce ?? 0) + 1 }));
  }, []);
  const setBranch = useCallback((conditionalId: number, branchKey: string) => {
    setChosenBranches((current) => ({ ...current, [String(conditionalId)]: branchKey }));
    setAudienceConditionalId(conditionalId);
  }, []);

  useHotkeys(
    [
      ['mod+Z', () => editor.undo()],
      ['mod+shift+Z', () => editor.redo()],
    ],
    [],
    true,
  );

  const containerId = document.content.container_component_instance.id;
  const pickInPreview = useCallback(
    (instanceId: string | null, field: string | null) => {
      const id = instanceId ?? containerId;
      if (field) focusField(id, field);
      else select(id);
    },
    [containerId, focusField, select],
  );

  const { key: outlineKey, outline: currentOutline } = outlineOf(document.content);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key stands for the outline's content.
  const outline = useMemo(() => currentOutline, [outlineKey]);

  const session: EditorSession = useMemo(
    () => ({
      editor,
      workspaceId,
      readOnly,
      componentsById,
      customStyles,
      conditionals: resources.conditionals,
      personalizationTags: resources.personalizationTags,
      linkTrackingProfile,
      locale,
      setLocale,
      branchSelection,
      setBranch,
      selectedId,
      select,
      focusRequest,
      focusField,
    }),
    [
      editor,
      workspaceId,
      readOnly,
      componentsById,
      customStyles,
      resources.conditionals,
      resources.personalizationTags,
      linkTrackingProfile,
      locale,
      branchSelection,
      setBranch,
      selectedId,
      select,
      focusRequest,
      focusField,
    ],
  );

  const labelOf = (instance: ComponentInstance) => instanceLabel(instance, componentsById);
  // Their ids, names, components and conditionals: their field values may be older (see `document`).
  const instances = [document.content.container_component_instance, ...document.content.component_instances];
  const selected = instances.find((instance) => instance.id === selectedId) ?? null;

  function openProblem(problem: ContentProblem) {
    if (document.locales.includes(problem.locale)) setLocale(problem.locale);
    if (problem.owner === 'subject' || problem.owner === 'preheader') {
      const conditionalId = document.content[problem.owner].conditional_id;
      if (conditionalId != null && problem.branch !== 'null_branch') setBranch(conditionalId, problem.branch);
      setPanel('settings');
      return;
    }
    const instance = instances.find((candidate) => candidate.id === problem.owner);
    if (instance?.conditional_id != null && problem.branch !== 'null_branch')
      setBranch(instance.conditional_id, problem.branch);
    if (problem.variable) focusField(problem.owner, problem.variable);
    else select(problem.owner);
  }

  const renderVersion = (version: EmailVersion) =>
    renderPreview({
      designSystem: resources.designSystem,
      components: resources.components,
      brandProfile,
      content: version.email_data.email_content as EmailContent,
      locale: (version.email_data.locales as string[]).includes(locale)
        ? locale
        : (version.email_data.locales[0] ?? locale),
      branchSelection,
      personalizationTags: resources.personalizationTags,
      linkTrackingProfile,
      conditionals: resources.conditionals,
      emailName: nameOf(target),
    });

  /** Saves the locale on screen as an .html file, as a file export would write it (CSS inlined). */
  async function downloadHtml() {
    const html = await renderForDownload({
      designSystem: resources.designSystem,
      components: resources.components,
      brandProfile,
      content: editor.getState().document.content,
      locale,
      personalizationTags: resources.personalizationTags,
      linkTrackingProfile,
      conditionals: resources.conditionals,
      emailName: nameOf(target),
    });
    const link = window.document.createElement('a');
    link.href = URL.createObjectURL(new Blob([html], { type: 'text/html;charset=utf-8' }));
    link.download = `${
      nameOf(target)
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-|-$/g, '') || 'email'
    }-${locale}.html`;
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  }

  async function convertToDraft(emailId: number) {
    try {
      const converted = await convertEmailToDraft(workspaceId, emailId);
      onReplace({ kind: 'email', email: converted });
    } catch (error) {
      notifications.show({ color: 'red', message: errorMessage(error) });
    }
  }

  /** Another brand profile: shown at once, saved with the content but outside the undo history. */
  const changeBrandProfile = (id: number | null) => {
    setBrandProfileId(id);
    autosave?.saveSettings({ brand_profile_id: id });
  };
  const changeLinkTrackingProfile = (id: number | null) => {
    setLinkTrackingProfileId(id);
    autosave?.saveSettings({ link_tracking_profile_id: id });
  };
  /** Drops what is unsaved and starts over from another copy (a restored version, an import, theirs). */
  const replaceWith = (replacement: EditTarget) => {
    autosave?.discardChanges();
    onReplace(replacement);
  };

  return {
    email,
    frozen,
    readOnly,
    editor,
    history,
    document,
    locale,
    setLocale,
    audiences,
    audienceConditionalId,
    branchSelection,
    setBranch,
    selectedId,
    selected,
    select,
    focusField,
    pickInPreview,
    panel,
    setPanel,
    brandProfileId,
    brandProfile,
    changeBrandProfile,
    linkTrackingProfileId,
    linkTrackingProfile,
    changeLinkTrackingProfile,
    componentsById,
    outline,
    session,
    instances,
    labelOf,
    autosave,
    saveStatus,
    restoredDraftOrigin: { source: start.draftSource, writtenAt: start.draftWrittenAt },
    presentOthers,
    replaceWith,
    openProblem,
    renderVersion,
    downloadHtml,
    convertToDraft,
  };
}

export type EditorSessionState = ReturnType<typeof useDocumentEditorSession>;

function undoRedoOf(state: EditorState): { canUndo: boolean; canRedo: boolean } {
  return { canUndo: state.canUndo, canRedo: state.canRedo };
}

function sameUndoRedo(a: { canUndo: boolean; canRedo: boolean }, b: { canUndo: boolean; canRedo: boolean }) {
  return a.canUndo === b.canUndo && a.canRedo === b.canRedo;
}
