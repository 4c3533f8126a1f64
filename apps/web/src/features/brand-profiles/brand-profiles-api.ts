import type { paths } from '@letterset/api-client';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../app/api.ts';
import { unwrap } from '../../shared/api-error.ts';
import type { BrandProfile } from './brand-overrides.ts';

export type BrandProfileFields =
  paths['/api/v1/workspaces/{workspace_id}/email_design_systems/{email_design_system_id}/brand_profiles']['post']['requestBody']['content']['application/json'];

function listBrandProfiles(
  workspaceId: number,
  designSystemId: number,
  query: { page?: number; per: number },
) {
  return unwrap(
    api.GET(
      '/api/v1/workspaces/{workspace_id}/email_design_systems/{email_design_system_id}/brand_profiles',
      {
        params: { path: { workspace_id: workspaceId, email_design_system_id: designSystemId }, query },
      },
    ),
  );
}

/**
 * Every cached list of a design system's brand profiles (its tab's pages and the pickers' whole
 * list); under the design system's key, so refreshing the system refreshes them too.
 */
export const brandProfileListKey = (workspaceId: number, designSystemId: number) =>
  ['workspaces', workspaceId, 'design-systems', designSystemId, 'brand-profiles'] as const;

/** One page of a design system's brand profiles, for its Brand profiles tab. */
export function brandProfilePageQuery(workspaceId: number, designSystemId: number, page: number) {
  return queryOptions({
    queryKey: [...brandProfileListKey(workspaceId, designSystemId), page],
    queryFn: () => listBrandProfiles(workspaceId, designSystemId, { page, per: 20 }),
    placeholderData: keepPreviousData,
  });
}

/** A design system's brand profiles (at most 100: the pickers show them all), kept for a minute. */
export function brandProfilesQuery(workspaceId: number, designSystemId: number) {
  return queryOptions({
    queryKey: [...brandProfileListKey(workspaceId, designSystemId), 'all'],
    queryFn: () => listBrandProfiles(workspaceId, designSystemId, { per: 100 }),
    staleTime: 60_000,
  });
}

/** Creates a brand profile, or changes `existing`. */
export function saveBrandProfile(
  workspaceId: number,
  designSystemId: number,
  existing: BrandProfile | null,
  fields: BrandProfileFields,
) {
  return unwrap(
    existing
      ? api.PATCH(
          '/api/v1/workspaces/{workspace_id}/email_design_systems/{email_design_system_id}/brand_profiles/{id}',
          {
            params: {
              path: { workspace_id: workspaceId, email_design_system_id: designSystemId, id: existing.id },
            },
            body: fields,
          },
        )
      : api.POST(
          '/api/v1/workspaces/{workspace_id}/email_design_systems/{email_design_system_id}/brand_profiles',
          {
            params: { path: { workspace_id: workspaceId, email_design_system_id: designSystemId } },
            body: fields,
          },
        ),
  );
}

/** Saving a brand profile (see `saveBrandProfile`), then refreshing the design system's lists. */
export function useSaveBrandProfile(workspaceId: number, designSystemId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ existing, fields }: { existing: BrandProfile | null; fields: BrandProfileFields }) =>
      saveBrandProfile(workspaceId, designSystemId, existing, fields),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: brandProfileListKey(workspaceId, designSystemId) }),
  });
}

export function deleteBrandProfile(workspaceId: number, designSystemId: number, id: number) {
  return unwrap(
    api.DELETE(
      '/api/v1/workspaces/{workspace_id}/email_design_systems/{email_design_system_id}/brand_profiles/{id}',
      { params: { path: { workspace_id: workspaceId, email_design_system_id: designSystemId, id } } },
    ),
  );
}
