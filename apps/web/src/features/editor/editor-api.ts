import type { components, paths } from '@letterset/api-client';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../app/api.ts';
import { unwrap } from '../../shared/api-error.ts';
import { everyComponent } from '../component-builder/component-builder-api.ts';
import type { Layout } from '../layouts/layout-content.ts';

export type Email = components['schemas']['Email'];
export type EmailVersion = components['schemas']['EmailVersion'];
export type EmailHistoryEntry = components['schemas']['EmailHistoryEntry'];
export type Conditional = components['schemas']['Conditional'];
export type PersonalizationTag = components['schemas']['PersonalizationTag'];
export type LinkTrackingProfile = components['schemas']['LinkTrackingProfile'];
export type EmailChanges =
  paths['/api/v1/workspaces/{workspace_id}/emails/{id}']['patch']['requestBody']['content']['application/json'];
export type LayoutChanges =
  paths['/api/v1/workspaces/{workspace_id}/layouts/{id}']['patch']['requestBody']['content']['application/json'];

export function emailQuery(workspaceId: number, emailId: number) {
  return queryOptions({
    queryKey: ['workspaces', workspaceId, 'emails', emailId],
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/workspaces/{workspace_id}/emails/{id}', {
          params: { path: { workspace_id: workspaceId, id: emailId } },
        }),
      ),
    // The editor owns the email once open; a background refetch would not be shown anyway.
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
  });
}

/** The design system, its components and the email's brand profile: what the preview renders with. */
export function designSystemQuery(workspaceId: number, designSystemId: number) {
  return queryOptions({
    queryKey: ['workspaces', workspaceId, 'email-design-systems', designSystemId, 'for-editor'],
    queryFn: async () => {
      const [system, components] = await Promise.all([
        unwrap(
          api.GET('/api/v1/workspaces/{workspace_id}/email_design_systems/{id}', {
            params: { path: { workspace_id: workspaceId, id: designSystemId } },
          }),
        ),
        // Every component, however many pages: the editor must know each one the email may hold.
        everyComponent(workspaceId, designSystemId),
      ]);
      return { system, components };
    },
    staleTime: 60_000,
  });
}

export function conditionalsQuery(workspaceId: number) {
  return queryOptions({
    queryKey: ['workspaces', workspaceId, 'conditionals', 'all'],
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/workspaces/{workspace_id}/conditionals', {
          params: { path: { workspace_id: workspaceId }, query: { per: 100 } },
        }),
      ),
    staleTime: 60_000,
  });
}

export function personalizationTagsQuery(workspaceId: number) {
  return queryOptions({
    queryKey: ['workspaces', workspaceId, 'personalization-tags', 'all'],
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/workspaces/{workspace_id}/personalization_tags', {
          params: { path: { workspace_id: workspaceId }, query: { per: 100 } },
        }),
      ),
    staleTime: 60_000,
  });
}

export function linkTrackingProfilesQuery(workspaceId: number) {
  return queryOptions({
    queryKey: ['workspaces', workspaceId, 'link-tracking-profiles', 'all'],
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/workspaces/{workspace_id}/link_tracking_profiles', {
          params: { path: { workspace_id: workspaceId }, query: { per: 100 } },
        }),
      ),
    staleTime: 60_000,
  });
}

/**
 * The email's history as editing sessions, newest first. `savedVersion` (the email's lock_version)
 * is part of the key so that the history refetches after each save while it is open.
 */
export function historyQuery(workspaceId: number, emailId: number, page: number, savedVersion: number) {
  return queryOptions({
    queryKey: ['workspaces', workspaceId, 'emails', emailId, 'history', page, savedVersion],
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/workspaces/{workspace_id}/emails/{id}/history', {
          params: { path: { workspace_id: workspaceId, id: emailId }, query: { page, per: 10 } },
        }),
      ),
  });
}

/** Emails whose editor, reopened after a restore, shows the History panel again. */
const reopenAfterRestore = new Set<number>();

export function reopenOnHistory(emailId: number): void {
  reopenAfterRestore.add(emailId);
}

/** Whether the editor opening on this email should show the History panel (once, after a restore). */
export function takeReopenOnHistory(emailId: number): boolean {
  return reopenAfterRestore.delete(emailId);
}

/** Names a version ("Sent to legal"); null clears its name. */
export function nameVersion(
  workspaceId: number,
  emailId: number,
  versionId: string,
  name: string | null,
): Promise<EmailVersion> {
  return unwrap(
    api.PATCH('/api/v1/workspaces/{workspace_id}/emails/{id}/versions/{version_id}', {
      params: { path: { workspace_id: workspaceId, id: emailId, version_id: versionId } },
      body: { name },
    }),
  );
}

/** validate_email_content of the saved email: every locale and branch against its components' rules. */
export function validateSavedEmail(workspaceId: number, emailId: number) {
  return unwrap(
    api.GET('/api/v1/workspaces/{workspace_id}/emails/{id}/validate_email_content', {
      params: { path: { workspace_id: workspaceId, id: emailId } },
    }),
  );
}

/** One PATCH of the email (content, settings), with the lock_version it was read at. */
export function patchEmail(workspaceId: number, emailId: number, body: EmailChanges): Promise<Email> {
  return unwrap(
    api.PATCH('/api/v1/workspaces/{workspace_id}/emails/{id}', {
      params: { path: { workspace_id: workspaceId, id: emailId } },
      body,
    }),
  );
}

/** One PATCH of the layout (content, settings), with the lock_version it was read at. */
export function patchLayout(workspaceId: number, layoutId: number, body: LayoutChanges): Promise<Layout> {
  return unwrap(
    api.PATCH('/api/v1/workspaces/{workspace_id}/layouts/{id}', {
      params: { path: { workspace_id: workspaceId, id: layoutId } },
      body,
    }),
  );
}

/** A published email back to draft, so it can be edited again. */
export function convertToDraft(workspaceId: number, emailId: number): Promise<Email> {
  return unwrap(
    api.POST('/api/v1/workspaces/{workspace_id}/emails/{id}/convert_to_draft', {
      params: { path: { workspace_id: workspaceId, id: emailId } },
    }),
  );
}

/** Saves an earlier version as the email's newest one. */
export function restoreVersion(workspaceId: number, emailId: number, versionId: string): Promise<Email> {
  return unwrap(
    api.POST('/api/v1/workspaces/{workspace_id}/emails/{id}/versions/{version_id}/restore', {
      params: { path: { workspace_id: workspaceId, id: emailId, version_id: versionId } },
    }),
  );
}

/** The feed a component fills from: its name and the parameters a run takes. */
export function feedQuery(workspaceId: number, feedId: number) {
  return queryOptions({
    queryKey: ['workspaces', workspaceId, 'dynamic-content', 'feeds', 'one', feedId],
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/workspaces/{workspace_id}/feeds/{id}', {
          params: { path: { workspace_id: workspaceId, id: feedId } },
        }),
      ),
  });
}

/** Runs a feed with the parameters given: what it extracted, or why it could not. */
export function runFeed(workspaceId: number, feedId: number, parameters: Record<string, string>) {
  return unwrap(
    api.POST('/api/v1/workspaces/{workspace_id}/feeds/{id}/run', {
      params: { path: { workspace_id: workspaceId, id: feedId } },
      body: { parameters },
    }),
  );
}
