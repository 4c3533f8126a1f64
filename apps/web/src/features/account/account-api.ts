import type { components, paths } from '@letterset/api-client';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../app/api.ts';
import { type Me, meQuery } from '../../app/session.ts';
import { unwrap } from '../../shared/api-error.ts';

export type MeChange = NonNullable<
  paths['/api/v1/me']['patch']['requestBody']
>['content']['application/json'];
export type EmailNotification = components['schemas']['User']['disabled_email_notifications'][number];

/** Every change to the signed-in user answers the new `Me`, which replaces the cached one. */
export function useUpdateMe() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: MeChange) => unwrap(api.PATCH('/api/v1/me', { body: change })),
    onSuccess: (me: Me) => queryClient.setQueryData(meQuery.queryKey, me),
  });
}

export function useTwoFactorCode(action: 'confirm' | 'disable') {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) =>
      unwrap(
        action === 'confirm'
          ? api.POST('/api/v1/me/two_factor/confirm', { body: { code } })
          : api.POST('/api/v1/me/two_factor/disable', { body: { code } }),
      ),
    onSuccess: (me: Me) => queryClient.setQueryData(meQuery.queryKey, me),
  });
}

export function startTwoFactor() {
  return unwrap(api.POST('/api/v1/me/two_factor'));
}

/** The invitation behind an invitation link; a 404 means the link no longer works, which retrying does not change. */
export const invitationQuery = (token: string) =>
  queryOptions({
    queryKey: ['invitations', token],
    queryFn: () => unwrap(api.GET('/api/v1/invitations/{token}', { params: { path: { token } } })),
    retry: false,
  });

/** Accepting an invitation sets the password and signs the invited person in: the answer is their `Me`. */
export function useAcceptInvitation(token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (password: string) =>
      unwrap(
        api.POST('/api/v1/invitations/{token}/accept', { params: { path: { token } }, body: { password } }),
      ),
    onSuccess: (me: Me) => queryClient.setQueryData(meQuery.queryKey, me),
  });
}
