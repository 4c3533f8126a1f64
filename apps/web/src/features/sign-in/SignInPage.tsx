import { Alert, Button, PasswordInput, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useSignIn } from '../../app/session.ts';
import { showApiErrors } from '../../shared/form-errors.ts';
import { AuthFrame } from './AuthFrame.tsx';
import { signInWaitMessage } from './sign-in-wait.ts';

const route = getRouteApi('/sign-in');

export function SignInPage() {
  const { redirect } = route.useSearch();
  const navigate = useNavigate();
  const signIn = useSignIn();
  const [twoFactorRequired, setTwoFactorRequired] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const form = useForm({ initialValues: { email: '', password: '', two_factor_code: '' } });

  const submit = form.onSubmit(async (values) => {
    setProblem(null);
    const outcome = await signIn.mutateAsync({
      email: values.email.trim(),
      password: values.password,
      ...(twoFactorRequired ? { two_factor_code: values.two_factor_code.trim() } : {}),
    });
    switch (outcome.kind) {
      case 'signed_in':
        navigate({ href: redirect ?? '/' });
        return;
      case 'two_factor_required':
        if (twoFactorRequired) setProblem(outcome.message);
        setTwoFactorRequired(true);
        return;
      case 'throttled':
        setProblem(signInWaitMessage(outcome.retryAfter));
        return;
      case 'invalid':
        setProblem(showApiErrors(form, outcome.error, ['email', 'password']).join(' ') || null);
        return;
      case 'refused':
        setProblem(outcome.message ?? 'Signing in failed. Try again.');
    }
  });

  return (
    <AuthFrame
      title="Sign in"
      subtitle={
        redirect?.startsWith('/oauth/consent')
          ? 'Sign in to connect an assistant to Letterset.'
          : redirect
            ? 'Your session ended. Sign in to continue where you were.'
            : undefined
      }
    >
      <form onSubmit={submit} noValidate>
        {problem && (
          <Alert color="red" mb="md" role="alert">
            {problem}
          </Alert>
        )}
        <TextInput
          label="Email"
          type="email"
          autoComplete="username"
          required
          mb="sm"
          {...form.getInputProps('email')}
        />
        <PasswordInput
          label="Password"
          autoComplete="current-password"
          required
          mb="sm"
          {...form.getInputProps('password')}
        />
        {twoFactorRequired && (
          <TextInput
            label="Two-factor code"
            description="The 6-digit code from your authenticator app"
            inputMode="numeric"
            autoComplete="one-time-code"
            data-autofocus
            autoFocus
            mb="sm"
            {...form.getInputProps('two_factor_code')}
          />
        )}
        <Button type="submit" fullWidth loading={form.submitting}>
          Sign in
        </Button>
      </form>
    </AuthFrame>
  );
}
