import { Alert, Button, Group, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useMe } from '../../app/session.ts';
import { showApiErrors } from '../../shared/form-errors.ts';
import { useUpdateMe } from './account-api.ts';

/** The name others see on comments, reviews and the user list. */
export function ProfileSection() {
  const me = useMe();
  const update = useUpdateMe();
  const [problem, setProblem] = useState<string[]>([]);
  const form = useForm({
    initialValues: { first_name: me.user.first_name, last_name: me.user.last_name },
    validate: {
      first_name: (value) => (value.trim() ? null : 'Enter your first name'),
      last_name: (value) => (value.trim() ? null : 'Enter your last name'),
    },
  });
  const save = form.onSubmit((values) =>
    update.mutate(
      { first_name: values.first_name.trim(), last_name: values.last_name.trim() },
      {
        onSuccess: () => {
          setProblem([]);
          form.resetDirty();
          notifications.show({ color: 'teal', message: 'Your name was saved.' });
        },
        onError: (error) => setProblem(showApiErrors(form, error, ['first_name', 'last_name'])),
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
        <Group grow align="flex-start">
          <TextInput label="First name" required maxLength={100} {...form.getInputProps('first_name')} />
          <TextInput label="Last name" required maxLength={100} {...form.getInputProps('last_name')} />
        </Group>
        <TextInput
          label="Email"
          value={me.user.email}
          readOnly
          description="Ask an administrator to change it"
        />
        <Group>
          <Button type="submit" loading={update.isPending}>
            Save name
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
