import { type FieldDefinition, validateFieldDefinitions } from '@letterset/core';
import {
  Alert,
  Badge,
  Button,
  Grid,
  Group,
  Modal,
  Select,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useBlocker, useNavigate, useParams } from '@tanstack/react-router';
import { useMemo, useState } from 'react';
import { useCan } from '../../app/session.ts';
import { ApiError, errorMessage } from '../../shared/api-error.ts';
import { confirmDestructive } from '../../shared/confirm.tsx';
import { PageHeader } from '../../shared/PageHeader.tsx';
import { QueryState } from '../../shared/QueryState.tsx';
import { type DesignSystem, designSystemQuery } from '../design-systems/design-systems-api.ts';
import { allFeedsQuery } from '../dynamic-content/dynamic-content-api.ts';
import { useWorkspaceId } from '../shell/workspace.ts';
import { ComponentPreview } from './ComponentPreview.tsx';
import { ComponentVersionsDrawer } from './ComponentVersionsDrawer.tsx';
import {
  type Component,
  type ComponentVersion,
  componentKeys,
  componentListQuery,
  componentQuery,
  updateComponent,
  useDeleteComponent,
} from './component-builder-api.ts';
import { FieldDefinitionsPanel } from './FieldDefinitionsPanel.tsx';
import {
  cleanDefinition,
  type DraftField,
  type FieldProblems,
  fieldProblemsFrom,
  toDraftFields,
} from './field-definitions.ts';
import { problemsFromServer, TemplateEditor } from './TemplateEditor.tsx';

/** The component builder: template, fields and live preview of one component. */
export function ComponentBuilderPage() {
  const workspaceId = useWorkspaceId();
  const params = useParams({
    from: '/_app/workspaces/$workspaceId/design-systems/$designSystemId/components/$componentId',
  });
  const designSystemId = Number(params.designSystemId);
  const componentId = Number(params.componentId);
  const system = useQuery(designSystemQuery(workspaceId, designSystemId));
  const component = useQuery(componentQuery(workspaceId, designSystemId, componentId));
  const all = useQuery(componentListQuery(workspaceId, designSystemId));
  return (
    <QueryState query={system}>
      {(designSystem) => (
        <QueryState query={component}>
          {(saved) => (
            <ComponentBuilder
              // A fresh builder per component version the server returns keeps the draft honest.
              key={`${saved.id}-${saved.updated_at}`}
              workspaceId={workspaceId}
              designSystem={designSystem}
              saved={saved}
              container={all.data?.results.find((candidate) => candidate.container) ?? null}
            />
          )}
        </QueryState>
      )}
    </QueryState>
  );
}

interface Draft {
  label: string;
  description: string;
  template: string;
  deprecated: boolean;
  feedId: number | null;
  fields: DraftField[];
}

function draftOf(component: Component): Draft {
  return {
    label: component.label,
    description: component.description ?? '',
    template: component.template,
    deprecated: component.deprecated,
    feedId: component.feed_id,
    fields: toDraftFields(component.field_definitions as FieldDefinition[]),
  };
}

function changesOf(draft: Draft) {
  return {
    label: draft.label,
    description: draft.description.trim() === '' ? null : draft.description,
    template: draft.template,
    deprecated: draft.deprecated,
    feed_id: draft.feedId,
    field_definitions: draft.fields.map((field) => cleanDefinition(field.definition)),
  };
}

function sameAsSaved(draft: Draft, saved: Component): boolean {
  const savedChanges = changesOf(draftOf(saved));
  return JSON.stringify(changesOf(draft)) === JSON.stringify(savedChanges);
}

function mergeProblems(...sources: FieldProblems[]): FieldProblems {
  const merged: FieldProblems = {};
  for (const source of sources) {
    for (const [index, paths] of Object.entries(source)) {
      const target = { ...merged[Number(index)] };
      for (const [path, messages] of Object.entries(paths)) {
        target[path] = [...new Set([...(target[path] ?? []), ...messages])];
      }
      merged[Number(index)] = target;
    }
  }
  return merged;
}

function ComponentBuilder({
  workspaceId,
  designSystem,
  saved,
  container,
}: {
  workspaceId: number;
  designSystem: DesignSystem;
  saved: Component;
  container: Component | null;
}) {
  const can = useCan();
  const queryClient = useQueryClient();
  const deleteComponent = useDeleteComponent(workspaceId, designSystem.id);
  const navigate = useNavigate();
  const editable = !designSystem.shared && can('update_email_design_systems');
  const [draft, setDraft] = useState<Draft>(() => draftOf(saved));
  const feeds = useQuery({ ...allFeedsQuery(workspaceId), enabled: !saved.container });
  const chosenFeed = feeds.data?.find((feed) => feed.id === draft.feedId) ?? null;
  const feedOptions = (feeds.data ?? []).map((feed) => ({ value: String(feed.id), label: feed.name }));
  const [serverErrors, setServerErrors] = useState<Record<string, string[]>>({});
  const [savedFieldProblems, setSavedFieldProblems] = useState<FieldProblems>({});
  const [otherProblems, setOtherProblems] = useState<string[]>([]);
  const [saving, setSaving] = useState(false);
  const [historyOpen, history] = useDisclosure(false);
  const dirty = !sameAsSaved(draft, saved);

  const blocker = useBlocker({
    shouldBlockFn: () => dirty,
    enableBeforeUnload: () => dirty,
    withResolver: true,
  });

  const customStyleNames = useMemo(
    () => designSystem.custom_styles.map((style) => style.name),
    [designSystem.custom_styles],
  );
  const definitions = useMemo(
    () => draft.fields.map((field) => cleanDefinition(field.definition)),
    [draft.fields],
  );
  const fieldProblems = useMemo(
    () =>
      mergeProblems(
        fieldProblemsFrom(validateFieldDefinitions(definitions, { customStyleNames }), ''),
        fieldProblemsFrom(serverErrors),
      ),
    [definitions, customStyleNames, serverErrors],
  );
  const serverTemplateProblems = useMemo(
    () => problemsFromServer(serverErrors.template ?? []),
    [serverErrors],
  );

  const previewComponent = useMemo(
    () => ({
      id: saved.id,
      name: saved.name,
      label: draft.label,
      container: saved.container,
      template: draft.template,
      field_definitions: definitions,
    }),
    [saved.id, saved.name, saved.container, draft.label, draft.template, definitions],
  );
  const previewSystem = useMemo(
    () => ({
      id: designSystem.id,
      name: designSystem.name,
      design_tokens: designSystem.design_tokens,
      custom_styles: designSystem.custom_styles,
    }),
    [designSystem],
  );
  const previewContainer = useMemo(
    () =>
      container && container.id !== saved.id
        ? { ...container, field_definitions: container.field_definitions as FieldDefinition[] }
        : null,
    [container, saved.id],
  );

  const update = (changes: Partial<Draft>) => {
    setDraft((current) => ({ ...current, ...changes }));
    // The API's messages were about what was sent; once that changes they may no longer hold.
    if (changes.fields)
      setServerErrors(({ template }) => (template ? { template } : ({} as Record<string, string[]>)));
    if (changes.template !== undefined) setServerErrors(({ template: _, ...rest }) => rest);
  };

  const save = async () => {
    setSaving(true);
    setOtherProblems([]);
    try {
      const updated = await updateComponent(workspaceId, designSystem.id, saved.id, changesOf(draft));
      setServerErrors({});
      queryClient.setQueryData(componentKeys.one(workspaceId, designSystem.id, saved.id), updated);
      await queryClient.invalidateQueries({
        queryKey: componentKeys.all(workspaceId, designSystem.id),
        exact: true,
      });
      notifications.show({ message: `${updated.label} saved` });
    } catch (error) {
      if (error instanceof ApiError && error.status === 422 && Object.keys(error.fieldErrors).length > 0) {
        setServerErrors(error.fieldErrors);
        setSavedFieldProblems(fieldProblemsFrom(error.fieldErrors));
        setOtherProblems(
          Object.entries(error.fieldErrors)
            .filter(([path]) => path !== 'template' && !path.startsWith('field_definitions.'))
            .map(([path, messages]) => `${path} ${messages.join('; ')}`),
        );
      } else {
        setOtherProblems([errorMessage(error)]);
      }
    } finally {
      setSaving(false);
    }
  };

  const remove = async () => {
    const confirmed = await confirmDestructive({
      title: `Delete ${saved.label}?`,
      message:
        'Emails that use it can no longer render it. Deprecating it instead keeps existing emails intact.',
      confirmLabel: 'Delete component',
    });
    if (!confirmed) return;
    try {
      await deleteComponent.mutateAsync(saved.id);
      setDraft(draftOf(saved));
      navigate({
        to: '/workspaces/$workspaceId/design-systems/$designSystemId',
        params: { workspaceId: String(workspaceId), designSystemId: String(designSystem.id) },
        ignoreBlocker: true,
      });
    } catch (error) {
      notifications.show({
        color: 'red',
        title: 'The component was not deleted',
        message: errorMessage(error),
      });
    }
  };

  const loadVersion = (version: ComponentVersion) =>
    update({
      label: version.component_data.label,
      template: version.component_data.template,
      fields: toDraftFields(version.component_data.field_definitions as FieldDefinition[]),
    });

  const templateMessages = serverErrors.template ?? [];

  return (
    <Stack gap="md">
      <PageHeader
        title={
          <Group gap="sm" component="span">
            {draft.label || saved.name}
            {saved.container && <Badge variant="light">Container</Badge>}
            {dirty && (
              <Badge color="orange" variant="light" data-testid="unsaved-changes">
                Unsaved changes
              </Badge>
            )}
          </Group>
        }
        breadcrumbs={[
          { label: 'Design systems', to: `/workspaces/${workspaceId}/design-systems` },
          { label: designSystem.name, to: `/workspaces/${workspaceId}/design-systems/${designSystem.id}` },
          { label: saved.label },
        ]}
        actions={
          <>
            <Button variant="default" onClick={history.open}>
              Version history
            </Button>
            {editable && !saved.container && (
              <Button variant="subtle" color="red" onClick={remove}>
                Delete
              </Button>
            )}
            {editable && (
              <Button onClick={save} loading={saving} disabled={!dirty}>
                Save
              </Button>
            )}
          </>
        }
      />
      {!editable && (
        <Alert color="gray">
          {designSystem.shared
            ? 'This design system is shared from another workspace; change it from there.'
            : 'Your role can look at components but not change them.'}
        </Alert>
      )}
      {otherProblems.length > 0 && (
        <Alert color="red" role="alert" title="Not saved">
          {otherProblems.join('. ')}
        </Alert>
      )}
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, lg: 7 }}>
          <Stack gap="md">
            <Group grow align="flex-start">
              <TextInput
                label="Label"
                value={draft.label}
                readOnly={!editable}
                onChange={(event) => update({ label: event.currentTarget.value })}
                error={serverErrors.label?.join('; ')}
              />
              <TextInput
                label="Name"
                value={saved.name}
                readOnly
                description="Stable identifier, used by emails"
              />
            </Group>
            <Textarea
              label="Description"
              description="What the component is for, shown to the people who build emails"
              autosize
              minRows={1}
              value={draft.description}
              readOnly={!editable}
              onChange={(event) => update({ description: event.currentTarget.value })}
              error={serverErrors.description?.join('; ')}
            />
            {!saved.container && (
              <Select
                label="Feed"
                description="Emails can fill this component's fields from a run of the feed: name a feed field on each field that takes one"
                placeholder={feeds.isPending ? 'Loading feeds…' : 'No feed'}
                clearable
                data={feedOptions}
                value={draft.feedId === null ? null : String(draft.feedId)}
                readOnly={!editable}
                onChange={(feedId) => update({ feedId: feedId === null ? null : Number(feedId) })}
                error={
                  serverErrors.feed_id?.join('; ') ??
                  (feeds.isError ? 'The feeds could not be loaded' : undefined)
                }
              />
            )}
            {!saved.container && (
              <Switch
                label="Deprecated (existing emails still render it; it is not offered for new content)"
                checked={draft.deprecated}
                disabled={!editable}
                onChange={(event) => update({ deprecated: event.currentTarget.checked })}
              />
            )}
            <Stack gap={4}>
              <Text fw={500} id="template-label">
                Template (Liquid and HTML)
              </Text>
              <Text size="xs" c="dimmed">
                Read fields by their Liquid variable ({'{{ headline }}'}), design tokens as{' '}
                {'{{ render_context.design_tokens.… }}'}
                {saved.container ? '; the container must print {{children}}' : ''}.
              </Text>
              <TemplateEditor
                label="Template"
                value={draft.template}
                onChange={(template) => update({ template })}
                container={saved.container}
                serverProblems={serverTemplateProblems}
                readOnly={!editable}
              />
              {templateMessages.length > 0 && (
                <Alert color="red" role="alert" p="xs" data-testid="template-errors">
                  {templateMessages.join(' ')}
                </Alert>
              )}
            </Stack>
            <ComponentPreview
              designSystem={previewSystem}
              component={previewComponent}
              container={previewContainer}
            />
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 5 }}>
          <FieldDefinitionsPanel
            fields={draft.fields}
            onChange={(fields) => update({ fields })}
            problems={fieldProblems}
            savedProblems={savedFieldProblems}
            customStyles={designSystem.custom_styles}
            feedFields={
              chosenFeed ? chosenFeed.fields.map((field) => field.key) : draft.feedId === null ? null : []
            }
            readOnly={!editable}
          />
        </Grid.Col>
      </Grid>
      <ComponentVersionsDrawer
        workspaceId={workspaceId}
        designSystemId={designSystem.id}
        componentId={saved.id}
        opened={historyOpen}
        onClose={history.close}
        onLoad={editable ? loadVersion : undefined}
      />
      <Modal
        opened={blocker.status === 'blocked'}
        onClose={() => blocker.reset?.()}
        title="Leave without saving?"
      >
        <Text size="sm" mb="md">
          Your changes to {draft.label || saved.name} are not saved and will be lost.
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => blocker.reset?.()}>
            Stay
          </Button>
          <Button color="red" onClick={() => blocker.proceed?.()}>
            Leave
          </Button>
        </Group>
      </Modal>
    </Stack>
  );
}
