import { Alert, Button, Group, PasswordInput, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { showApiErrors } from '../../shared/form-errors.ts';
import { useUpdateMe } from './account-api.ts';

/** Changing the password also signs this user out of their other browsers (the API does it). */
export function PasswordSection() {
  const update = useUpdateMe();
  const [problem, setProblem] = useState<string[]>([]);
  const form = useForm({
    initialValues: { current_password: '', new_password: '', repeated: '' },
    validate: {
      current_password: (value) => (value ? null : 'Enter your current password'),
      new_password: (value) => (value.length >= 10 ? null : 'Use at least 10 characters'),
      repeated: (value, values) => (value === values.new_password ? null : 'The two passwords differ'),
    },
  });
  const save = form.onSubmit((values) =>
    update.mutate(
      { current_password: values.current_password, new_password: values.new_password },
      {
        onSuccess: () => {
          setProblem([]);
          form.reset();
          notifications.show({
            color: 'teal',
            message: 'Your password was changed. Your other browsers were signed out.',
          });
        },
        onError: (error) => setProblem(showApiErrors(form, error, ['current_password', 'new_password'])),
      },
    ),
  );
  return (
    <form onSubmit={save} noValidate>
      <Stack gap="sm" maw={520}>
        {problem.length > 0 && (
          <Alert color="red" role="alert">
            {problem.join(' ')}
          </Alert>
        )}
        <PasswordInput
          label="Current password"
          autoComplete="current-password"
          required
          {...form.getInputProps('current_password')}
        />
        <PasswordInput
          label="New password"
          description="At least 10 characters. Other browsers where you are signed in will be signed out."
          autoComplete="new-password"
          required
          {...form.getInputProps('new_password')}
        />
        <PasswordInput
          label="Repeat the new password"
          autoComplete="new-password"
          required
          {...form.getInputProps('repeated')}
        />
        <Group>
          <Button type="submit" loading={update.isPending}>
            Change password
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
