import type { components } from '@letterset/api-client';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../app/api.ts';
import { allResults } from '../../shared/all-results.ts';
import { unwrap } from '../../shared/api-error.ts';
import type { RequestBody } from '../../shared/request-body.ts';

export type DynamicContentProfile = components['schemas']['DynamicContentProfile'];
export type Conditional = components['schemas']['Conditional'];
export type PersonalizationTag = components['schemas']['PersonalizationTag'];
export type LinkTrackingProfile = components['schemas']['LinkTrackingProfile'];
export type Feed = components['schemas']['Feed'];
export type FeedRunResult = components['schemas']['FeedRunResult'];

export type DynamicContentProfileFields = RequestBody<
  '/api/v1/workspaces/{workspace_id}/dynamic_content_profiles',
  'post'
>;
export type ConditionalFields = RequestBody<'/api/v1/workspaces/{workspace_id}/conditionals', 'post'>;
export type PersonalizationTagFields = RequestBody<
  '/api/v1/workspaces/{workspace_id}/personalization_tags',
  'post'
>;
export type LinkTrackingProfileFields = RequestBody<
  '/api/v1/workspaces/{workspace_id}/link_tracking_profiles',
  'post'
>;
export type FeedFields = RequestBody<'/api/v1/workspaces/{workspace_id}/feeds', 'post'>;

const perPage = 20;

export const dynamicContentKeys = {
  kind: (workspaceId: number, kind: string) => ['workspaces', workspaceId, 'dynamic-content', kind] as const,
};

const list = <T>(workspaceId: number, kind: string, page: number, fetch: () => Promise<T>) =>
  queryOptions({
    queryKey: [...dynamicContentKeys.kind(workspaceId, kind), 'list', page],
    queryFn: fetch,
    placeholderData: keepPreviousData,
  });

const at = (workspaceId: number, page: number) => ({
  params: { path: { workspace_id: workspaceId }, query: { page, per: perPage } },
});

export const profileListQuery = (workspaceId: number, page: number) =>
  list(workspaceId, 'profiles', page, () =>
    unwrap(api.GET('/api/v1/workspaces/{workspace_id}/dynamic_content_profiles', at(workspaceId, page))),
  );

/** Every profile, for the per-profile inputs of conditionals and tags (100 is the API's page limit). */
export const allProfilesQuery = (workspaceId: number) =>
  queryOptions({
    queryKey: [...dynamicContentKeys.kind(workspaceId, 'profiles'), 'all'],
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/workspaces/{workspace_id}/dynamic_content_profiles', {
          params: { path: { workspace_id: workspaceId }, query: { page: 1, per: 100 } },
        }),
      ),
  });

export const conditionalListQuery = (workspaceId: number, page: number) =>
  list(workspaceId, 'conditionals', page, () =>
    unwrap(api.GET('/api/v1/workspaces/{workspace_id}/conditionals', at(workspaceId, page))),
  );

export const tagListQuery = (workspaceId: number, page: number) =>
  list(workspaceId, 'tags', page, () =>
    unwrap(api.GET('/api/v1/workspaces/{workspace_id}/personalization_tags', at(workspaceId, page))),
  );

export const linkTrackingListQuery = (workspaceId: number, page: number) =>
  list(workspaceId, 'link-tracking', page, () =>
    unwrap(api.GET('/api/v1/workspaces/{workspace_id}/link_tracking_profiles', at(workspaceId, page))),
  );

export const feedListQuery = (workspaceId: number, page: number) =>
  list(workspaceId, 'feeds', page, () =>
    unwrap(api.GET('/api/v1/workspaces/{workspace_id}/feeds', at(workspaceId, page))),
  );

/** Every feed of the workspace, for the component builder's feed choice. */
export const allFeedsQuery = (workspaceId: number) =>
  queryOptions({
    queryKey: [...dynamicContentKeys.kind(workspaceId, 'feeds'), 'all'],
    queryFn: () =>
      allResults((page) =>
        unwrap(
          api.GET('/api/v1/workspaces/{workspace_id}/feeds', {
            params: { path: { workspace_id: workspaceId }, query: page },
          }),
        ),
      ),
  });

export function saveProfile(
  workspaceId: number,
  profile: DynamicContentProfile | null,
  fields: DynamicContentProfileFields,
) {
  return unwrap(
    profile
      ? api.PATCH('/api/v1/workspaces/{workspace_id}/dynamic_content_profiles/{id}', {
          params: { path: { workspace_id: workspaceId, id: profile.id } },
          body: fields,
        })
      : api.POST('/api/v1/workspaces/{workspace_id}/dynamic_content_profiles', {
          params: { path: { workspace_id: workspaceId } },
          body: fields,
        }),
  );
}

export function deleteProfile(workspaceId: number, id: string) {
  return unwrap(
    api.DELETE('/api/v1/workspaces/{workspace_id}/dynamic_content_profiles/{id}', {
      params: { path: { workspace_id: workspaceId, id } },
    }),
  );
}

export function saveConditional(
  workspaceId: number,
  conditional: Conditional | null,
  fields: ConditionalFields,
) {
  return unwrap(
    conditional
      ? api.PATCH('/api/v1/workspaces/{workspace_id}/conditionals/{id}', {
          params: { path: { workspace_id: workspaceId, id: conditional.id } },
          body: fields,
        })
      : api.POST('/api/v1/workspaces/{workspace_id}/conditionals', {
          params: { path: { workspace_id: workspaceId } },
          body: fields,
        }),
  );
}

export function deleteConditional(workspaceId: number, id: number) {
  return unwrap(
    api.DELETE('/api/v1/workspaces/{workspace_id}/conditionals/{id}', {
      params: { path: { workspace_id: workspaceId, id } },
    }),
  );
}

export function saveTag(
  workspaceId: number,
  tag: PersonalizationTag | null,
  fields: PersonalizationTagFields,
) {
  return unwrap(
    tag
      ? api.PATCH('/api/v1/workspaces/{workspace_id}/personalization_tags/{id}', {
          params: { path: { workspace_id: workspaceId, id: tag.id } },
          body: fields,
        })
      : api.POST('/api/v1/workspaces/{workspace_id}/personalization_tags', {
          params: { path: { workspace_id: workspaceId } },
          body: fields,
        }),
  );
}

export function deleteTag(workspaceId: number, id: number) {
  return unwrap(
    api.DELETE('/api/v1/workspaces/{workspace_id}/personalization_tags/{id}', {
      params: { path: { workspace_id: workspaceId, id } },
    }),
  );
}

export function saveLinkTrackingProfile(
  workspaceId: number,
  profile: LinkTrackingProfile | null,
  fields: LinkTrackingProfileFields,
) {
  return unwrap(
    profile
      ? api.PATCH('/api/v1/workspaces/{workspace_id}/link_tracking_profiles/{id}', {
          params: { path: { workspace_id: workspaceId, id: profile.id } },
          body: fields,
        })
      : api.POST('/api/v1/workspaces/{workspace_id}/link_tracking_profiles', {
          params: { path: { workspace_id: workspaceId } },
          body: fields,
        }),
  );
}

export function deleteLinkTrackingProfile(workspaceId: number, id: number) {
  return unwrap(
    api.DELETE('/api/v1/workspaces/{workspace_id}/link_tracking_profiles/{id}', {
      params: { path: { workspace_id: workspaceId, id } },
    }),
  );
}

export function saveFeed(workspaceId: number, feed: Feed | null, fields: FeedFields) {
  return unwrap(
    feed
      ? api.PATCH('/api/v1/workspaces/{workspace_id}/feeds/{id}', {
          params: { path: { workspace_id: workspaceId, id: feed.id } },
          body: fields,
        })
      : api.POST('/api/v1/workspaces/{workspace_id}/feeds', {
          params: { path: { workspace_id: workspaceId } },
          body: fields,
        }),
  );
}

export function deleteFeed(workspaceId: number, id: number) {
  return unwrap(
    api.DELETE('/api/v1/workspaces/{workspace_id}/feeds/{id}', {
      params: { path: { workspace_id: workspaceId, id } },
    }),
  );
}

/** Runs a saved feed with the parameters an editor user would type, to see what it extracts. */
export function runFeed(workspaceId: number, id: number, parameters: Record<string, string>) {
  return unwrap(
    api.POST('/api/v1/workspaces/{workspace_id}/feeds/{id}/run', {
      params: { path: { workspace_id: workspaceId, id } },
      body: { parameters },
    }),
  );
}

export const presetLabels = {
  liquid: 'Liquid (Braze style)',
  handlebars: 'Handlebars (Iterable)',
  ampscript: 'AMPscript (Salesforce Marketing Cloud)',
} as const;
