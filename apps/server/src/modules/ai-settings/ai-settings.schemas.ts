import { Type } from 'typebox';
import { aiProviderNames } from '../../config.ts';
import { Identifier, RequestBody, ref, Text, Timestamp, Url } from '../../http/schemas.ts';
import { aiFeatures } from '../../integrations/ai/ai-client.ts';
import { SecretsCleared } from '../../security/secret-destination.ts';
import { UserReference } from '../users/users.schemas.ts';

const ProviderName = Type.Enum([...aiProviderNames], {
  description:
    '`openai`, `anthropic`, or `openai_compatible` for any server that speaks the OpenAI chat completions API (Ollama, vLLM, LM Studio)',
});

const ProviderSummary = Type.Object({
  provider: ProviderName,
  base_url: Type.Union([Type.String(), Type.Null()]),
  model: Type.String(),
  image_model: Type.Union([Type.String(), Type.Null()]),
});

export const AiSettings = Type.Object(
  {
    configured: Type.Boolean({ description: 'Whether AI features work for this organization' }),
    source: Type.Enum(['organization', 'environment', 'none'], {
      description:
        '`organization`: the provider below, set in Settings › AI; `environment`: the server’s default provider; `none`: AI is off',
    }),
    provider: Type.Union([ProviderName, Type.Null()]),
    base_url: Type.Union([Type.String(), Type.Null()]),
    model: Type.Union([Type.String(), Type.Null()]),
    image_model: Type.Union([Type.String(), Type.Null()]),
    api_key: Type.Union([Type.String(), Type.Null()], {
      description: 'The stored key, masked (at most its last 4 characters); null when none is stored',
    }),
    environment_default: Type.Union([ProviderSummary, Type.Null()], {
      description: 'The server’s default provider, used while the organization sets none',
    }),
    updated_at: Type.Union([Timestamp, Type.Null()]),
    secrets_cleared: SecretsCleared,
  },
  { $id: 'AiSettings' },
);

const ModelName = Identifier({ maxLength: 200, examples: ['gpt-4.1-mini'] });

export const UpdateAiSettingsBody = RequestBody({
  provider: Type.Optional(
    Type.Union([ProviderName, Type.Null()], {
      description: 'null removes the organization’s provider: the server’s default (if any) applies again',
    }),
  ),
  base_url: Type.Optional(
    Type.Union([Url({ minLength: 1 }), Type.Null()], {
      description:
        'Needed for `openai_compatible` (e.g. http://ollama.internal:11434/v1); unset for the public APIs',
    }),
  ),
  model: Type.Optional(Type.Union([ModelName, Type.Null()])),
  image_model: Type.Optional(
    Type.Union([Identifier({ maxLength: 200, examples: ['gpt-image-1'] }), Type.Null()], {
      description: 'For image generation, e.g. gpt-image-1',
    }),
  ),
  api_key: Type.Optional(
    Type.Union([Text({ minLength: 1 }), Type.Null()], {
      description:
        'Stored encrypted and never returned; the masked value the settings answer shows keeps it; null removes it. ' +
        'A change of provider, or of the base URL’s scheme, host or port, drops the stored key unless this field ' +
        'gives a new one (secrets_cleared then lists api_key)',
    }),
  ),
});

export const AiConnectionTest = Type.Object(
  {
    ok: Type.Boolean(),
    message: Type.String({ description: 'What the provider answered, in plain words' }),
    model: Type.Union([Type.String(), Type.Null()]),
    duration_ms: Type.Integer(),
  },
  { $id: 'AiConnectionTest' },
);

export const AiUsageQuery = Type.Object({
  days: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 366, default: 30, description: 'How many days back' }),
  ),
});

export const AiUsage = Type.Object(
  {
    since: Timestamp,
    totals: Type.Object({
      calls: Type.Integer(),
      input_tokens: Type.Integer(),
      output_tokens: Type.Integer(),
    }),
    results: Type.Array(
      Type.Object({
        feature: Type.Enum([...aiFeatures]),
        user: Type.Union([ref(UserReference), Type.Null()], {
          description: 'On whose behalf; null for work no person started (or a deleted user)',
        }),
        calls: Type.Integer(),
        input_tokens: Type.Integer(),
        output_tokens: Type.Integer(),
      }),
    ),
  },
  { $id: 'AiUsage' },
);
