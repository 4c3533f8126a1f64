import '@mantine/tiptap/styles.css';
import type { BrandProfileDefinition, ComponentDefinition, DesignSystemDefinition } from '@letterset/core';
import { Skeleton, Stack } from '@mantine/core';
import { type UseQueryResult, useQuery, useQueryClient } from '@tanstack/react-query';
import { useParams } from '@tanstack/react-router';
import { useMemo, useState } from 'react';
import { QueryState } from '../../shared/QueryState.tsx';
import { useWorkspaceId } from '../shell/workspace.ts';
import { type EditorResources, EmailEditor } from './EmailEditor.tsx';
import {
  brandProfilesQuery,
  conditionalsQuery,
  designSystemQuery,
  type Email,
  emailQuery,
  linkTrackingProfilesQuery,
  personalizationTagsQuery,
} from './editor-data.ts';

/** Loads the email and what its preview needs, then opens the editor. */
export function EditorPage() {
  const workspaceId = useWorkspaceId();
  const { emailId: emailParam } = useParams({ from: '/_app/workspaces/$workspaceId/emails/$emailId/edit' });
  const emailId = Number(emailParam);
  const queryClient = useQueryClient();
  const email = useQuery(emailQuery(workspaceId, emailId));
  const designSystemId = email.data?.email_design_system_id ?? 0;
  const enabled = email.data !== undefined;
  const designSystem = useQuery({ ...designSystemQuery(workspaceId, designSystemId), enabled });
  const brandProfiles = useQuery({ ...brandProfilesQuery(workspaceId, designSystemId), enabled });
  const conditionals = useQuery(conditionalsQuery(workspaceId));
  const tags = useQuery(personalizationTagsQuery(workspaceId));
  const trackingProfiles = useQuery(linkTrackingProfilesQuery(workspaceId));
  // Each replacement (theirs after a conflict, a restored version) starts a fresh editor and history.
  const [generation, setGeneration] = useState(0);

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

  const failed = [email, designSystem, brandProfiles, conditionals, tags, trackingProfiles].find(
    (query) => query.isError,
  );
  if (failed) return <QueryState query={failed as UseQueryResult<unknown>}>{() => null}</QueryState>;
  if (!email.data || !resources) {
    return (
      <Stack aria-busy="true" aria-label="Loading the editor">
        <Skeleton height={36} />
        <Skeleton height={480} />
      </Stack>
    );
  }
  function replaceEmail(next: Email) {
    queryClient.setQueryData(emailQuery(workspaceId, emailId).queryKey, next);
    setGeneration((current) => current + 1);
  }
  return (
    <EmailEditor
      key={generation}
      workspaceId={workspaceId}
      email={email.data}
      resources={resources}
      onReplaceEmail={replaceEmail}
    />
  );
}
