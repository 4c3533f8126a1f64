import { Alert, Badge, Code, Divider, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useCan } from '../../app/session.ts';
import { PageHeader } from '../../shared/PageHeader.tsx';
import { QueryState } from '../../shared/QueryState.tsx';
import { AiProviderForm } from './AiProviderForm.tsx';
import { AiUsageTable } from './AiUsageTable.tsx';
import { type AiSettings, providerShortLabels, useAiSettings } from './ai-settings-api.ts';

/** Settings › AI: the model provider the organization's AI features use, and what they used. */
export function AiSettingsPage() {
  const can = useCan();
  const settings = useAiSettings();
  const canChange = can('update_organization');
  return (
    <Stack>
      <PageHeader title="AI" breadcrumbs={[{ label: 'Settings', to: '/settings' }, { label: 'AI' }]} />
      <Text size="sm" c="dimmed" maw={720}>
        The model provider Letterset asks when people generate emails, design systems and images, run AI
        reviews and translate. It applies to the whole organization.
      </Text>
      <QueryState query={settings} skeletonRows={6}>
        {(data) => (
          <Stack>
            <ProviderSource settings={data} />
            <Section title="Provider">
              {canChange ? (
                <AiProviderForm settings={data} />
              ) : (
                <Text size="sm">
                  Only people whose role may change the organization’s settings (
                  <Code>update_organization</Code>, such as Admins) can change the provider.
                </Text>
              )}
            </Section>
          </Stack>
        )}
      </QueryState>
      {canChange && (
        <Section title="Usage">
          <AiUsageTable />
        </Section>
      )}
    </Stack>
  );
}

const sourceBadges: Record<AiSettings['source'], { label: string; color: string }> = {
  organization: { label: 'Your organization’s provider', color: 'teal' },
  environment: { label: 'The server’s default', color: 'blue' },
  none: { label: 'Not set up', color: 'yellow' },
};

/** Where the provider in use comes from, and when none does, that AI is off. */
function ProviderSource({ settings }: { settings: AiSettings }) {
  const badge = sourceBadges[settings.source];
  const inUse =
    settings.source === 'organization' && settings.provider
      ? { provider: settings.provider, model: settings.model, base_url: settings.base_url }
      : settings.source === 'environment'
        ? settings.environment_default
        : null;
  if (!inUse) {
    return (
      <Alert color="yellow" title="AI features are off" role="status">
        No provider is set up, so generating emails, images, reviews and translations is off until one is.
        Choose a provider below and save it.
      </Alert>
    );
  }
  return (
    <Group gap="sm" role="status" aria-label="Provider in use">
      <Text size="sm">In use:</Text>
      <Badge color={badge.color} variant="light">
        {badge.label}
      </Badge>
      <Text size="sm" fw={500}>
        {providerShortLabels[inUse.provider]} · {inUse.model}
      </Text>
      {inUse.base_url && (
        <Text size="sm" c="dimmed">
          at {inUse.base_url}
        </Text>
      )}
      {settings.source === 'environment' && (
        <Text size="sm" c="dimmed">
          Set by whoever runs this server; saving a provider below replaces it for your organization.
        </Text>
      )}
    </Group>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-label={title}>
      <Title order={2} fz="h4">
        {title}
      </Title>
      <Divider my="sm" />
      {children}
    </Paper>
  );
}
