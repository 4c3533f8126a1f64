/**
 * `npm run eval:ai`: ten briefs (scripts/eval-briefs.json) written as emails over the Letterset
 * Starter design system by whatever provider the environment names (AI_PROVIDER, AI_BASE_URL,
 * AI_MODEL, AI_API_KEY), through the same prompts, schema, checks and repairs as the product.
 * Prints, per brief: valid on the first answer, repairs asked, problems left, sections, time and
 * tokens. Nothing is written anywhere; not part of CI (it needs a real model).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  applyBrandProfile,
  type ComposedEmail,
  componentsForAi,
  composeEmailSchema,
  definitionsFromImport,
  readComposedEmail,
  starterDesignSystem,
} from '@letterset/core';
import type { JSONSchema7 } from 'ai';
import { loadConfig } from '../src/config.ts';
import { AiClient, type UsageEntry } from '../src/integrations/ai/ai-client.ts';
import { generateWithRepairs } from '../src/integrations/ai/generate-with-repairs.ts';
import { composeEmailPrompt } from '../src/modules/ai-generation/prompts.ts';

const config = loadConfig();
if (!config.aiDefaults) {
  console.error(
    'Set a provider first, e.g. AI_PROVIDER=openai_compatible AI_BASE_URL=http://127.0.0.1:11434/v1 AI_MODEL=llama3.1 npm run eval:ai',
  );
  process.exit(2);
}
const briefs = JSON.parse(readFileSync(path.join(import.meta.dirname, 'eval-briefs.json'), 'utf8')) as {
  name: string;
  brief: string;
}[];
const starter = definitionsFromImport(starterDesignSystem({ imagesUrl: 'https://example.com/starter' }));
const components = componentsForAi(applyBrandProfile(starter.components, null));
const schema = composeEmailSchema(components) as JSONSchema7;

let usage: UsageEntry[] = [];
const client = new AiClient(
  { ...config.aiDefaults, source: 'environment' },
  { allowPrivateNetwork: true, recordUsage: async (entry) => void usage.push(entry) },
);

console.log(`Provider ${config.aiDefaults.provider}, model ${config.aiDefaults.model}\n`);
const rows = [];
for (const { name, brief } of briefs) {
  usage = [];
  const started = performance.now();
  try {
    const generation = await generateWithRepairs<ComposedEmail>(client, {
      feature: 'email_generation',
      ...composeEmailPrompt({ brief, components, agentDescription: null, locale: 'en-US' }),
      schema,
      read: (value) => {
        const composed = readComposedEmail(value, components, starter.designSystem.custom_styles);
        return { result: composed, problems: composed.problems };
      },
    });
    rows.push({
      brief: name,
      'valid first': generation.repairs === 0 && generation.problems.length === 0 ? 'yes' : 'no',
      repairs: generation.repairs,
      'problems left': generation.problems.length,
      sections: generation.result?.sections.length ?? 0,
      seconds: ((performance.now() - started) / 1000).toFixed(1),
      'tokens in': usage.reduce((total, entry) => total + entry.inputTokens, 0),
      'tokens out': usage.reduce((total, entry) => total + entry.outputTokens, 0),
    });
  } catch (error) {
    rows.push({
      brief: name,
      'valid first': 'error',
      error: error instanceof Error ? error.message : String(error),
    });
  }
}
console.table(rows);
const valid = rows.filter((row) => row['valid first'] === 'yes').length;
console.log(`${valid} of ${rows.length} briefs valid on the first answer`);
