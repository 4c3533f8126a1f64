import { Alert, Button, PasswordInput, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { api } from '../../app/api.ts';
import { meQuery } from '../../app/session.ts';
import { ApiError } from '../../shared/api-error.ts';
import { showApiErrors } from '../../shared/form-errors.ts';
import { AuthFrame } from './AuthFrame.tsx';
import { signInWaitMessage } from './sign-in-wait.ts';

const route = getRouteApi('/sign-in');

export function SignInPage() {
  const { redirect } = route.useSearch();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [twoFactorRequired, setTwoFactorRequired] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const form = useForm({ initialValues: { email: '', password: '', two_factor_code: '' } });

  const signIn = form.onSubmit(async (values) => {
    setProblem(null);
    const { data, error, response } = await api.POST('/api/v1/session', {
      body: {
        email: values.email.trim(),
        password: values.password,
        ...(twoFactorRequired ? { two_factor_code: values.two_factor_code.trim() } : {}),
      },
    });
    if (data) {
      queryClient.setQueryData(meQuery.queryKey, data);
      navigate({ href: redirect ?? '/' });
      return;
    }
    if (response.status === 401 && error && 'two_factor_required' in error && error.two_factor_required) {
      if (twoFactorRequired) setProblem(error.message);
      setTwoFactorRequired(true);
      return;
    }
    if (response.status === 429) {
      setProblem(signInWaitMessage(response.headers.get('retry-after')));
      return;
    }
    if (response.status === 422) {
      setProblem(showApiErrors(form, new ApiError(422, error), ['email', 'password']).join(' ') || null);
      return;
    }
    setProblem(error && 'message' in error ? error.message : 'Signing in failed. Try again.');
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
      <form onSubmit={signIn} noValidate>
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
