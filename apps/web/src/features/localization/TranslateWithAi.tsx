import type { components } from '@letterset/api-client';
import { locales as allLocales, localeInfo } from '@letterset/core/locales';
import {
  Alert,
  Badge,
  Button,
  Group,
  List,
  Loader,
  Modal,
  MultiSelect,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useCan } from '../../app/session.ts';
import { showApiErrors } from '../../shared/form-errors.ts';
import { relativeTime } from '../../shared/relative-time.ts';
import { AiAgentSelect } from '../ai-generation/AiBriefFields.tsx';
import { AiNotConfiguredNotice } from '../ai-settings/AiNotConfiguredNotice.tsx';
import { useAiSettings } from '../ai-settings/ai-settings-api.ts';
import { latestTranslation, startTranslation } from './localization-api.ts';

type EmailTranslation = components['schemas']['EmailTranslation'];
type LocaleStatus = EmailTranslation['locale_statuses'][string];

/** How often the panel asks for progress while a translation runs. */
const progressRefreshMs = 1_000;

/**
 * "Translate with AI" in the Localization panel: choose locales (new ones are added to the email)
 * and an agent, then follow each locale's job. When the jobs end, the editor reopens on the email
 * with the translations (`onTranslated`).
 */
export function TranslateWithAi({
  workspaceId,
  email,
  emailLocales,
  defaultLocale,
  blockedReason,
  onTranslated,
}: {
  workspaceId: number;
  email: { id: number; ai_agent_id: number | null };
  emailLocales: readonly string[];
  defaultLocale: string;
  /** Why a translation cannot start now (read-only, unsaved changes), or null. */
  blockedReason: string | null;
  onTranslated: () => void;
}) {
  const settings = useAiSettings();
  const queryClient = useQueryClient();
  const [choosing, setChoosing] = useState(false);
  // The latest translation of the email, started here or before (a reload, another person).
  const latestKey = ['workspaces', workspaceId, 'emails', email.id, 'email_translations', 'latest'];
  const latest = useQuery({
    queryKey: latestKey,
    queryFn: () => latestTranslation(workspaceId, email.id),
    refetchInterval: (query) => (query.state.data?.status === 'in_progress' ? progressRefreshMs : false),
  });
  // Seen under way in this editor: when it ends, the editor reopens on the translated email.
  const [followedId, setFollowedId] = useState<number | null>(null);
  const translation = latest.data ?? null;
  useEffect(() => {
    if (translation === null || translation.id !== followedId || translation.status === 'in_progress') return;
    setFollowedId(null);
    if (hasTranslated(translation)) onTranslated();
  }, [translation, followedId, onTranslated]);

  if (settings.isPending) return null;
  return (
    <Stack gap="xs">
      <Group justify="space-between" wrap="nowrap">
        <Title order={5}>Machine translation</Title>
        {settings.data?.configured && (
          <Button
            size="xs"
            variant="light"
            disabled={blockedReason !== null || translation?.status === 'in_progress'}
            title={blockedReason ?? undefined}
            onClick={() => setChoosing(true)}
          >
            Translate with AI
          </Button>
        )}
      </Group>
      {!settings.data?.configured && <AiNotConfiguredNotice />}
      {blockedReason && settings.data?.configured && (
        <Text size="xs" c="dimmed">
          {blockedReason}
        </Text>
      )}
      {translation && <TranslationProgress translation={translation} />}
      {latest.isError && (
        <Alert color="red" role="alert">
          The translation’s progress could not be read; reload the page to see the email as it is.
        </Alert>
      )}
      {choosing && (
        <ChooseLocales
          workspaceId={workspaceId}
          email={email}
          emailLocales={emailLocales}
          defaultLocale={defaultLocale}
          onClose={() => setChoosing(false)}
          onStarted={(started) => {
            setChoosing(false);
            setFollowedId(started.id);
            queryClient.setQueryData(latestKey, started);
          }}
        />
      )}
    </Stack>
  );
}

function hasTranslated(translation: EmailTranslation): boolean {
  return Object.values(translation.locale_statuses).some((state) => state.status === 'completed');
}

function ChooseLocales({
  workspaceId,
  email,
  emailLocales,
  defaultLocale,
  onClose,
  onStarted,
}: {
  workspaceId: number;
  email: { id: number; ai_agent_id: number | null };
  emailLocales: readonly string[];
  defaultLocale: string;
  onClose: () => void;
  onStarted: (translation: EmailTranslation) => void;
}) {
  const can = useCan();
  const mayAddLocales = can('add_remove_locales_from_emails');
  const [otherErrors, setOtherErrors] = useState<string[]>([]);
  const form = useForm({
    initialValues: {
      target_locales: emailLocales.filter((locale) => locale !== defaultLocale),
      ai_agent_id: email.ai_agent_id === null ? '' : String(email.ai_agent_id),
    },
    validate: { target_locales: (value) => (value.length > 0 ? null : 'Choose at least one locale') },
  });
  const options = allLocales
    .filter(
      (locale) => locale.code !== defaultLocale && (mayAddLocales || emailLocales.includes(locale.code)),
    )
    .map((locale) => ({
      value: locale.code,
      label: `${locale.code} · ${locale.name}${emailLocales.includes(locale.code) ? '' : ' (new)'}`,
    }));
  const start = useMutation({
    mutationFn: (values: typeof form.values) =>
      startTranslation(workspaceId, email.id, {
        target_locales: values.target_locales,
        ai_agent_id: values.ai_agent_id ? Number(values.ai_agent_id) : null,
      }),
    onSuccess: onStarted,
    onError: (error) => setOtherErrors(showApiErrors(form, error, ['target_locales', 'ai_agent_id'])),
  });
  return (
    <Modal opened onClose={onClose} title="Translate with AI">
      <form
        onSubmit={form.onSubmit((values) => {
          setOtherErrors([]);
          start.mutate(values);
        })}
      >
        <Stack>
          <Text size="sm">
            Translates every text of {localeInfo(defaultLocale)?.name ?? defaultLocale} into the locales you
            choose. Liquid, personalization tags, markup and links stay as they are; fields hidden from AI are
            left alone. Each locale is written as its own version.
          </Text>
          {otherErrors.length > 0 && (
            <Alert color="red" role="alert">
              {otherErrors.join(' ')}
            </Alert>
          )}
          <MultiSelect
            label="Translate into"
            withAsterisk
            searchable
            data={options}
            description={mayAddLocales ? 'Locales new to the email are added to it.' : undefined}
            {...form.getInputProps('target_locales')}
          />
          <AiAgentSelect
            workspaceId={workspaceId}
            {...form.getInputProps('ai_agent_id')}
            onChange={(value: string | null) => form.setFieldValue('ai_agent_id', value ?? '')}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={start.isPending}>
              Translate
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

const statusBadges: Record<LocaleStatus['status'], { color: string; label: string }> = {
  in_progress: { color: 'blue', label: 'Translating' },
  completed: { color: 'green', label: 'Done' },
  failed: { color: 'red', label: 'Failed' },
};

/** Each locale's job: under way, done (with values left untranslated, if any), or failed and why. */
export function TranslationProgress({ translation }: { translation: EmailTranslation }) {
  return (
    <Stack gap={4}>
      <Text size="xs" c="dimmed">
        {translation.status === 'in_progress' ? 'Translating' : 'Last translation'}, started{' '}
        {relativeTime(translation.created_at)}
        {translation.created_by
          ? ` by ${translation.created_by.first_name} ${translation.created_by.last_name}`
          : ''}
      </Text>
      <List spacing={6} listStyleType="none" aria-label="Translation progress">
        {translation.target_locales.map((locale) => {
          const state = translation.locale_statuses[locale];
          if (!state) return null;
          const badge = statusBadges[state.status];
          return (
            <List.Item key={locale}>
              <Group gap="xs" wrap="nowrap">
                <Text size="sm" fw={500} w={56}>
                  {locale}
                </Text>
                <Badge
                  color={badge.color}
                  variant="light"
                  leftSection={state.status === 'in_progress' ? <Loader size={10} /> : null}
                >
                  {badge.label}
                </Badge>
                {state.status === 'completed' && (
                  <Text size="xs" c="dimmed">
                    {state.translated_values} values
                  </Text>
                )}
              </Group>
              {state.error && (
                <Text size="xs" c="red">
                  {state.error}
                </Text>
              )}
              {state.refused_values.length > 0 && (
                <Text size="xs" c="orange">
                  {state.refused_values.length} left untranslated: {state.refused_values[0]?.reason}
                  {state.refused_values.length > 1 ? ' (and others)' : ''}. They keep their current text.
                </Text>
              )}
            </List.Item>
          );
        })}
      </List>
    </Stack>
  );
}
