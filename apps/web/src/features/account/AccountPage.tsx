import { Divider, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { PageHeader } from '../../shared/PageHeader.tsx';
import { NotificationSection } from './NotificationSection.tsx';
import { PasswordSection } from './PasswordSection.tsx';
import { ProfileSection } from './ProfileSection.tsx';
import { TwoFactorSection } from './TwoFactorSection.tsx';

/** The signed-in user's own profile, email preferences and sign-in security. */
export function AccountPage() {
  return (
    <Stack>
      <PageHeader title="Profile" />
      <Section title="Your name">
        <ProfileSection />
      </Section>
      <Section title="Email notifications">
        <NotificationSection />
      </Section>
      <Section title="Password">
        <PasswordSection />
      </Section>
      <Section title="Two-factor authentication" description="A second step when you sign in">
        <TwoFactorSection />
      </Section>
    </Stack>
  );
}

function Section({
  title,
  description,
  children,
}: {
  title: string;
  description?: string;
  children: ReactNode;
}) {
  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-label={title}>
      <Title order={2} fz="h4">
        {title}
      </Title>
      {description && (
        <Text size="sm" c="dimmed">
          {description}
        </Text>
      )}
      <Divider my="sm" />
      {children}
    </Paper>
  );
}
