import { queryOptions } from '@tanstack/react-query';
import { api } from '../../app/api.ts';
import { unwrap } from '../../shared/api-error.ts';

/** One layout, for the layout editor. */
export function layoutQuery(workspaceId: number, layoutId: number) {
  return queryOptions({
    queryKey: ['workspaces', workspaceId, 'layouts', layoutId],
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/workspaces/{workspace_id}/layouts/{id}', {
          params: { path: { workspace_id: workspaceId, id: layoutId } },
        }),
      ),
    // The editor owns the layout once open; a background refetch would not be shown anyway.
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
  });
}
