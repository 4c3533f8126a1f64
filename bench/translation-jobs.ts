/**
 * AI translation's own cost: a 30-component email translated into 10 locales, with a model that
 * answers at once (servers/instant-model.ts), so what is measured is Letterset's work per locale:
 * the job queue, reading the email, masking and checking every value, writing the locale's content
 * version and its status. Several rounds, each a fresh translation of the same email.
 *   npm run bench:translations -w @letterset/bench      (BENCH_ROUNDS for the number of rounds)
 */
import path from 'node:path';
import { createBenchAccount } from './lib/account.ts';
import { starterAndProject } from './lib/email-fixture.ts';
import { startLetterset, startServer } from './lib/servers.ts';

const componentCount = 30;
const targetLocales = [
  'de-DE',
  'fr-FR',
  'es-ES',
  'it-IT',
  'nl-NL',
  'pt-BR',
  'sv-SE',
  'pl-PL',
  'ja-JP',
  'da-DK',
];
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);

const model = await startServer(path.join(import.meta.dirname, 'servers/instant-model.ts'), {
  port: 3121,
  readyPath: '/health',
});
const letterset = await startLetterset(3122, {
  AI_PROVIDER: 'openai_compatible',
  AI_BASE_URL: `${model.origin}/v1`,
  AI_MODEL: 'instant',
});
try {
  const account = await createBenchAccount(letterset.origin);
  const workspace = `${letterset.origin}/api/v1/workspaces/${account.workspaceId}`;
  const call = async <T>(method: string, url: string, body?: object): Promise<T> => {
    const response = await fetch(url, {
      method,
      headers: { ...account.headers, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  };
  const { system, components, project } = await starterAndProject(letterset.origin, account);
  const bodyComponents = components.filter((component) => !component.container);
  const email = await call<{ id: number; email_content: Record<string, unknown> }>(
    'POST',
    `${workspace}/emails`,
    {
      name: 'Translation bench',
      email_design_system_id: system.id,
      project_id: project.id,
    },
  );
  // Text values with Liquid in them, so that masking and checking do their whole work.
  await call('PATCH', `${workspace}/emails/${email.id}`, {
    email_content: {
      ...email.email_content,
      subject: { branch_content: { null_branch: { 'en-US': 'Hello {{ first_name }}, spring is here' } } },
      component_instances: Array.from({ length: componentCount }, (_, index) => {
        const component = bodyComponents[index % bodyComponents.length];
        if (!component) throw new Error('no components');
        const values = Object.fromEntries(
          component.field_definitions
            .filter((field) => field.type === 'text')
            .map((field) => [field.liquid_variable, { value: `Hi {{ name }} ${index}` }]),
        );
        return {
          id: crypto.randomUUID(),
          component_id: component.id,
          field_values: { null_branch: { 'en-US': values } },
        };
      }),
    },
  });

  const perLocale: number[] = [];
  let values = 0;
  for (let round = 1; round <= rounds; round++) {
    const started = performance.now();
    const translation = await call<{ id: number }>(
      'POST',
      `${workspace}/emails/${email.id}/email_translations`,
      {
        target_locales: targetLocales,
      },
    );
    let done: { status: string; locale_statuses: Record<string, { translated_values: number | null }> };
    for (;;) {
      done = await call('GET', `${workspace}/emails/${email.id}/email_translations/${translation.id}`);
      if (done.status !== 'in_progress') break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const elapsed = performance.now() - started;
    if (done.status !== 'completed')
      throw new Error(`round ${round} ended ${done.status}: ${JSON.stringify(done.locale_statuses)}`);
    values = done.locale_statuses['de-DE']?.translated_values ?? 0;

    perLocale.push(elapsed / targetLocales.length);
    console.log(`round ${round}: ${targetLocales.length} locales in ${elapsed.toFixed(0)} ms`);
  }
  const modelRequests = ((await (await fetch(`${model.origin}/health`)).json()) as { requests: number })
    .requests;
  const sorted = [...perLocale].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
  console.log(
    `\n${componentCount} components (${values} translatable values) into ${targetLocales.length} locales, ${rounds} rounds, ${modelRequests} model requests answered at once`,
  );
  console.log(
    `Letterset's own time per locale: median ${median.toFixed(1)} ms, best ${sorted[0]?.toFixed(1)} ms, worst ${sorted.at(-1)?.toFixed(1)} ms (target ≤ 100 ms)`,
  );
} finally {
  await letterset.stop();
  await model.stop();
}
