import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { ImageModel, LanguageModel } from 'ai';
import type { AiProviderName } from '../../config.ts';

/**
 * Where and how Letterset reaches a model: one organization's choice in Settings › AI, or the
 * server's environment defaults. Every AI feature goes through one of these, so the real
 * services and the tests' local fake differ only in `baseUrl`.
 */
export interface AiConnection {
  provider: AiProviderName;
  /** Unset: the provider's public API. */
  baseUrl: string | undefined;
  model: string;
  imageModel: string | undefined;
  apiKey: string | undefined;
  /** `organization` (Settings › AI) or `environment` (the operator's defaults). */
  source: 'organization' | 'environment';
}

/**
 * The chat model of a connection. OpenAI is asked through its chat completions API (`.chat()`),
 * the wire format every OpenAI-compatible server (Ollama, vLLM, LM Studio) speaks too, so one
 * tested path serves both.
 */
export function languageModelOf(connection: AiConnection, fetch: typeof globalThis.fetch): LanguageModel {
  const { baseUrl, apiKey, model } = connection;
  switch (connection.provider) {
    case 'openai':
      return createOpenAI({ baseURL: baseUrl, apiKey: apiKey ?? '', fetch }).chat(model);
    case 'anthropic':
      return createAnthropic({ baseURL: baseUrl, apiKey: apiKey ?? '', fetch })(model);
    case 'openai_compatible':
      return createOpenAICompatible({
        name: 'openai-compatible',
        baseURL: baseUrl ?? '',
        apiKey,
        fetch,
        supportsStructuredOutputs: true,
        includeUsage: true,
      }).chatModel(model);
  }
}

/** The image model of a connection; null where the provider makes no images (Anthropic) or none is set. */
export function imageModelOf(connection: AiConnection, fetch: typeof globalThis.fetch): ImageModel | null {
  const { baseUrl, apiKey, imageModel } = connection;
  if (!imageModel) return null;
  switch (connection.provider) {
    case 'openai':
      return createOpenAI({ baseURL: baseUrl, apiKey: apiKey ?? '', fetch }).image(imageModel);
    case 'openai_compatible':
      return createOpenAICompatible({
        name: 'openai-compatible',
        baseURL: baseUrl ?? '',
        apiKey,
        fetch,
      }).imageModel(imageModel);
    case 'anthropic':
      return null;
  }
}
