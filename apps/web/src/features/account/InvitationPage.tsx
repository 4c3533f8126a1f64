import { Alert, Anchor, Button, PasswordInput, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { ApiError, errorMessage } from '../../shared/api-error.ts';
import { showApiErrors } from '../../shared/form-errors.ts';
import { QueryState } from '../../shared/QueryState.tsx';
import { AuthFrame } from '../sign-in/AuthFrame.tsx';
import { invitationQuery, useAcceptInvitation } from './account-api.ts';

const route = getRouteApi('/invitations/$token');

/** Where an invitation email leads: the invited person sets a password and is signed in. */
export function InvitationPage() {
  const { token } = route.useParams();
  const invitation = useQuery(invitationQuery(token));

  if (invitation.error instanceof ApiError && invitation.error.status === 404) {
    return (
      <AuthFrame title="This invitation link no longer works">
        <Text size="sm">
          It was used already, replaced by a newer invitation, or is more than 7 days old. Ask an
          administrator of your organization to invite you again.
        </Text>
        <Anchor component={Link} to="/sign-in" size="sm">
          Go to sign-in
        </Anchor>
      </AuthFrame>
    );
  }

  return (
    <AuthFrame
      title="Join your organization"
      subtitle={invitation.data ? `You were invited to ${invitation.data.organization_name}.` : undefined}
    >
      <QueryState query={invitation} skeletonRows={3}>
        {(data) => (
          <AcceptForm token={token} email={data.email} name={`${data.first_name} ${data.last_name}`} />
        )}
      </QueryState>
    </AuthFrame>
  );
}

function AcceptForm({ token, email, name }: { token: string; email: string; name: string }) {
  const acceptInvitation = useAcceptInvitation(token);
  const navigate = useNavigate();
  const [problem, setProblem] = useState<string | null>(null);
  const form = useForm({
    initialValues: { password: '', repeated: '' },
    validate: {
      password: (value) => (value.length >= 10 ? null : 'Use at least 10 characters'),
      repeated: (value, values) => (value === values.password ? null : 'The two passwords differ'),
    },
  });

  const accept = form.onSubmit(async (values) => {
    setProblem(null);
    try {
      await acceptInvitation.mutateAsync(values.password);
      navigate({ to: '/' });
    } catch (error) {
      const rest =
        error instanceof ApiError ? showApiErrors(form, error, ['password']) : [errorMessage(error)];
      setProblem(rest.join(' ') || null);
    }
  });

  return (
    <form onSubmit={accept} noValidate>
      <Stack gap="sm">
        <Text size="sm">
          Welcome, {name}. Choose a password for <strong>{email}</strong> to sign in.
        </Text>
        {problem && (
          <Alert color="red" role="alert">
            {problem}
          </Alert>
        )}
        {/* Password managers save the new password for this email. */}
        <input type="hidden" name="username" autoComplete="username" value={email} readOnly />
        <PasswordInput
          label="Password"
          description="At least 10 characters"
          autoComplete="new-password"
          required
          {...form.getInputProps('password')}
        />
        <PasswordInput
          label="Repeat the password"
          autoComplete="new-password"
          required
          {...form.getInputProps('repeated')}
        />
        <Button type="submit" fullWidth loading={form.submitting}>
          Set password and sign in
        </Button>
      </Stack>
    </form>
  );
}
