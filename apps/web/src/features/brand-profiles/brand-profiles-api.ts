import { queryOptions } from '@tanstack/react-query';
import { api } from '../../app/api.ts';
import { unwrap } from '../../shared/api-error.ts';

/** A design system's brand profiles (at most 100: the pickers show them all), kept for a minute. */
export function brandProfilesQuery(workspaceId: number, designSystemId: number) {
  return queryOptions({
    queryKey: ['workspaces', workspaceId, 'email-design-systems', designSystemId, 'brand-profiles'],
    queryFn: () =>
      unwrap(
        api.GET(
          '/api/v1/workspaces/{workspace_id}/email_design_systems/{email_design_system_id}/brand_profiles',
          {
            params: {
              path: { workspace_id: workspaceId, email_design_system_id: designSystemId },
              query: { per: 100 },
            },
          },
        ),
      ),
    staleTime: 60_000,
  });
}
