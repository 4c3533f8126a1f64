import { audienceLabelOf, type Editor, type EditorDocument } from '@letterset/core';
import {
  Alert,
  Box,
  Button,
  Center,
  Group,
  ScrollArea,
  SegmentedControl,
  Select,
  Stack,
  Switch,
  Tabs,
  Text,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconDeviceDesktop, IconDeviceMobile } from '@tabler/icons-react';
import { type ReactNode, useCallback, useEffect, useState } from 'react';
import { useCan } from '../../app/session.ts';
import { AudienceSwitch } from '../../shared/AudienceSwitch.tsx';
import { ReviewPanel, ReviewPins } from '../comments/ReviewPanel.tsx';
import { useReviewState } from '../comments/review-state.ts';
import { EmailChatTab } from '../email-chat/EmailChatPanel.tsx';
import { checkSavedEmail } from '../exports/exports-api.ts';
import { validateLayoutDocument } from '../layouts/layout-content.ts';
import { reloadEmail, reopenOnLocalization } from '../localization/localization-api.ts';
import { ReviewActions } from '../review/ReviewActions.tsx';
import { Canvas, type PreviewWidth } from './Canvas.tsx';
import { ConflictDialog, RestoredDraftDialog } from './ChooseVersionDialogs.tsx';
import { CanvasEditingLayer } from './canvas/CanvasEditingLayer.tsx';
import { CanvasDropLayer } from './canvas-drop/CanvasDropLayer.tsx';
import { EditorSessionWithDragAndDrop } from './canvas-drop/EditorDragAndDrop.tsx';
import { PresenceAvatars } from './collaboration/PresenceAvatars.tsx';
import { PresenceOutlines } from './collaboration/PresenceOutlines.tsx';
import { PresenceProvider } from './collaboration/presence-context.tsx';
import { useEditorSession, useEditorState, useInstance } from './EditorContext.tsx';
import { EditorToolbar } from './EditorToolbar.tsx';
import { nameOf } from './edit-target.ts';
import { type Email, validateSavedEmail } from './editor-api.ts';
import { Inspector } from './Inspector.tsx';
import {
  ExportDialog,
  LocalizationPanel,
  SaveAsLayoutModal,
  SettingsPanel,
  TranslateWithAi,
  ValidatePanel,
  VersionsPanel,
} from './loaded-on-demand.tsx';
import { PhoneLayout } from './PhoneLayout.tsx';
import { Structure } from './Structure.tsx';
import { type EditorSessionOptions, type Panel, useDocumentEditorSession } from './use-editor-session.ts';

export type { EditorResources } from './use-editor-session.ts';

/**
 * The editor of an email or a layout: palette and outline on the left, the live preview in the
 * middle, and the inspector, settings, validation and history on the right. Every change goes through
 * core's command layer (undo, redo, permission refusals) and is saved a moment later; the session
 * (state, autosave, commands) is `useDocumentEditorSession`, this component lays out its panels and dialogs.
 */
export function DocumentEditor({ workspaceId, target, resources, onSaved, onReplace }: EditorSessionOptions) {
  const can = useCan();
  const {
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
    replaceWith,
    openProblem,
    renderVersion,
    downloadHtml,
    convertToDraft,
    restoredDraftOrigin,
    presentOthers,
  } = useDocumentEditorSession({ workspaceId, target, resources, onSaved, onReplace });
  const [width, setWidth] = useState<PreviewWidth>('desktop');
  // The preview shows tags' example values; this shows where the tags are instead.
  const [showTagNames, setShowTagNames] = useState(false);
  const [savingAsLayout, setSavingAsLayout] = useState(false);
  const [exporting, setExporting] = useState(false);
  const [emptyEmailSlot, setEmptyEmailSlot] = useState<HTMLDivElement | null>(null);
  const review = useReviewState(locale);
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

  const localeSelect = (
    <Select
      aria-label="Locale"
      w={110}
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

  const presenceAvatars = (
    <PresenceAvatars
      labelOf={(instanceId) => {
        const instance = instances.find((candidate) => candidate.id === instanceId);
        return instance ? labelOf(instance) : null;
      }}
    />
  );

  const tagNamesSwitch =
    resources.personalizationTags.length > 0 ? (
      <Switch
        size="xs"
        label="Show tag names"
        checked={showTagNames}
        onChange={(event) => setShowTagNames(event.currentTarget.checked)}
        styles={{ label: { whiteSpace: 'nowrap' } }}
      />
    ) : null;

  const reopenChangedEmail = useCallback(
    (changed: Email) => onReplace({ kind: 'email', email: changed }),
    [onReplace],
  );
  const reviewActions = email ? (
    <ReviewActions
      workspaceId={workspaceId}
      email={email}
      saved={saveStatus.kind === 'saved'}
      onEmailChanged={reopenChangedEmail}
    />
  ) : null;

  const emailId = email?.id ?? null;
  const showPins = emailId !== null && (panel === 'review' || phone);
  const hasOthersPresent = presentOthers.length > 0;
  // One function while what it draws stays the same, so the memoised preview does not re-render on every keystroke.
  const previewOverlay = useCallback(
    (frame: HTMLIFrameElement) => (
      <>
        {/* On a phone the editor is for reviewing: the preview takes the screen and has no side panel to open fields in. */}
        {!phone && <CanvasEditingLayer frame={frame} />}
        {hasOthersPresent && <PresenceOutlines frame={frame} />}
        {/* After the editing layer, so a pin being placed is above its toolbar. */}
        {showPins && <ReviewPins frame={frame} workspaceId={workspaceId} emailId={emailId} review={review} />}
        {/* Last: while a component is dragged, the drop layer covers everything else on the preview. */}
        {!phone && <CanvasDropLayer frame={frame} />}
      </>
    ),
    [phone, showPins, hasOthersPresent, workspaceId, emailId, review],
  );

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
      showTagNames={showTagNames}
      width={phone ? 'mobile' : width}
      selectedId={selectedId}
      onPick={pickInPreview}
      overlay={previewOverlay}
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
    <EditorSessionWithDragAndDrop session={session}>
      <PresenceProvider others={presentOthers}>
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
                    canUndo={history.canUndo && !readOnly}
                    canRedo={history.canRedo && !readOnly}
                    onRetrySave={() => autosave?.retry()}
                  >
                    {presenceAvatars}
                    {localeSelect}
                    {audienceSwitch}
                    {tagNamesSwitch}
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
                canUndo={history.canUndo && !readOnly}
                canRedo={history.canRedo && !readOnly}
                onRetrySave={() => autosave?.retry()}
                secondaryActions={[
                  ...(email && can('create_layouts')
                    ? [{ label: 'Save as layout', onClick: () => setSavingAsLayout(true) }]
                    : []),
                  { label: 'Download HTML', onClick: downloadHtml },
                  // A view setting, beside the actions: the bar keeps one row at 1280 px with the review actions.
                  ...(resources.personalizationTags.length > 0
                    ? [
                        {
                          label: 'Show tag names',
                          checked: showTagNames,
                          onClick: () => setShowTagNames((shown) => !shown),
                        },
                      ]
                    : []),
                ]}
              >
                {presenceAvatars}
                {localeSelect}
                {audienceSwitch}
                {reviewActions}
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
                    {
                      value: 'desktop',
                      label: <PreviewWidthLabel icon={IconDeviceDesktop} name="Desktop" />,
                    },
                    { value: 'mobile', label: <PreviewWidthLabel icon={IconDeviceMobile} name="Mobile" /> },
                  ]}
                />
              </EditorToolbar>
              {readOnlyAlert}
              <Box style={{ display: 'flex', flex: 1, minHeight: 0, gap: 'var(--mantine-spacing-sm)' }}>
                {!narrow && (
                  <ScrollArea
                    w={250}
                    scrollbars="y"
                    style={{ flexShrink: 0 }}
                    aria-label="Palette and outline"
                  >
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
                        <SelectedInstanceInspector
                          instanceId={selectedId}
                          defaultLocale={document.defaultLocale}
                        />
                      </Tabs.Panel>
                      <Tabs.Panel value="settings">
                        <WithCurrentDocument editor={editor}>
                          {(current) => (
                            <SettingsPanel
                              kind={target.kind}
                              document={current}
                              brandProfileId={brandProfileId}
                              brandProfiles={resources.brandProfiles}
                              onBrandProfileChange={changeBrandProfile}
                              linkTrackingProfileId={linkTrackingProfileId}
                              linkTrackingProfiles={resources.linkTrackingProfiles}
                              onLinkTrackingProfileChange={changeLinkTrackingProfile}
                            />
                          )}
                        </WithCurrentDocument>
                      </Tabs.Panel>
                      <Tabs.Panel value="validate">
                        <ValidatePanel
                          validate={
                            email
                              ? () => validateSavedEmail(workspaceId, email.id)
                              : async () =>
                                  validateLayoutDocument(
                                    editor.getState().document,
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
                            savedVersion={email.lock_version}
                            readOnly={readOnly}
                            renderVersion={renderVersion}
                            onRestored={(restored) => replaceWith({ kind: 'email', email: restored })}
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
                            onImported={(imported) => replaceWith({ kind: 'email', email: imported })}
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
                                    replaceWith({ kind: 'email', email: translated });
                                  });
                                }}
                              />
                            }
                          />
                        </Tabs.Panel>
                      )}
                      {email && (
                        <EmailChatTab
                          active={panel === 'chat'}
                          workspaceId={workspaceId}
                          emailId={email.id}
                        />
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
          <WithCurrentDocument editor={editor}>
            {(current) => (
              <SaveAsLayoutModal
                workspaceId={workspaceId}
                designSystemId={email.email_design_system_id}
                brandProfileId={brandProfileId}
                document={current}
                emailName={email.name}
                onClose={() => setSavingAsLayout(false)}
              />
            )}
          </WithCurrentDocument>
        )}
        {autosave && saveStatus.kind === 'conflict' && (
          <WithCurrentDocument editor={editor}>
            {(current) => (
              <ConflictDialog
                mine={current}
                theirs={saveStatus.theirs}
                labelOf={labelOf}
                onReloadTheirs={() => replaceWith(saveStatus.theirs.saved)}
                onOverwrite={() => autosave.overwrite(saveStatus.theirs)}
              />
            )}
          </WithCurrentDocument>
        )}
        {autosave && saveStatus.kind === 'restored_draft' && (
          <WithCurrentDocument editor={editor}>
            {(current) => (
              <RestoredDraftDialog
                draft={current}
                server={target}
                labelOf={labelOf}
                onDiscard={() => replaceWith(target)}
                onKeep={() => autosave.keepRestoredDraft()}
                fromAnotherTab={restoredDraftOrigin.source === 'another_tab'}
                writtenAt={restoredDraftOrigin.writtenAt}
              />
            )}
          </WithCurrentDocument>
        )}
      </PresenceProvider>
    </EditorSessionWithDragAndDrop>
  );
}

/**
 * The inspector of the selected instance, re-rendering when that instance changes: the editor
 * around it keeps the document's shape only (see `useDocumentShape`).
 */
function SelectedInstanceInspector({
  instanceId,
  defaultLocale,
}: {
  instanceId: string | null;
  defaultLocale: string;
}) {
  const { editor } = useEditorSession();
  // Not deferred: the inspector's inputs are controlled, and an urgent render with the old value
  // would put a clicked switch back and drop characters typed before the deferred render.
  const instance = useInstance(editor, instanceId);
  if (!instance)
    return (
      <Text size="sm" c="dimmed">
        Select a component in the preview or the outline to edit its fields.
      </Text>
    );
  return <Inspector key={instance.id} instance={instance} defaultLocale={defaultLocale} />;
}

/** Renders its children with the document as it is now, field values included, following every change. */
function WithCurrentDocument({
  editor,
  children,
}: {
  editor: Editor;
  children: (document: EditorDocument) => ReactNode;
}) {
  return children(useEditorState(editor).document);
}

/** A preview width as an icon (the bar keeps one row at 1280 px), named for screen readers and on hover. */
function PreviewWidthLabel({ icon: Icon, name }: { icon: typeof IconDeviceDesktop; name: string }) {
  return (
    <Tooltip label={name} withArrow>
      <Center>
        <Icon size={16} aria-hidden />
        <VisuallyHidden>{name}</VisuallyHidden>
      </Center>
    </Tooltip>
  );
}
