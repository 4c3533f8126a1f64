import type { components, paths } from '@letterset/api-client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
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
