import { Alert, Badge, Button, Code, Group, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useMe } from '../../app/session.ts';
import { errorMessage } from '../../shared/api-error.ts';
import { showApiErrors } from '../../shared/form-errors.ts';
import { startTwoFactor, useTwoFactorCode } from './account-api.ts';
import { QrCode } from './QrCode.tsx';

/** Turning two-factor authentication on (scan, then prove it works with a code) or off (with a code). */
export function TwoFactorSection() {
  const me = useMe();
  const [setup, setSetup] = useState<{ secret: string; otpauth_uri: string } | null>(null);
  const start = useMutation({ mutationFn: startTwoFactor, onSuccess: setSetup });

  if (me.user.two_factor_enabled) {
    return (
      <Stack gap="sm" maw={520}>
        <Group gap="xs">
          <Badge color="teal">On</Badge>
          <Text size="sm">Signing in asks for a code from your authenticator app.</Text>
        </Group>
        <CodeForm
          action="disable"
          label="Code to turn it off"
          submitLabel="Turn off two-factor authentication"
          onDone={() => notifications.show({ message: 'Two-factor authentication is off.' })}
        />
      </Stack>
    );
  }

  if (!setup) {
    return (
      <Stack gap="sm" align="flex-start">
        <Group gap="xs">
          <Badge color="gray">Off</Badge>
          <Text size="sm">Add a code from an authenticator app to your password when you sign in.</Text>
        </Group>
        {start.isError && (
          <Alert color="red" role="alert">
            {errorMessage(start.error)}
          </Alert>
        )}
        <Button variant="light" loading={start.isPending} onClick={() => start.mutate()}>
          Set up two-factor authentication
        </Button>
      </Stack>
    );
  }

  return (
    <Stack gap="sm" maw={520}>
      <Text size="sm">1. Scan this code with your authenticator app, or type the key into it.</Text>
      <Group align="center" gap="lg">
        <QrCode value={setup.otpauth_uri} label="QR code for your authenticator app" />
        <Stack gap={4}>
          <Text size="xs" c="dimmed">
            Key
          </Text>
          <Code fz="sm" aria-label="Authenticator key" style={{ wordBreak: 'break-all' }}>
            {setup.secret}
          </Code>
        </Stack>
      </Group>
      <Text size="sm">2. Enter the 6-digit code the app shows to turn it on.</Text>
      <CodeForm
        action="confirm"
        label="Code from the app"
        submitLabel="Turn on"
        onDone={() => {
          setSetup(null);
          notifications.show({ color: 'teal', message: 'Two-factor authentication is on.' });
        }}
        onCancel={() => setSetup(null)}
      />
    </Stack>
  );
}

function CodeForm({
  action,
  label,
  submitLabel,
  onDone,
  onCancel,
}: {
  action: 'confirm' | 'disable';
  label: string;
  submitLabel: string;
  onDone: () => void;
  onCancel?: () => void;
}) {
  const submit = useTwoFactorCode(action);
  const [problem, setProblem] = useState<string[]>([]);
  const form = useForm({
    initialValues: { code: '' },
    validate: { code: (value) => (/^\d{6,8}$/.test(value.trim()) ? null : 'Enter the 6-digit code') },
  });
  return (
    <form
      noValidate
      onSubmit={form.onSubmit((values) =>
        submit.mutate(values.code.trim(), {
          onSuccess: onDone,
          onError: (error) => setProblem(showApiErrors(form, error, ['code'])),
        }),
      )}
    >
      <Stack gap="sm">
        {problem.length > 0 && (
          <Alert color="red" role="alert">
            {problem.join(' ')}
          </Alert>
        )}
        <TextInput
          label={label}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={8}
          w={200}
          {...form.getInputProps('code')}
        />
        <Group>
          <Button type="submit" color={action === 'disable' ? 'red' : undefined} loading={submit.isPending}>
            {submitLabel}
          </Button>
          {onCancel && (
            <Button variant="default" onClick={onCancel}>
              Cancel
            </Button>
          )}
        </Group>
      </Stack>
    </form>
  );
}
