import type { components } from '@letterset/api-client';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../app/api.ts';
import { allResults } from '../../shared/all-results.ts';
import { unwrap } from '../../shared/api-error.ts';

export type DynamicContentProfile = components['schemas']['DynamicContentProfile'];
export type Conditional = components['schemas']['Conditional'];
export type PersonalizationTag = components['schemas']['PersonalizationTag'];
export type LinkTrackingProfile = components['schemas']['LinkTrackingProfile'];
export type Feed = components['schemas']['Feed'];
export type FeedRunResult = components['schemas']['FeedRunResult'];

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

export const presetLabels = {
  liquid: 'Liquid (Braze style)',
  handlebars: 'Handlebars (Iterable)',
  ampscript: 'AMPscript (Salesforce Marketing Cloud)',
} as const;
