import type { components, operations } from '@letterset/api-client';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../app/api.ts';
import { unwrap } from '../../shared/api-error.ts';

export type AiSettings = components['schemas']['AiSettings'];
export type AiConnectionTest = components['schemas']['AiConnectionTest'];
export type AiUsage = components['schemas']['AiUsage'];
export type AiUsageRow = AiUsage['results'][number];
export type AiFeature = AiUsageRow['feature'];
export type AiProviderName = NonNullable<AiSettings['provider']>;
export type AiSettingsChange = operations['updateAiSettings']['requestBody']['content']['application/json'];

export const aiSettingsKeys = {
  settings: ['ai-settings'] as const,
  usage: (days: number) => ['ai-usage', days] as const,
};

/** The organization's AI provider: whether AI works, and where the provider comes from. */
export const aiSettingsQuery = queryOptions({
  queryKey: aiSettingsKeys.settings,
  queryFn: () => unwrap(api.GET('/api/v1/ai_settings')),
  staleTime: 60_000,
});

/**
 * The organization's AI settings, for any signed-in screen. Screens with AI actions read
 * `data.configured`: when false, they show `AiNotConfiguredNotice` instead of buttons that would
 * answer 422.
 */
export function useAiSettings() {
  return useQuery(aiSettingsQuery);
}

/** Calls and tokens over the last `days` days, per feature and person (update_organization). */
export const aiUsageQuery = (days: number) =>
  queryOptions({
    queryKey: aiSettingsKeys.usage(days),
    queryFn: () => unwrap(api.GET('/api/v1/ai_usage', { params: { query: { days } } })),
    placeholderData: keepPreviousData,
  });

export function updateAiSettings(body: AiSettingsChange): Promise<AiSettings> {
  return unwrap(api.PATCH('/api/v1/ai_settings', { body }));
}

export function testAiSettings(): Promise<AiConnectionTest> {
  return unwrap(api.POST('/api/v1/ai_settings/test'));
}

export const providerLabels: Record<AiProviderName, string> = {
  openai: 'OpenAI',
  anthropic: 'Anthropic',
  openai_compatible: 'OpenAI-compatible server (Ollama, vLLM, LM Studio)',
};

/** The short name of a provider, for one-line summaries. */
export const providerShortLabels: Record<AiProviderName, string> = {
  openai: 'OpenAI',
  anthropic: 'Anthropic',
  openai_compatible: 'OpenAI-compatible server',
};

export const featureLabels: Record<AiFeature, string> = {
  email_generation: 'Email generation',
  email_clone: 'Email cloning',
  design_system_generation: 'Design system generation',
  image_generation: 'Image generation',
  ai_review: 'AI review',
  translation: 'Translation',
  email_chat: 'Email chat',
  connection_test: 'Connection test',
};

/** What the provider form holds; field names are the API's, so 422 messages land on them. */
export interface AiProviderFormValues {
  provider: AiProviderName | null;
  /** For OpenAI and Anthropic: whether a custom endpoint (a proxy or gateway) replaces the public API. */
  custom_endpoint: boolean;
  base_url: string;
  model: string;
  image_model: string;
  /** The stored key's mask until a new key is typed. */
  api_key: string;
}

export function formValuesOf(settings: AiSettings): AiProviderFormValues {
  return {
    provider: settings.provider,
    custom_endpoint: settings.provider !== 'openai_compatible' && Boolean(settings.base_url),
    base_url: settings.base_url ?? '',
    model: settings.model ?? '',
    image_model: settings.image_model ?? '',
    api_key: settings.api_key ?? '',
  };
}

/** Whether the provider needs a base URL (an OpenAI-compatible server has no public one). */
export function needsBaseUrl(provider: AiProviderName | null): boolean {
  return provider === 'openai_compatible';
}

/** Whether the provider can make images (Anthropic cannot). */
export function makesImages(provider: AiProviderName | null): boolean {
  return provider !== 'anthropic';
}

/**
 * What a save sends: the whole form as it shows. The API key field still showing the stored key's
 * mask is sent as it is, which the server reads as "keep the stored key"; an emptied field removes it.
 */
export function settingsToSend(values: AiProviderFormValues): AiSettingsChange {
  const usesBaseUrl = needsBaseUrl(values.provider) || values.custom_endpoint;
  const apiKey = values.api_key.trim();
  return {
    provider: values.provider,
    base_url: usesBaseUrl ? values.base_url.trim() || null : null,
    model: values.model.trim() || null,
    image_model: makesImages(values.provider) ? values.image_model.trim() || null : null,
    api_key: apiKey === '' ? null : apiKey,
  };
}
