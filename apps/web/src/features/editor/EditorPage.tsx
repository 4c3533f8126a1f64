import '@mantine/tiptap/styles.css';
import type { BrandProfileDefinition, ComponentDefinition, DesignSystemDefinition } from '@letterset/core';
import { Skeleton, Stack } from '@mantine/core';
import { type QueryKey, type UseQueryResult, useQuery, useQueryClient } from '@tanstack/react-query';
import { useParams } from '@tanstack/react-router';
import { useMemo, useState } from 'react';
import { QueryState } from '../../shared/QueryState.tsx';
import { GeneratingEmail, GenerationProblems } from '../ai-generation/GeneratingEmail.tsx';
import { brandProfilesQuery } from '../brand-profiles/brand-profiles-api.ts';
import { layoutQuery } from '../layouts/layouts-api.ts';
import { useWorkspaceId } from '../shell/workspace.ts';
import { DocumentEditor, type EditorResources } from './DocumentEditor.tsx';
import type { EditTarget } from './edit-target.ts';
import {
  conditionalsQuery,
  designSystemQuery,
  emailQuery,
  linkTrackingProfilesQuery,
  personalizationTagsQuery,
} from './editor-api.ts';

/** The email editor's page: loads the email and what its preview needs, then opens the editor. */
export function EditorPage() {
  const workspaceId = useWorkspaceId();
  const { emailId } = useParams({ from: '/_app/workspaces/$workspaceId/emails/$emailId/edit' });
  const options = emailQuery(workspaceId, Number(emailId));
  const query = useQuery(options);
  const [problemsDismissed, setProblemsDismissed] = useState(false);
  const target: EditTarget | undefined = query.data && { kind: 'email', email: query.data };
  if (query.data?.ai_generation_status === 'generating')
    return <GeneratingEmail workspaceId={workspaceId} email={query.data} />;
  return (
    <>
      {query.data && !problemsDismissed && (
        <GenerationProblems email={query.data} onDismiss={() => setProblemsDismissed(true)} />
      )}
      <EditorLoader workspaceId={workspaceId} query={query} target={target} cacheKey={options.queryKey} />
    </>
  );
}

/** The layout editor's page: the same editor, opened on a layout. */
export function LayoutEditorPage() {
  const workspaceId = useWorkspaceId();
  const { layoutId } = useParams({ from: '/_app/workspaces/$workspaceId/layouts/$layoutId/edit' });
  const options = layoutQuery(workspaceId, Number(layoutId));
  const query = useQuery(options);
  const target: EditTarget | undefined = query.data && { kind: 'layout', layout: query.data };
  return <EditorLoader workspaceId={workspaceId} query={query} target={target} cacheKey={options.queryKey} />;
}

function EditorLoader({
  workspaceId,
  query,
  target,
  cacheKey,
}: {
  workspaceId: number;
  query: UseQueryResult<unknown>;
  target: EditTarget | undefined;
  /** Where the opened email or layout is cached: saves and replacements are written back there. */
  cacheKey: QueryKey;
}) {
  const queryClient = useQueryClient();
  const designSystemId =
    target?.kind === 'email'
      ? target.email.email_design_system_id
      : (target?.layout.email_design_system_id ?? 0);
  const enabled = target !== undefined;
  const designSystem = useQuery({ ...designSystemQuery(workspaceId, designSystemId), enabled });
  const brandProfiles = useQuery({ ...brandProfilesQuery(workspaceId, designSystemId), enabled });
  const conditionals = useQuery(conditionalsQuery(workspaceId));
  const tags = useQuery(personalizationTagsQuery(workspaceId));
  const trackingProfiles = useQuery(linkTrackingProfilesQuery(workspaceId));
  // Each replacement (theirs after a conflict, a restored version) starts a fresh editor and history.
  // It is kept here: the page's query passes its new data down only when the page itself re-renders.
  const [replacement, setReplacement] = useState<{ target: EditTarget; generation: number } | null>(null);

  const resources = useMemo((): EditorResources | null => {
    if (
      !designSystem.data ||
      !brandProfiles.data ||
      !conditionals.data ||
      !tags.data ||
      !trackingProfiles.data
    ) {
      return null;
    }
    return {
      designSystem: designSystem.data.system as DesignSystemDefinition,
      components: designSystem.data.components as ComponentDefinition[],
      brandProfiles: brandProfiles.data.results as BrandProfileDefinition[],
      conditionals: conditionals.data.results,
      personalizationTags: tags.data.results,
      linkTrackingProfiles: trackingProfiles.data.results,
    };
  }, [designSystem.data, brandProfiles.data, conditionals.data, tags.data, trackingProfiles.data]);

  const failed = [query, designSystem, brandProfiles, conditionals, tags, trackingProfiles].find(
    (candidate) => candidate.isError,
  );
  if (failed) return <QueryState query={failed as UseQueryResult<unknown>}>{() => null}</QueryState>;
  const opened = replacement?.target ?? target;
  if (!opened || !resources) {
    return (
      <Stack aria-busy="true" aria-label="Loading the editor">
        <Skeleton height={36} />
        <Skeleton height={480} />
      </Stack>
    );
  }
  const remember = (saved: EditTarget) =>
    queryClient.setQueryData(cacheKey, saved.kind === 'email' ? saved.email : saved.layout);
  return (
    <DocumentEditor
      key={replacement?.generation ?? 0}
      workspaceId={workspaceId}
      target={opened}
      resources={resources}
      onSaved={remember}
      onReplace={(next) => {
        remember(next);
        setReplacement((current) => ({ target: next, generation: (current?.generation ?? 0) + 1 }));
      }}
    />
  );
}
