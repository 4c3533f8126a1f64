import { queryOptions } from '@tanstack/react-query';
import { api } from '../../app/api.ts';
import { unwrap } from '../../shared/api-error.ts';

/**
 * The workspace's first project and, in its pagination, how many there are: the start list ticks
 * off its project step from the total and offers the only project for the first email. The key
 * sits under the projects' own, so creating a project refreshes it.
 */
export const firstProjectQuery = (workspaceId: number) =>
  queryOptions({
    queryKey: ['workspaces', workspaceId, 'projects', 'start-list'],
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/workspaces/{workspace_id}/projects', {
          params: { path: { workspace_id: workspaceId }, query: { per: 1 } },
        }),
      ),
  });
