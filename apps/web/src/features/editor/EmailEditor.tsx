import {
  applyBrandProfile,
  type BrandProfileDefinition,
  type ComponentDefinition,
  type ComponentInstance,
  createEditor,
  type DesignSystemDefinition,
  type EmailContent,
  mergeCustomStyles,
} from '@letterset/core';
import { Alert, Box, Button, Group, ScrollArea, SegmentedControl, Select, Tabs, Text } from '@mantine/core';
import { useHotkeys, useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { api } from '../../app/api.ts';
import { useCan, useMe } from '../../app/session.ts';
import { errorMessage, unwrap } from '../../shared/api-error.ts';
import { ExportDialog } from '../exports/ExportDialog.tsx';
import { SaveAsLayoutModal } from '../layouts/SaveAsLayoutModal.tsx';
import { startingPoint } from './autosave.ts';
import { Canvas, type PreviewWidth } from './Canvas.tsx';
import { ConflictDialog, RestoredDraftDialog } from './ChooseVersionDialogs.tsx';
import { clearDraft, readDraft } from './drafts.ts';
import {
  type EditorSession,
  EditorSessionProvider,
  type FieldFocusRequest,
  instanceLabel,
  useEditorState,
} from './EditorContext.tsx';
import { EditorToolbar } from './EditorToolbar.tsx';
import type {
  Conditional,
  Email,
  EmailVersion,
  LinkTrackingProfile,
  PersonalizationTag,
} from './editor-data.ts';
import { emailQuery } from './editor-data.ts';
import { Inspector } from './Inspector.tsx';
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

type Panel = 'outline' | 'inspector' | 'settings' | 'validate' | 'history';

/**
 * The email editor: palette and outline on the left, the live preview in the middle, and the
 * inspector, settings, validation and history on the right. Every change goes through core's
 * command layer (undo, redo, permission refusals) and is saved a moment later.
 */
export function EmailEditor({
  workspaceId,
  email,
  resources,
  onReplaceEmail,
}: {
  workspaceId: number;
  email: Email;
  resources: EditorResources;
  /** Starts over from another state of the email (theirs after a conflict, a restored version). */
  onReplaceEmail: (email: Email) => void;
}) {
  const me = useMe();
  const can = useCan();
  const queryClient = useQueryClient();
  const readOnly = email.status === 'published' || !can('update_emails');
  const [start] = useState(() => {
    const opening = startingPoint(email, readOnly ? null : readDraft(email.id));
    if (opening.staleDraft) clearDraft(email.id);
    return opening;
  });
  const [editor] = useState(() =>
    createEditor({ document: start.document, permissions: readOnly ? [] : me.permissions }),
  );
  const state = useEditorState(editor);
  const { document } = state;
  const [chosenLocale, setLocale] = useState<string>(start.document.defaultLocale);
  const locale = document.locales.includes(chosenLocale) ? chosenLocale : document.defaultLocale;
  const [branchSelection, setBranchSelection] = useState<Record<string, string>>({});
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [focusRequest, setFocusRequest] = useState<FieldFocusRequest | null>(null);
  const [panel, setPanel] = useState<Panel>('settings');
  const [width, setWidth] = useState<PreviewWidth>('desktop');
  const [savingAsLayout, setSavingAsLayout] = useState(false);
  const [exporting, setExporting] = useState(false);
  const [emptyEmailSlot, setEmptyEmailSlot] = useState<HTMLDivElement | null>(null);
  // Below 85em (1360 px: tablets, laptops) the palette and outline move into the side panel's tabs,
  // so the preview keeps the email's 600 px and its margins.
  const narrow = useMediaQuery('(max-width: 85em)') === true;
  const [brandProfileId, setBrandProfileId] = useState(email.brand_profile_id ?? null);
  const [linkTrackingProfileId, setLinkTrackingProfileId] = useState(email.link_tracking_profile_id ?? null);

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
    email,
    editor,
    restoredDraft: start.restoredDraft,
    enabled: !readOnly,
    onSaved: (saved) => queryClient.setQueryData(emailQuery(workspaceId, email.id).queryKey, saved),
  });
  const saveStatus: SaveStatus = autosave?.status ?? { kind: 'saved' };

  const select = useCallback((instanceId: string | null) => {
    setSelectedId(instanceId);
    if (instanceId) setPanel('inspector');
  }, []);
  const focusField = useCallback((instanceId: string, variable: string) => {
    setSelectedId(instanceId);
    setPanel('inspector');
    setFocusRequest((current) => ({ instanceId, variable, nonce: (current?.nonce ?? 0) + 1 }));
  }, []);
  const setBranch = useCallback(
    (conditionalId: number, branchKey: string) =>
      setBranchSelection((current) => ({ ...current, [String(conditionalId)]: branchKey })),
    [],
  );

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
      emailId: email.id,
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
      email.id,
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
      emailName: email.name,
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
      emailName: email.name,
    });
    const link = window.document.createElement('a');
    link.href = URL.createObjectURL(new Blob([html], { type: 'text/html;charset=utf-8' }));
    link.download = `${
      email.name
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-|-$/g, '') || 'email'
    }-${locale}.html`;
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  }

  async function convertToDraft() {
    try {
      const converted = await unwrap(
        api.POST('/api/v1/workspaces/{workspace_id}/emails/{id}/convert_to_draft', {
          params: { path: { workspace_id: workspaceId, id: email.id } },
        }),
      );
      onReplaceEmail(converted);
    } catch (error) {
      notifications.show({ color: 'red', message: errorMessage(error) });
    }
  }

  return (
    <EditorSessionProvider value={session}>
      <Box
        style={{
          display: 'flex',
          flexDirection: 'column',
          height: 'calc(100dvh - var(--app-shell-header-height, 56px) - 2 * var(--mantine-spacing-xs))',
        }}
      >
        <EditorToolbar
          workspaceId={workspaceId}
          email={email}
          status={saveStatus}
          canUndo={state.canUndo && !readOnly}
          canRedo={state.canRedo && !readOnly}
          onRetrySave={() => autosave?.retry()}
        >
          <Select
            aria-label="Locale"
            w={130}
            size="xs"
            allowDeselect={false}
            data={document.locales}
            value={locale}
            onChange={(value) => value && setLocale(value)}
          />
          {can('create_layouts') && (
            <Button size="xs" variant="default" onClick={() => setSavingAsLayout(true)}>
              Save as layout
            </Button>
          )}
          <Button size="xs" variant="default" onClick={downloadHtml}>
            Download HTML
          </Button>
          {can('create_exports') && (
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
        {readOnly && (
          <Alert color="yellow" py={6} mb="xs">
            <Group justify="space-between">
              <Text size="sm">
                {email.status === 'published'
                  ? 'This email is published, so it is read-only.'
                  : 'Your role can view this email but not change it.'}
              </Text>
              {email.status === 'published' && can('convert_emails_to_draft') && (
                <Button size="compact-sm" variant="white" onClick={convertToDraft}>
                  Convert to draft
                </Button>
              )}
            </Group>
          </Alert>
        )}
        <Box style={{ display: 'flex', flex: 1, minHeight: 0, gap: 'var(--mantine-spacing-sm)' }}>
          {!narrow && (
            <ScrollArea w={250} style={{ flexShrink: 0 }} aria-label="Palette and outline">
              <Structure outline={outline} emptyEmailSlot={emptyEmailSlot} />
            </ScrollArea>
          )}
          <Box style={{ flex: 1, minWidth: 0, display: 'flex', position: 'relative' }}>
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
              emailName={email.name}
              width={width}
              selectedId={selectedId}
              onPick={pickInPreview}
            />
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
                <Tabs.Tab value="settings">Email</Tabs.Tab>
                <Tabs.Tab value="validate">Validate</Tabs.Tab>
                <Tabs.Tab value="history">History</Tabs.Tab>
              </Tabs.List>
              <ScrollArea style={{ flex: 1 }} p="xs">
                {narrow && (
                  <Tabs.Panel value="outline">
                    <Structure outline={outline} emptyEmailSlot={emptyEmailSlot} />
                  </Tabs.Panel>
                )}
                <Tabs.Panel value="inspector">
                  {selected ? (
                    <Inspector key={selected.id} instance={selected} defaultLocale={document.defaultLocale} />
                  ) : (
                    <Text size="sm" c="dimmed">
                      Select a component in the preview or the outline to edit its fields.
                    </Text>
                  )}
                </Tabs.Panel>
                <Tabs.Panel value="settings">
                  <SettingsPanel
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
                    workspaceId={workspaceId}
                    emailId={email.id}
                    hasUnsavedChanges={saveStatus.kind !== 'saved'}
                    describeOwner={(owner) => {
                      if (owner === 'subject') return 'Subject';
                      if (owner === 'preheader') return 'Preheader';
                      const instance = instances.find((candidate) => candidate.id === owner);
                      return instance ? labelOf(instance) : 'A removed component';
                    }}
                    onOpenProblem={openProblem}
                  />
                </Tabs.Panel>
                <Tabs.Panel value="history">
                  <VersionsPanel
                    workspaceId={workspaceId}
                    emailId={email.id}
                    readOnly={readOnly}
                    renderVersion={renderVersion}
                    onRestored={(restored) => {
                      autosave?.discardChanges();
                      onReplaceEmail(restored);
                    }}
                  />
                </Tabs.Panel>
              </ScrollArea>
            </Tabs>
          </Box>
        </Box>
      </Box>
      {exporting && (
        <ExportDialog
          workspaceId={workspaceId}
          email={{ id: email.id, name: email.name, locales: document.locales }}
          onClose={() => setExporting(false)}
        />
      )}
      {savingAsLayout && (
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
            onReplaceEmail(saveStatus.theirs);
          }}
          onOverwrite={() => autosave.overwrite(saveStatus.theirs)}
        />
      )}
      {autosave && saveStatus.kind === 'restored_draft' && (
        <RestoredDraftDialog
          draft={document}
          server={email}
          labelOf={labelOf}
          onDiscard={() => {
            autosave.discardChanges();
            onReplaceEmail(email);
          }}
          onKeep={() => autosave.keepRestoredDraft()}
        />
      )}
    </EditorSessionProvider>
  );
}
