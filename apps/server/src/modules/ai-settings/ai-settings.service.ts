import { isIP } from 'node:net';
import { and, count, desc, eq, gte, sum } from 'drizzle-orm';
import type { Static } from 'typebox';
import { changesAnything } from '../../db/record-updates.ts';
import { aiUsage, organizationAiSettings, users } from '../../db/schema.ts';
import { ValidationError } from '../../http/errors.ts';
import type { Principal } from '../../http/principal.ts';
import {
  type AiFeature,
  AiProviderError,
  aiApiKeyPurpose,
  aiClientFor,
  loadAiConnection,
} from '../../integrations/ai/ai-client.ts';
import { isNonPublicAddress } from '../../security/outbound-fetch.ts';
import { originOf } from '../../security/secret-destination.ts';
import { maskSecret } from '../../security/secrets.ts';
import type { Services } from '../../services.ts';
import { toUserReference, userReferenceColumns } from '../users/users.serializers.ts';
import type { AiConnectionTest, AiSettings, AiUsage, UpdateAiSettingsBody } from './ai-settings.schemas.ts';

type SettingsRow = typeof organizationAiSettings.$inferSelect;

async function settingsRowOf(
  services: Pick<Services, 'database'>,
  organizationId: number,
): Promise<SettingsRow | undefined> {
  const [row] = await services.database.db
    .select()
    .from(organizationAiSettings)
    .where(eq(organizationAiSettings.organizationId, organizationId))
    .limit(1);
  return row;
}

/**
 * The settings as answered. Everyone may know whether AI works and where the provider comes from;
 * the details (addresses, models, the masked key) are for those who may change them.
 */
function toResponse(
  services: Pick<Services, 'secrets' | 'config'>,
  row: SettingsRow | undefined,
  audience: 'manager' | 'member',
): Static<typeof AiSettings> {
  const defaults = services.config.aiDefaults;
  const ownProvider = row?.provider && row.model ? row.provider : null;
  const summary = {
    configured: ownProvider !== null || defaults !== undefined,
    source: ownProvider ? ('organization' as const) : defaults ? ('environment' as const) : ('none' as const),
  };
  if (audience === 'member') {
    return {
      ...summary,
      provider: null,
      base_url: null,
      model: null,
      image_model: null,
      api_key: null,
      environment_default: null,
      updated_at: null,
    };
  }
  return {
    ...summary,
    provider: row?.provider ?? null,
    base_url: row?.baseUrl ?? null,
    model: row?.model ?? null,
    image_model: row?.imageModel ?? null,
    api_key: row?.sealedApiKey ? maskSecret(services.secrets.open(row.sealedApiKey, aiApiKeyPurpose)) : null,
    environment_default: defaults
      ? {
          provider: defaults.provider,
          base_url: defaults.baseUrl ?? null,
          model: defaults.model,
          image_model: defaults.imageModel ?? null,
        }
      : null,
    updated_at: row?.updatedAt ?? null,
  };
}

export async function getAiSettings(
  services: Pick<Services, 'database' | 'secrets' | 'config'>,
  principal: Pick<Principal, 'organizationId' | 'permissions'>,
) {
  const audience = principal.permissions.has('update_organization') ? 'manager' : 'member';
  return toResponse(services, await settingsRowOf(services, principal.organizationId), audience);
}

/**
 * Changes the organization's provider. Each field sent replaces the stored one; the masked key the
 * settings answer shows, sent back as it is, keeps the stored key (the form sends what it shows).
 * A change of provider, or of the base URL's scheme, host or port, drops the stored key unless a
 * new one comes with it (`secrets_cleared` says so): a key is never sent where it was not entered for.
 */
export async function updateAiSettings(
  services: Pick<Services, 'database' | 'secrets' | 'config'>,
  principal: { organizationId: number; userId: number },
  input: Static<typeof UpdateAiSettingsBody>,
) {
  const previous = await settingsRowOf(services, principal.organizationId);
  // An update of nothing writes nothing: the settings read as they were, updated_at included.
  if (!changesAnything(input)) return { ...toResponse(services, previous, 'manager'), secrets_cleared: [] };
  const previousKey = previous?.sealedApiKey
    ? services.secrets.open(previous.sealedApiKey, aiApiKeyPurpose)
    : null;
  const next = {
    provider: input.provider !== undefined ? input.provider : (previous?.provider ?? null),
    baseUrl:
      input.base_url !== undefined
        ? (input.base_url?.replace(/\/+$/, '') ?? null)
        : (previous?.baseUrl ?? null),
    model: input.model !== undefined ? input.model : (previous?.model ?? null),
    imageModel: input.image_model !== undefined ? input.image_model : (previous?.imageModel ?? null),
  };
  // The key goes only where it was entered for: the same provider at the same origin.
  const keepsDestination =
    destinationOf({ provider: previous?.provider ?? null, baseUrl: previous?.baseUrl ?? null }) ===
    destinationOf(next);
  let apiKey = keepsDestination ? previousKey : null;
  if (input.api_key === null) apiKey = null;
  else if (input.api_key !== undefined && !(previousKey && input.api_key === maskSecret(previousKey)))
    apiKey = input.api_key;
  const secretsCleared = previousKey !== null && apiKey === null && input.api_key !== null ? ['api_key'] : [];

  assertSettingsUsable(services, next);
  const values = {
    ...next,
    sealedApiKey: apiKey === null ? null : services.secrets.seal(apiKey, aiApiKeyPurpose),
    updatedById: principal.userId,
  };
  const [row] = await services.database.db
    .insert(organizationAiSettings)
    .values({ organizationId: principal.organizationId, ...values })
    .onConflictDoUpdate({
      target: organizationAiSettings.organizationId,
      set: { ...values, updatedAt: new Date() },
    })
    .returning();
  return { ...toResponse(services, row, 'manager'), secrets_cleared: secretsCleared };
}

/** Where a key is sent: the provider, at its base URL's origin (none: the provider's own public API). */
function destinationOf(settings: { provider: string | null; baseUrl: string | null }): string {
  return `${settings.provider ?? 'none'} at ${settings.baseUrl === null ? 'its public API' : (originOf(settings.baseUrl) ?? settings.baseUrl)}`;
}

function assertSettingsUsable(
  services: Pick<Services, 'config'>,
  settings: { provider: string | null; baseUrl: string | null; model: string | null },
) {
  const errors: Record<string, string[]> = {};
  if (settings.provider && !settings.model) errors.model = ['is needed to use a provider'];
  if (settings.provider === 'openai_compatible' && !settings.baseUrl)
    errors.base_url = ['is needed for an OpenAI-compatible server (e.g. http://ollama.internal:11434/v1)'];
  if (settings.baseUrl) {
    let url: URL | undefined;
    try {
      url = new URL(settings.baseUrl);
    } catch {
      errors.base_url = ['is not a valid URL'];
    }
    if (url && url.protocol !== 'http:' && url.protocol !== 'https:')
      errors.base_url = ['must be an http(s) URL'];
    const host = url?.hostname.replace(/^\[|\]$/g, '') ?? '';
    // Host names are checked when connecting (every address they resolve to); a literal address now.
    if (
      url &&
      isIP(host) !== 0 &&
      isNonPublicAddress(host) &&
      !services.config.outboundFetch.allowPrivateNetwork
    )
      errors.base_url = [
        'is a private or loopback address, which Letterset does not call unless the server sets ALLOW_PRIVATE_NETWORK_FETCH=true',
      ];
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
}

/** Asks the provider for a one-word answer: proves the URL, the key and the model in one call. */
export async function testAiConnection(
  services: Pick<Services, 'database' | 'secrets' | 'config' | 'log'>,
  principal: { organizationId: number; userId: number },
): Promise<Static<typeof AiConnectionTest>> {
  const connection = await loadAiConnection(services, principal.organizationId);
  if (!connection)
    return { ok: false, message: 'No AI provider is set up yet.', model: null, duration_ms: 0 };
  const client = aiClientFor(services, connection, principal);
  const started = performance.now();
  try {
    const reply = await client.generateText({
      feature: 'connection_test',
      messages: [{ role: 'user', content: 'Reply with the single word OK.' }],
    });
    return {
      ok: true,
      message: `The model answered: “${reply.trim().slice(0, 80)}”`,
      model: connection.model,
      duration_ms: Math.round(performance.now() - started),
    };
  } catch (error) {
    if (!(error instanceof AiProviderError)) throw error;
    return {
      ok: false,
      message: error.message,
      model: connection.model,
      duration_ms: Math.round(performance.now() - started),
    };
  }
}

/** Calls and tokens of the last `days` days, per feature and person, most tokens first. */
export async function getAiUsage(
  services: Pick<Services, 'database'>,
  organizationId: number,
  days: number,
): Promise<Static<typeof AiUsage>> {
  const since = new Date(Date.now() - days * 24 * 60 * 60 * 1000);
  const inputTokens = sum(aiUsage.inputTokens).mapWith(Number);
  const outputTokens = sum(aiUsage.outputTokens).mapWith(Number);
  const rows = await services.database.db
    .select({
      feature: aiUsage.feature,
      userId: aiUsage.userId,
      user: userReferenceColumns,
      calls: count(),
      inputTokens,
      outputTokens,
    })
    .from(aiUsage)
    .leftJoin(users, eq(users.id, aiUsage.userId))
    .where(and(eq(aiUsage.organizationId, organizationId), gte(aiUsage.createdAt, since)))
    .groupBy(aiUsage.feature, aiUsage.userId, users.id)
    .orderBy(desc(sum(aiUsage.inputTokens)), aiUsage.feature);
  const results = rows.map((row) => ({
    feature: row.feature as AiFeature,
    user: row.user ? toUserReference(row.user) : null,
    calls: row.calls,
    input_tokens: row.inputTokens ?? 0,
    output_tokens: row.outputTokens ?? 0,
  }));
  return {
    since,
    totals: {
      calls: results.reduce((total, row) => total + row.calls, 0),
      input_tokens: results.reduce((total, row) => total + row.input_tokens, 0),
      output_tokens: results.reduce((total, row) => total + row.output_tokens, 0),
    },
    results,
  };
}
