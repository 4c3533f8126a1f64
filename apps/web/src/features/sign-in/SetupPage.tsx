import { Alert, Button, Group, PasswordInput, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useSetUpOrganization } from '../../app/session.ts';
import { showApiErrors } from '../../shared/form-errors.ts';
import { AuthFrame } from './AuthFrame.tsx';

const fields = [
  'organization_name',
  'workspace_name',
  'first_name',
  'last_name',
  'email',
  'password',
] as const;

/** First run: the empty server's organization, first workspace and Admin. */
export function SetupPage() {
  const navigate = useNavigate();
  const setUp = useSetUpOrganization();
  const [problems, setProblems] = useState<string[]>([]);
  const form = useForm({
    initialValues: {
      organization_name: '',
      workspace_name: 'Main workspace',
      first_name: '',
      last_name: '',
      email: '',
      password: '',
    },
    validate: {
      password: (value) => (value.length < 10 ? 'must be at least 10 characters' : null),
    },
  });

  const createOrganization = form.onSubmit(async (values) => {
    setProblems([]);
    try {
      await setUp.mutateAsync({ ...values, email: values.email.trim() });
      navigate({ to: '/' });
    } catch (error) {
      setProblems(showApiErrors(form, error, fields));
    }
  });

  return (
    <AuthFrame title="Create your organization" subtitle="You will be its first administrator.">
      <form onSubmit={createOrganization} noValidate>
        {problems.length > 0 && (
          <Alert color="red" mb="md" role="alert">
            {problems.join(' ')}
          </Alert>
        )}
        <TextInput label="Organization name" required mb="sm" {...form.getInputProps('organization_name')} />
        <TextInput label="First workspace" required mb="sm" {...form.getInputProps('workspace_name')} />
        <Group grow mb="sm">
          <TextInput
            label="First name"
            required
            autoComplete="given-name"
            {...form.getInputProps('first_name')}
          />
          <TextInput
            label="Last name"
            required
            autoComplete="family-name"
            {...form.getInputProps('last_name')}
          />
        </Group>
        <TextInput
          label="Email"
          type="email"
          required
          autoComplete="username"
          mb="sm"
          {...form.getInputProps('email')}
        />
        <PasswordInput
          label="Password"
          description="At least 10 characters"
          required
          autoComplete="new-password"
          mb="md"
          {...form.getInputProps('password')}
        />
        <Button type="submit" fullWidth loading={form.submitting}>
          Create organization
        </Button>
      </form>
    </AuthFrame>
  );
}
