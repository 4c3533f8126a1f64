import { Alert, Checkbox, Stack, Switch, Text } from '@mantine/core';
import { useMe } from '../../app/session.ts';
import { errorMessage } from '../../shared/api-error.ts';
import { type EmailNotification, useUpdateMe } from './account-api.ts';

const notificationLabels: Record<EmailNotification, string> = {
  mentioned_in_comment: 'Someone mentions me in a comment',
  reply_in_comment_thread: 'Someone replies in a comment thread I take part in',
  requested_review: 'My review is requested',
  review_changes_requested: 'A reviewer asks for changes to my email',
  review_approved: 'A reviewer approves my email',
  ready_to_publish: 'An email is ready to publish',
};

const notificationKinds = Object.keys(notificationLabels) as EmailNotification[];

/** Which emails Letterset sends this user; each box saves at once. */
export function NotificationSection() {
  const me = useMe();
  const update = useUpdateMe();
  const disabled = new Set(me.user.disabled_email_notifications);

  const toggle = (kind: EmailNotification, wanted: boolean) => {
    const next = new Set(disabled);
    if (wanted) next.delete(kind);
    else next.add(kind);
    update.mutate({ disabled_email_notifications: notificationKinds.filter((other) => next.has(other)) });
  };

  return (
    <Stack gap="sm">
      {update.isError && (
        <Alert color="red" role="alert">
          {errorMessage(update.error)}
        </Alert>
      )}
      <Checkbox.Group label="Email me when" value={notificationKinds.filter((kind) => !disabled.has(kind))}>
        <Stack gap={6} mt={6}>
          {notificationKinds.map((kind) => (
            <Checkbox
              key={kind}
              value={kind}
              label={notificationLabels[kind]}
              disabled={update.isPending}
              onChange={(event) => toggle(kind, event.currentTarget.checked)}
            />
          ))}
        </Stack>
      </Checkbox.Group>
      <Switch
        label="Product news"
        description="Occasional emails about new Letterset features"
        checked={me.user.wants_marketing_emails}
        disabled={update.isPending}
        onChange={(event) => update.mutate({ wants_marketing_emails: event.currentTarget.checked })}
      />
      <Text size="xs" c="dimmed">
        Changes are saved as you make them.
      </Text>
    </Stack>
  );
}
