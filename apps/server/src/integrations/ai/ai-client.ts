import {
  APICallError,
  generateImage,
  generateText,
  type JSONSchema7,
  jsonSchema,
  type LanguageModel,
  type LanguageModelUsage,
  type ModelMessage,
  NoObjectGeneratedError,
  Output,
  RetryError,
} from 'ai';
import { eq } from 'drizzle-orm';
import { aiUsage, organizationAiSettings } from '../../db/schema.ts';
import { inSeconds, UpstreamServiceError, ValidationError } from '../../http/errors.ts';
import { guardedFetch, OutboundFetchError } from '../../security/outbound-fetch.ts';
import type { Services } from '../../services.ts';
import { type AiConnection, imageModelOf, languageModelOf } from './ai-connection.ts';

/** The purpose an organization's API key is sealed for (see security/secrets.ts). */
export const aiApiKeyPurpose = 'ai_api_key';

/** The AI features that record usage; the usage table in Settings › AI groups by them. */
export const aiFeatures = [
  'email_generation',
  'email_clone',
  'design_system_generation',
  'image_generation',
  'ai_review',
  'translation',
  'email_chat',
  'connection_test',
] as const;
export type AiFeature = (typeof aiFeatures)[number];

export const aiNotConfiguredMessage =
  'No AI provider is set up for this organization: an Admin can set one up in Settings › AI';

/** Every AI action of an organization without a provider answers this 422. */
export function aiNotConfigured(): ValidationError {
  return new ValidationError(
    { ai_provider: ['is not set up: an Admin can set one up in Settings › AI'] },
    aiNotConfiguredMessage,
  );
}

/** The organization's own provider (Settings › AI), else the server's defaults, else null: AI is off. */
export async function loadAiConnection(
  services: Pick<Services, 'database' | 'secrets' | 'config'>,
  organizationId: number,
): Promise<AiConnection | null> {
  const [settings] = await services.database.db
    .select()
    .from(organizationAiSettings)
    .where(eq(organizationAiSettings.organizationId, organizationId))
    .limit(1);
  if (settings?.provider && settings.model) {
    return {
      provider: settings.provider,
      baseUrl: settings.baseUrl ?? undefined,
      model: settings.model,
      imageModel: settings.imageModel ?? undefined,
      apiKey: settings.sealedApiKey
        ? services.secrets.open(settings.sealedApiKey, aiApiKeyPurpose)
        : undefined,
      source: 'organization',
    };
  }
  const defaults = services.config.aiDefaults;
  if (!defaults) return null;
  return { ...defaults, source: 'environment' };
}

/** A model's answer to a structured request: the parsed JSON, or the text that was not JSON. */
export type StructuredAnswer =
  | { ok: true; value: unknown; text: string }
  | { ok: false; problem: string; text: string };

/** How long a model may take to start answering; generation of a long email takes a while. */
const modelResponseTimeoutMs = 180_000;

/** What one model call used, for the usage table. */
export interface UsageEntry {
  feature: AiFeature;
  model: string;
  inputTokens: number;
  outputTokens: number;
}

/**
 * The AI features' one way to a model: every call reports its tokens to `recordUsage`, and every
 * provider failure becomes an `AiProviderError` whose message says what went wrong in Letterset's
 * words; the provider's own words go to the log.
 */
export class AiClient {
  readonly connection: AiConnection;
  private readonly fetch: typeof globalThis.fetch;
  private readonly recordUsageEntry: (entry: UsageEntry) => Promise<void>;
  private readonly log: Pick<Services['log'], 'warn'> | undefined;

  constructor(
    connection: AiConnection,
    options: {
      allowPrivateNetwork: boolean;
      recordUsage: (entry: UsageEntry) => Promise<void>;
      log?: Pick<Services['log'], 'warn'>;
    },
  ) {
    this.connection = connection;
    this.recordUsageEntry = options.recordUsage;
    this.log = options.log;
    this.fetch = guardedFetch({
      allowPrivateNetwork: options.allowPrivateNetwork,
      timeoutMs: modelResponseTimeoutMs,
    });
  }

  /** The chat model itself, for callers that stream or call tools. */
  languageModel(): LanguageModel {
    return languageModelOf(this.connection, this.fetch);
  }

  /**
   * Asks for JSON that the caller then validates with its own rules (the schema is sent for the
   * provider's structured output; conformance is checked by the caller, which can explain each
   * problem back to the model).
   */
  async generateStructured(request: {
    feature: AiFeature;
    system: string;
    messages: ModelMessage[];
    schema: JSONSchema7;
    signal?: AbortSignal;
  }): Promise<StructuredAnswer> {
    try {
      const result = await generateText({
        model: this.languageModel(),
        system: request.system,
        messages: request.messages,
        output: Output.object({ schema: jsonSchema(request.schema) }),
        maxRetries: 1,
        abortSignal: request.signal,
      });
      await this.recordUsage(request.feature, result.usage);
      return { ok: true, value: result.output, text: result.text };
    } catch (error) {
      if (NoObjectGeneratedError.isInstance(error)) {
        if (error.usage) await this.recordUsage(request.feature, error.usage);
        return { ok: false, problem: 'is not valid JSON', text: error.text ?? '' };
      }
      throw this.providerError(error);
    }
  }

  /** Plain text: a short answer (the connection test) or prose. */
  async generateText(request: {
    feature: AiFeature;
    system?: string;
    messages: ModelMessage[];
    signal?: AbortSignal;
  }): Promise<string> {
    try {
      const result = await generateText({
        model: this.languageModel(),
        system: request.system,
        messages: request.messages,
        maxRetries: 1,
        abortSignal: request.signal,
      });
      await this.recordUsage(request.feature, result.usage);
      return result.text;
    } catch (error) {
      throw this.providerError(error);
    }
  }

  /** One image from a prompt, through the provider's images API. */
  async generateImage(request: {
    feature: AiFeature;
    prompt: string;
    size: `${number}x${number}`;
    signal?: AbortSignal;
  }): Promise<{ bytes: Uint8Array; mediaType: string }> {
    const model = imageModelOf(this.connection, this.fetch);
    if (!model) {
      throw new ValidationError(
        { image_model: ['is not set: an Admin can choose an image model in Settings › AI'] },
        this.connection.provider === 'anthropic'
          ? 'Anthropic makes no images: an Admin can choose an OpenAI or OpenAI-compatible provider with an image model in Settings › AI'
          : 'No image model is set: an Admin can choose one in Settings › AI',
      );
    }
    try {
      const result = await generateImage({
        model,
        prompt: request.prompt,
        size: request.size,
        n: 1,
        maxRetries: 1,
        abortSignal: request.signal,
      });
      await this.recordUsage(request.feature, undefined, this.connection.imageModel);
      return { bytes: result.image.uint8Array, mediaType: result.image.mediaType };
    } catch (error) {
      throw this.providerError(error, this.connection.imageModel);
    }
  }

  /**
   * Records what a call the feature made itself used (`streamText` with tools: the result's
   * `totalUsage`); the other methods here record their own.
   */
  async recordUsageOf(feature: AiFeature, usage: LanguageModelUsage | undefined): Promise<void> {
    await this.recordUsage(feature, usage);
  }

  private async recordUsage(
    feature: AiFeature,
    usage: LanguageModelUsage | undefined,
    model = this.connection.model,
  ) {
    await this.recordUsageEntry({
      feature,
      model,
      inputTokens: usage?.inputTokens ?? 0,
      outputTokens: usage?.outputTokens ?? 0,
    });
  }

  /** The failure as an AiProviderError; `model` is the one asked (the chat or the image model). */
  private providerError(error: unknown, model = this.connection.model): Error {
    if (error instanceof ValidationError || error instanceof AiProviderError) return error;
    if (error instanceof Error && error.name === 'AbortError') return error;
    return new AiProviderError(this.failureMessage(error, model));
  }

  /**
   * What a failed provider call says to people, in Letterset's words; the provider's own words
   * go to the log. For callers that read a stream's failures themselves (the chat).
   */
  failureMessage(error: unknown, model = this.connection.model): string {
    const failure = providerFailureOf(error);
    if (failure.status !== undefined || failure.providerMessage !== undefined) {
      this.log?.warn(
        { status: failure.status, providerMessage: failure.providerMessage, model },
        'the AI provider refused or failed a request',
      );
    }
    return describeProviderFailure(error, { ...this.connection, model: model ?? this.connection.model });
  }
}

/** A provider that refused or failed; the message is safe to show (never the key). */
export class AiProviderError extends UpstreamServiceError {}

/**
 * The client of an organization's connection, on behalf of a person: its usage lands in the
 * organization's usage table. The operator's base URL may be a local server; one an Admin typed is
 * held to the private-address refusal.
 */
export function aiClientFor(
  services: Pick<Services, 'database' | 'config'> & Partial<Pick<Services, 'log'>>,
  connection: AiConnection,
  principal: { organizationId: number; userId: number | null },
): AiClient {
  return new AiClient(connection, {
    log: services.log,
    allowPrivateNetwork:
      connection.source === 'environment' || services.config.outboundFetch.allowPrivateNetwork,
    recordUsage: async (entry) => {
      await services.database.db
        .insert(aiUsage)
        .values({ organizationId: principal.organizationId, userId: principal.userId, ...entry });
    },
  });
}

/** Opens the organization's AI client, or refuses with the 422 that says an Admin can set one up. */
export async function openAiClient(
  services: Pick<Services, 'database' | 'secrets' | 'config' | 'log'>,
  principal: { organizationId: number; userId: number | null },
): Promise<AiClient> {
  const connection = await loadAiConnection(services, principal.organizationId);
  if (!connection) throw aiNotConfigured();
  return aiClientFor(services, connection, principal);
}

/**
 * What went wrong with a provider call, in one sentence of Letterset's that an Admin can act on.
 * The provider's own text is never part of it (it is in another voice, and may repeat the wait
 * in its own words): the client logs it instead.
 */
export function describeProviderFailure(
  error: unknown,
  connection: Pick<AiConnection, 'model' | 'baseUrl'>,
): string {
  const failure = providerFailureOf(error);
  const { status } = failure;
  if (status === 401 || status === 403)
    return `The AI provider refused the API key (HTTP ${status}). An Admin can change it in Settings › AI.`;
  if (status === 429) {
    const wait = failure.retryAfterSeconds;
    return `The AI provider is limiting requests (HTTP 429); try again in ${wait === undefined ? 'a minute' : inSeconds(wait)}.`;
  }
  if (status === 404) return `The AI provider does not know the model “${connection.model}” (HTTP 404).`;
  if (status !== undefined && status >= 500)
    return `The AI provider had an error (HTTP ${status}). Try again later.`;
  if (status !== undefined) return `The AI provider refused the request (HTTP ${status}).`;
  const at = connection.baseUrl ? ` at ${connection.baseUrl}` : '';
  return `Could not reach the AI provider${at}${failure.reason ? `: ${failure.reason}` : ''}.`;
}

/** A failed provider call, read: its HTTP status, the wait it asked for, its own message. */
export interface ProviderFailure {
  status: number | undefined;
  retryAfterSeconds: number | undefined;
  /** The provider's own words, for the log only. */
  providerMessage: string | undefined;
  /** Why the provider could not be reached, when it answered nothing. */
  reason: string | undefined;
}

export function providerFailureOf(error: unknown): ProviderFailure {
  const cause = RetryError.isInstance(error) ? error.lastError : error;
  if (APICallError.isInstance(cause) && cause.statusCode !== undefined) {
    return {
      status: cause.statusCode,
      retryAfterSeconds: retryAfterSecondsOf(cause.responseHeaders),
      providerMessage: providerMessageOf(cause.responseBody),
      reason: undefined,
    };
  }
  const reason = APICallError.isInstance(cause) ? (reasonOf(cause.cause) ?? cause.message) : reasonOf(cause);
  return { status: undefined, retryAfterSeconds: undefined, providerMessage: undefined, reason };
}

/**
 * The wait a provider asked for: OpenAI's `retry-after-ms`, else `retry-after` in seconds or as an
 * HTTP date; undefined when it asked for none (or an unreadable one).
 */
function retryAfterSecondsOf(headers: Record<string, string> | undefined): number | undefined {
  if (!headers) return undefined;
  const header = (name: string) =>
    Object.entries(headers)
      .find(([key]) => key.toLowerCase() === name)?.[1]
      ?.trim();
  const milliseconds = Number(header('retry-after-ms'));
  if (header('retry-after-ms') && Number.isFinite(milliseconds) && milliseconds >= 0)
    return milliseconds / 1000;
  const value = header('retry-after');
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - Date.now()) / 1000);
}

function reasonOf(error: unknown): string | undefined {
  if (error instanceof OutboundFetchError) return error.message;
  if (error instanceof Error) {
    const code =
      (error.cause as NodeJS.ErrnoException | undefined)?.code ?? (error as NodeJS.ErrnoException).code;
    if (code === 'ECONNREFUSED') return 'the connection was refused';
    if (code === 'ENOTFOUND') return 'the host name is unknown';
    if (error.cause) return reasonOf(error.cause) ?? error.message;
    return error.message;
  }
  return undefined;
}

/** The `error.message` of an OpenAI- or Anthropic-style error body, else the body, cut short. */
function providerMessageOf(body: string | undefined): string | undefined {
  if (!body) return undefined;
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } | string };
    const message = typeof parsed.error === 'string' ? parsed.error : parsed.error?.message;
    if (typeof message === 'string') return message.slice(0, 500);
  } catch {}
  return body.slice(0, 500);
}
