import {
  applyBrandProfile,
  audienceLabelOf,
  audienceSelection,
  audiencesOf,
  type BrandProfileDefinition,
  type ComponentDefinition,
  type ComponentInstance,
  createEditor,
  type DesignSystemDefinition,
  type EmailContent,
  mergeCustomStyles,
} from '@letterset/core';
import {
  Alert,
  Box,
  Button,
  Group,
  ScrollArea,
  SegmentedControl,
  Select,
  Stack,
  Tabs,
  Text,
} from '@mantine/core';
import { useHotkeys, useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useCan, useMe } from '../../app/session.ts';
import { AudienceSwitch } from '../../shared/AudienceSwitch.tsx';
import { errorMessage } from '../../shared/api-error.ts';
import { ReviewPanel, ReviewPins } from '../comments/ReviewPanel.tsx';
import { useReviewState } from '../comments/review-state.ts';
import { EmailChatTab } from '../email-chat/EmailChatPanel.tsx';
import { ExportDialog } from '../exports/ExportDialog.tsx';
import { checkSavedEmail } from '../exports/exports-api.ts';
import { validateLayoutDocument } from '../layouts/layout-content.ts';
import { SaveAsLayoutModal } from '../layouts/SaveAsLayoutModal.tsx';
import { LocalizationPanel } from '../localization/LocalizationPanel.tsx';
import {
  reloadEmail,
  reopenOnLocalization,
  takeReopenAfterImport,
} from '../localization/localization-api.ts';
import { TranslateWithAi } from '../localization/TranslateWithAi.tsx';
import { ReviewActions } from '../review/ReviewActions.tsx';
import { frozenReason } from '../review/review-action-states.ts';
import { startingPoint } from './autosave.ts';
import { Canvas, type PreviewWidth } from './Canvas.tsx';
import { ConflictDialog, RestoredDraftDialog } from './ChooseVersionDialogs.tsx';
import {
  type EditorSession,
  EditorSessionProvider,
  type FieldFocusRequest,
  instanceLabel,
  useEditorState,
} from './EditorContext.tsx';
import { EditorToolbar } from './EditorToolbar.tsx';
import { brandProfileIdOf, documentOf, draftSlotOf, type EditTarget, nameOf } from './edit-target.ts';
import {
  type Conditional,
  convertToDraft as convertEmailToDraft,
  type EmailVersion,
  type LinkTrackingProfile,
  type PersonalizationTag,
  validateSavedEmail,
} from './editor-api.ts';
import { Inspector } from './Inspector.tsx';
import { PhoneLayout } from './PhoneLayout.tsx';
import { renderForDownload, renderPreview } from './preview.ts';
import { SettingsPanel } from './SettingsPanel.tsx';
import { outlineOf, Structure } from './Structure.tsx';
import { type SaveStatus, useAutosave } from './use-autosave.ts';
import { type ContentProblem, ValidatePanel } from './ValidatePanel.tsx';
import { VersionsPanel } from './VersionsPanel.tsx';

export interface EditorResources {
  designSystem: DesignSystemDefinition;
  components: ComponentDefinition[];
  brandProfiles: BrandProfileDefinition[];
  conditionals: Conditional[];
  personalizationTags: PersonalizationTag[];
  linkTrackingProfiles: LinkTrackingProfile[];
}

type Panel =
  | 'outline'
  | 'inspector'
  | 'settings'
  | 'validate'
  | 'history'
  | 'review'
  | 'localization'
  | 'chat';

/**
 * The editor of an email or a layout: palette and outline on the left, the live preview in the
 * middle, and the inspector, settings, validation and history on the right. Every change goes through
 * core's command layer (undo, redo, permission refusals) and is saved a moment later.
 */
export function DocumentEditor({
  workspaceId,
  target,
  resources,
  onSaved,
  onReplace,
}: {
  workspaceId: number;
  /** The server's copy the editor opens. */
  target: EditTarget;
  resources: EditorResources;
  onSaved: (saved: EditTarget) => void;
  /** Starts over from another state (theirs after a conflict, a restored version, the saved copy). */
  onReplace: (target: EditTarget) => void;
}) {
  const me = useMe();
  const can = useCan();
  const email = target.kind === 'email' ? target.email : null;
  const frozen = email ? frozenReason(email.status) : null;
  const readOnly = email ? frozen !== null || !can('update_emails') : !can('update_layouts');
  const [start] = useState(() => {
    const drafts = draftSlotOf(target);
    const opening = startingPoint(documentOf(target), readOnly ? null : drafts.read());
    if (opening.staleDraft) drafts.clear();
    return opening;
  });
  const [editor] = useState(() =>
    createEditor({ document: start.document, permissions: readOnly ? [] : me.permissions }),
  );
  const state = useEditorState(editor);
  const { document } = state;
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
  // Reopened after a translation import, the editor shows the Localization panel with its summary.
  const [panel, setPanel] = useState<Panel>(() =>
    email && takeReopenAfterImport(email.id) ? 'localization' : 'settings',
  );
  const [width, setWidth] = useState<PreviewWidth>('desktop');
  const [savingAsLayout, setSavingAsLayout] = useState(false);
  const [exporting, setExporting] = useState(false);
  const [emptyEmailSlot, setEmptyEmailSlot] = useState<HTMLDivElement | null>(null);
  const review = useReviewState();
  // Below 85em (1360 px: tablets, laptops) the palette and outline move into the side panel's tabs,
  // so the preview keeps the email's 600 px and its margins.
  const narrow = useMediaQuery('(max-width: 85em)') === true;
  // On a phone (at most 40em, 640 px) people mostly review: the preview takes the screen, panels become sheets.
  const phone = useMediaQuery('(max-width: 40em)') === true;
  const [phoneSheet, setPhoneSheet] = useState<string | null>(null);
  // On a phone the comments sheet makes way for placing a pin, and comes back for its comment or a tapped pin.
  useEffect(() => {
    if (review.pinMode) setPhoneSheet(null);
  }, [review.pinMode]);
  useEffect(() => {
    if (review.pendingPin || review.selectedThreadId !== null) setPhoneSheet('comments');
  }, [review.pendingPin, review.selectedThreadId]);
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
  function downloadHtml() {
    const html = renderForDownload({
      designSystem: resources.designSystem,
      components: resources.components,
      brandProfile,
      content: document.content,
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

  const localeSelect = (
    <Select
      aria-label="Locale"
      w={130}
      size="xs"
      allowDeselect={false}
      data={document.locales}
      value={locale}
      onChange={(value) => value && setLocale(value)}
    />
  );

  const audienceSwitch = (
    <AudienceSwitch
      audiences={audiences}
      selection={branchSelection}
      shownConditionalId={audienceConditionalId}
      onChange={setBranch}
    />
  );

  const reviewActions = email ? (
    <ReviewActions
      workspaceId={workspaceId}
      email={email}
      saved={saveStatus.kind === 'saved'}
      onEmailChanged={(changed) => onReplace({ kind: 'email', email: changed })}
    />
  ) : null;

  const preview = (
    <Canvas
      editor={editor}
      designSystem={resources.designSystem}
      components={resources.components}
      brandProfile={brandProfile}
      locale={locale}
      branchSelection={branchSelection}
      personalizationTags={resources.personalizationTags}
      linkTrackingProfile={linkTrackingProfile}
      conditionals={resources.conditionals}
      emailName={nameOf(target)}
      width={phone ? 'mobile' : width}
      selectedId={selectedId}
      onPick={pickInPreview}
      overlay={
        email && (panel === 'review' || phone)
          ? (frame) => (
              <ReviewPins frame={frame} workspaceId={workspaceId} emailId={email.id} review={review} />
            )
          : undefined
      }
    />
  );

  const readOnlyAlert = readOnly ? (
    <Alert color="yellow" py={6} mb="xs">
      <Group justify="space-between">
        <Text size="sm">{frozen ?? `Your role can view this ${target.kind} but not change it.`}</Text>
        {email?.status === 'published' && can('convert_emails_to_draft') && (
          <Button size="compact-sm" variant="white" onClick={() => convertToDraft(email.id)}>
            Convert to draft
          </Button>
        )}
      </Group>
    </Alert>
  ) : null;

  return (
    <EditorSessionProvider value={session}>
      <Box
        style={{
          display: 'flex',
          flexDirection: 'column',
          height: 'calc(100dvh - var(--app-shell-header-height, 56px) - 2 * var(--mantine-spacing-xs))',
        }}
      >
        {phone && email ? (
          <PhoneLayout
            toolbar={
              <>
                <EditorToolbar
                  workspaceId={workspaceId}
                  target={target}
                  status={saveStatus}
                  canUndo={state.canUndo && !readOnly}
                  canRedo={state.canRedo && !readOnly}
                  onRetrySave={() => autosave?.retry()}
                >
                  {localeSelect}
                  {audienceSwitch}
                </EditorToolbar>
                {readOnlyAlert}
              </>
            }
            preview={preview}
            sheets={[
              {
                id: 'comments',
                label: 'Comments',
                content: <ReviewPanel workspaceId={workspaceId} emailId={email.id} review={review} />,
              },
              { id: 'review', label: 'Review', content: <Stack>{reviewActions}</Stack> },
            ]}
            openSheet={phoneSheet}
            onOpenSheet={setPhoneSheet}
          />
        ) : (
          <>
            <EditorToolbar
              workspaceId={workspaceId}
              target={target}
              status={saveStatus}
              canUndo={state.canUndo && !readOnly}
              canRedo={state.canRedo && !readOnly}
              onRetrySave={() => autosave?.retry()}
            >
              {localeSelect}
              {audienceSwitch}
              {reviewActions}
              {email && can('create_layouts') && (
                <Button size="xs" variant="default" onClick={() => setSavingAsLayout(true)}>
                  Save as layout
                </Button>
              )}
              <Button size="xs" variant="default" onClick={downloadHtml}>
                Download HTML
              </Button>
              {email && can('create_exports') && (
                <Button size="xs" onClick={() => setExporting(true)}>
                  Export
                </Button>
              )}
              <SegmentedControl
                size="xs"
                aria-label="Preview width"
                value={width}
                onChange={(value) => setWidth(value as PreviewWidth)}
                data={[
                  { value: 'desktop', label: 'Desktop' },
                  { value: 'mobile', label: 'Mobile' },
                ]}
              />
            </EditorToolbar>
            {readOnlyAlert}
            <Box style={{ display: 'flex', flex: 1, minHeight: 0, gap: 'var(--mantine-spacing-sm)' }}>
              {!narrow && (
                <ScrollArea w={250} style={{ flexShrink: 0 }} aria-label="Palette and outline">
                  <Structure outline={outline} emptyEmailSlot={emptyEmailSlot} />
                </ScrollArea>
              )}
              <Box style={{ flex: 1, minWidth: 0, display: 'flex', position: 'relative' }}>
                {preview}
                <Box
                  ref={setEmptyEmailSlot}
                  pos="absolute"
                  top={48}
                  left={0}
                  right={0}
                  style={{ display: 'flex', justifyContent: 'center', pointerEvents: 'none' }}
                />
              </Box>
              <Box
                w={narrow ? 320 : 360}
                style={{ flexShrink: 0, display: 'flex', flexDirection: 'column', minHeight: 0 }}
              >
                <Tabs
                  value={panel}
                  onChange={(value) => setPanel(value as Panel)}
                  keepMounted={false}
                  style={{ display: 'flex', flexDirection: 'column', minHeight: 0, flex: 1 }}
                >
                  <Tabs.List grow>
                    {narrow && <Tabs.Tab value="outline">Outline</Tabs.Tab>}
                    <Tabs.Tab value="inspector">Component</Tabs.Tab>
                    <Tabs.Tab value="settings">{email ? 'Email' : 'Layout'}</Tabs.Tab>
                    <Tabs.Tab value="validate">Validate</Tabs.Tab>
                    {email && <Tabs.Tab value="history">History</Tabs.Tab>}
                    {email && <Tabs.Tab value="review">Review</Tabs.Tab>}
                    {email && <Tabs.Tab value="localization">Localization</Tabs.Tab>}
                    {email && <Tabs.Tab value="chat">Chat</Tabs.Tab>}
                  </Tabs.List>
                  <ScrollArea style={{ flex: 1 }} p="xs">
                    {narrow && (
                      <Tabs.Panel value="outline">
                        <Structure outline={outline} emptyEmailSlot={emptyEmailSlot} />
                      </Tabs.Panel>
                    )}
                    <Tabs.Panel value="inspector">
                      {selected ? (
                        <Inspector
                          key={selected.id}
                          instance={selected}
                          defaultLocale={document.defaultLocale}
                        />
                      ) : (
                        <Text size="sm" c="dimmed">
                          Select a component in the preview or the outline to edit its fields.
                        </Text>
                      )}
                    </Tabs.Panel>
                    <Tabs.Panel value="settings">
                      <SettingsPanel
                        kind={target.kind}
                        document={document}
                        brandProfileId={brandProfileId}
                        brandProfiles={resources.brandProfiles}
                        onBrandProfileChange={(id) => {
                          setBrandProfileId(id);
                          autosave?.saveSettings({ brand_profile_id: id });
                        }}
                        linkTrackingProfileId={linkTrackingProfileId}
                        linkTrackingProfiles={resources.linkTrackingProfiles}
                        onLinkTrackingProfileChange={(id) => {
                          setLinkTrackingProfileId(id);
                          autosave?.saveSettings({ link_tracking_profile_id: id });
                        }}
                      />
                    </Tabs.Panel>
                    <Tabs.Panel value="validate">
                      <ValidatePanel
                        validate={
                          email
                            ? () => validateSavedEmail(workspaceId, email.id)
                            : async () =>
                                validateLayoutDocument(
                                  document,
                                  [...componentsById.values()],
                                  resources.conditionals,
                                )
                        }
                        preSendChecks={email ? () => checkSavedEmail(workspaceId, email.id) : undefined}
                        description={
                          email
                            ? `Checks every locale and branch of the saved email against its components’ rules.${saveStatus.kind === 'saved' ? '' : ' Your latest changes are still being saved.'}`
                            : 'Checks every locale and branch of the layout as shown against its components’ rules, as emails started from it will be checked.'
                        }
                        describeOwner={(owner) => {
                          if (owner === 'subject') return 'Subject';
                          if (owner === 'preheader') return 'Preheader';
                          const instance = instances.find((candidate) => candidate.id === owner);
                          return instance ? labelOf(instance) : 'A removed component';
                        }}
                        describeAudience={(where) => audienceLabelOf(document.content, audiences, where)}
                        onOpenProblem={openProblem}
                      />
                    </Tabs.Panel>
                    {email && (
                      <Tabs.Panel value="history">
                        <VersionsPanel
                          workspaceId={workspaceId}
                          emailId={email.id}
                          readOnly={readOnly}
                          renderVersion={renderVersion}
                          onRestored={(restored) => {
                            autosave?.discardChanges();
                            onReplace({ kind: 'email', email: restored });
                          }}
                        />
                      </Tabs.Panel>
                    )}
                    {email && (
                      <Tabs.Panel value="review">
                        <ReviewPanel workspaceId={workspaceId} emailId={email.id} review={review} />
                      </Tabs.Panel>
                    )}
                    {email && (
                      <Tabs.Panel value="localization">
                        <LocalizationPanel
                          email={email}
                          canImport={!readOnly}
                          importBlockedReason={
                            saveStatus.kind === 'saved'
                              ? null
                              : 'Your latest changes are still being saved: import once they are.'
                          }
                          onImported={(imported) => {
                            autosave?.discardChanges();
                            onReplace({ kind: 'email', email: imported });
                          }}
                          translateWithAi={
                            <TranslateWithAi
                              workspaceId={workspaceId}
                              email={email}
                              emailLocales={document.locales}
                              defaultLocale={document.defaultLocale}
                              blockedReason={
                                readOnly
                                  ? 'The email cannot be changed now.'
                                  : saveStatus.kind === 'saved'
                                    ? null
                                    : 'Your latest changes are still being saved: translate once they are.'
                              }
                              onTranslated={() => {
                                // Reopening discards the editor's state: only when nothing of the user's is unsaved.
                                if (saveStatus.kind !== 'saved') {
                                  notifications.show({
                                    color: 'blue',
                                    message:
                                      'The translations are written. Open the email again to see them once your changes are saved.',
                                  });
                                  return;
                                }
                                void reloadEmail(workspaceId, email.id).then((translated) => {
                                  reopenOnLocalization(email.id);
                                  autosave?.discardChanges();
                                  onReplace({ kind: 'email', email: translated });
                                });
                              }}
                            />
                          }
                        />
                      </Tabs.Panel>
                    )}
                    {email && (
                      <EmailChatTab active={panel === 'chat'} workspaceId={workspaceId} emailId={email.id} />
                    )}
                  </ScrollArea>
                </Tabs>
              </Box>
            </Box>
          </>
        )}
      </Box>
      {email && exporting && (
        <ExportDialog
          workspaceId={workspaceId}
          email={{ id: email.id, name: email.name, locales: document.locales, status: email.status }}
          onClose={() => setExporting(false)}
        />
      )}
      {email && savingAsLayout && (
        <SaveAsLayoutModal
          workspaceId={workspaceId}
          designSystemId={email.email_design_system_id}
          brandProfileId={brandProfileId}
          document={document}
          emailName={email.name}
          onClose={() => setSavingAsLayout(false)}
        />
      )}
      {autosave && saveStatus.kind === 'conflict' && (
        <ConflictDialog
          mine={document}
          theirs={saveStatus.theirs}
          labelOf={labelOf}
          onReloadTheirs={() => {
            autosave.discardChanges();
            onReplace(saveStatus.theirs.saved);
          }}
          onOverwrite={() => autosave.overwrite(saveStatus.theirs)}
        />
      )}
      {autosave && saveStatus.kind === 'restored_draft' && (
        <RestoredDraftDialog
          draft={document}
          server={target}
          labelOf={labelOf}
          onDiscard={() => {
            autosave.discardChanges();
            onReplace(target);
          }}
          onKeep={() => autosave.keepRestoredDraft()}
        />
      )}
    </EditorSessionProvider>
  );
}
