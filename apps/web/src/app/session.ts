import type { components } from '@letterset/api-client';
import { type QueryClient, queryOptions, useSuspenseQuery } from '@tanstack/react-query';
import { ApiError, unwrap } from '../shared/api-error.ts';
import { api } from './api.ts';

export type Me = components['schemas']['Me'];
export type Permission = Me['permissions'][number];

/** Who is signed in, or null when nobody is. */
export const meQuery = queryOptions({
  queryKey: ['me'],
  queryFn: async (): Promise<Me | null> => {
    try {
      return await unwrap(api.GET('/api/v1/me'));
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return null;
      throw error;
    }
  },
  staleTime: 60_000,
});

/** Whether this server still needs its first organization. */
export const setupStatusQuery = queryOptions({
  queryKey: ['setup'],
  queryFn: () => unwrap(api.GET('/api/v1/setup')),
  staleTime: Number.POSITIVE_INFINITY,
});

/** The signed-in user. Only for screens under the signed-in layout, which guarantees one. */
export function useMe(): Me {
  const { data } = useSuspenseQuery(meQuery);
  if (!data) throw new Error('useMe() is used outside the signed-in layout');
  return data;
}

/** Whether the signed-in user's role grants a permission key. */
export function useCan(): (permission: Permission) => boolean {
  const me = useMe();
  return (permission) => me.permissions.includes(permission);
}

/** For route guards: who is signed in, from the cache when known. */
export function loadMe(queryClient: QueryClient): Promise<Me | null> {
  return queryClient.ensureQueryData(meQuery);
}

/** For route guards: whether the server still needs its first organization. */
export async function loadSetupRequired(queryClient: QueryClient): Promise<boolean> {
  const status = await queryClient.ensureQueryData(setupStatusQuery);
  return status.setup_required;
}
