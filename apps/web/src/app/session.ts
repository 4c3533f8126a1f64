import type { components, operations } from '@letterset/api-client';
import {
  type QueryClient,
  queryOptions,
  useMutation,
  useQueryClient,
  useSuspenseQuery,
} from '@tanstack/react-query';
import { ApiError, unwrap } from '../shared/api-error.ts';
import type { RequestBody } from '../shared/request-body.ts';
import { api } from './api.ts';

export type Me = components['schemas']['Me'];
export type Permission = Me['permissions'][number];
export type SignInCredentials = operations['createSession']['requestBody']['content']['application/json'];
export type OrganizationSetup = RequestBody<'/api/v1/setup', 'post'>;

/** How a sign-in attempt ended, in the cases the sign-in form answers differently. */
export type SignInOutcome =
  | { kind: 'signed_in'; me: Me }
  /** The account has two-factor authentication on and the code is missing or wrong. */
  | { kind: 'two_factor_required'; message: string }
  /** Too many failed sign-ins from this address; `retryAfter` is the Retry-After header. */
  | { kind: 'throttled'; retryAfter: string | null }
  | { kind: 'invalid'; error: ApiError }
  /** Any other refusal, with the API's message when it gave one. */
  | { kind: 'refused'; message: string | null };

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

/**
 * Asks for a session. Refusals are outcomes rather than errors: the form needs the 401's
 * two-factor flag and the 429's Retry-After header, which an ApiError does not carry.
 */
export async function signIn(credentials: SignInCredentials): Promise<SignInOutcome> {
  const { data, error, response } = await api.POST('/api/v1/session', { body: credentials });
  if (data) return { kind: 'signed_in', me: data };
  if (response.status === 401 && error && 'two_factor_required' in error && error.two_factor_required) {
    return { kind: 'two_factor_required', message: error.message };
  }
  if (response.status === 429) return { kind: 'throttled', retryAfter: response.headers.get('retry-after') };
  if (response.status === 422) return { kind: 'invalid', error: new ApiError(422, error) };
  return { kind: 'refused', message: error && 'message' in error ? error.message : null };
}

/** Signing in; once it succeeds, the new session's `Me` is the cached one. */
export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signIn,
    onSuccess: (outcome) => {
      if (outcome.kind === 'signed_in') queryClient.setQueryData(meQuery.queryKey, outcome.me);
    },
  });
}

/** First run: creates the organization, its first workspace and Admin, and signs the Admin in. */
export function useSetUpOrganization() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (setup: OrganizationSetup) => unwrap(api.POST('/api/v1/setup', { body: setup })),
    onSuccess: (me) => {
      queryClient.setQueryData(meQuery.queryKey, me);
      queryClient.setQueryData(setupStatusQuery.queryKey, { setup_required: false });
    },
  });
}

export async function signOut() {
  await api.DELETE('/api/v1/session');
  // A full load starts the next person from a clean slate: no cached data of this user remains.
  window.location.assign('/sign-in');
}

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
