/**
 * Translation spreadsheet speed, end to end on a real server (its own process, embedded
 * database): an email of the Letterset Starter system with 200 translatable values in all 53
 * locales, downloaded as CSV (GET: load, collect, serialize) and imported back with every cell of
 * the 52 other locales changed (POST: parse, check every text against its field, apply, write one
 * version under the row lock). The baselines, measured in the same run on the same email, are the
 * API's own JSON read (GET the email) and JSON write (PATCH the same content, validated and
 * versioned): the ratios are what a spreadsheet costs over the plain API.
 *   npm run bench:spreadsheets -w @letterset/bench     (BENCH_SPREADSHEET_RUNS, BENCH_DATABASE_URL to tune)
 */
import { type ComponentDefinition, type EmailContent, localeCodes } from '@letterset/core';
import { type BenchAccount, createBenchAccount } from './lib/account.ts';
import { starterAndProject } from './lib/email-fixture.ts';
import { startLetterset } from './lib/servers.ts';

const runs = Number(process.env.BENCH_SPREADSHEET_RUNS ?? 7);
const valueCount = 200;
const targetMs = 1000;

async function call(origin: string, account: BenchAccount, method: string, path: string, body?: unknown) {
  const isForm = body instanceof FormData;
  const response = await fetch(`${origin}/api/v1${path}`, {
    method,
    headers: { ...account.headers, ...(body && !isForm ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path} failed: ${response.status} ${await response.text()}`);
  return response;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

async function timed(action: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await action();
  return performance.now() - started;
}

/** A text that fits the field's length limit, with room for the ` v12` each import appends. */
function fitting(text: string, limit: unknown): string {
  return typeof limit === 'number' ? text.slice(0, limit - 4) : text;
}

const letterset = await startLetterset(3114);
try {
  const origin = letterset.origin;
  const account = await createBenchAccount(origin);
  const workspace = `/workspaces/${account.workspaceId}`;
  const { system, project, components: listed } = await starterAndProject(origin, account);
  const components = listed as unknown as ComponentDefinition[];
  const translatableFields = (component: ComponentDefinition) =>
    component.field_definitions.filter((field) => field.type === 'text' || field.type === 'rich_text');
  const container = components.find((component) => component.container);
  if (!container) throw new Error('no container');
  const body = components.filter(
    (component) => !component.container && translatableFields(component).length > 0,
  );

  // Subject and preheader, the container's fields, then instances until there are 200 values.
  let remaining = valueCount - 2 - translatableFields(container).length;
  const chosen: ComponentDefinition[] = [];
  for (let index = 0; remaining > 0; index += 1) {
    const candidates = body.filter((component) => translatableFields(component).length <= remaining);
    const component = candidates[index % candidates.length];
    if (!component) throw new Error('no component fits');
    chosen.push(component);
    remaining -= translatableFields(component).length;
  }

  const locales = [...localeCodes];
  const defaultLocale = 'en-US';
  const valuesOf = (component: ComponentDefinition, index: number, locale: string, marker = '') => {
    const values: Record<string, { value: string }> = {};
    for (const field of translatableFields(component)) {
      values[field.liquid_variable] = {
        value:
          field.type === 'rich_text'
            ? `<p>${field.label} ${index} in ${locale}${marker} with <strong>bold</strong> words.</p>`
            : fitting(`${field.label} ${index} ${locale}${marker}`, field.validations?.max_length),
      };
    }
    return values;
  };
  const perLocale = (make: (locale: string) => string) =>
    Object.fromEntries(locales.map((locale) => [locale, make(locale)]));

  const email = (await (
    await call(origin, account, 'POST', `${workspace}/emails`, {
      name: 'Bench spreadsheet',
      email_design_system_id: system.id,
      project_id: project.id,
      default_locale: defaultLocale,
      locales,
    })
  ).json()) as { id: number; email_content: EmailContent };
  const content: EmailContent = {
    ...email.email_content,
    subject: { branch_content: { null_branch: perLocale((locale) => `Spring sale (${locale})`) } },
    preheader: { branch_content: { null_branch: perLocale((locale) => `Ten days only (${locale})`) } },
    container_component_instance: {
      ...email.email_content.container_component_instance,
      field_values: {
        null_branch: Object.fromEntries(locales.map((locale) => [locale, valuesOf(container, 0, locale)])),
      },
    },
    component_instances: chosen.map((component, index) => ({
      id: crypto.randomUUID(),
      component_id: component.id,
      field_values: {
        null_branch: Object.fromEntries(
          locales.map((locale) => [locale, valuesOf(component, index + 1, locale)]),
        ),
      },
    })),
  };
  await call(origin, account, 'PATCH', `${workspace}/emails/${email.id}`, { email_content: content });

  const sheetPath = `${workspace}/emails/${email.id}/translation_spreadsheets`;
  const download = async () => (await call(origin, account, 'GET', sheetPath)).text();
  const csv = await download();
  const rows = csv.trimEnd().split('\r\n').length - 1;
  if (rows !== valueCount) throw new Error(`expected ${valueCount} rows, the spreadsheet has ${rows}`);

  /** The spreadsheet with every cell of the other locales changed: each import writes them all. */
  let generation = 0;
  const changedSheet = () => {
    generation += 1;
    const lines = csv.split('\r\n');
    // Cells hold no quotes, commas or line breaks here: marking the end of each target cell is safe.
    return lines
      .map((line, index) => {
        if (index === 0 || line === '') return line;
        const cells = line.split(',');
        return cells
          .map((cell, column) => (column >= 4 && cell !== '' ? `${cell} v${generation}` : cell))
          .join(',');
      })
      .join('\r\n');
  };
  if (/"/.test(csv)) throw new Error('the bench spreadsheet must hold no quoted cells');
  const upload = async (text: string) => {
    const form = new FormData();
    form.append('csv_file', new Blob([text], { type: 'text/csv' }), 'bench.csv');
    const result = (await (await call(origin, account, 'POST', sheetPath, form)).json()) as {
      changed: Record<string, number>;
    };
    const changed = Object.values(result.changed).reduce((sum, count) => sum + count, 0);
    if (changed !== valueCount * (locales.length - 1))
      throw new Error(`expected every cell to change, ${changed} did`);
  };

  const readEmail = () =>
    call(origin, account, 'GET', `${workspace}/emails/${email.id}`).then((r) => r.json());
  let patchGeneration = 0;
  const patchEmail = async () => {
    patchGeneration += 1;
    const current = (await readEmail()) as { email_content: EmailContent };
    const next = structuredClone(current.email_content);
    next.subject.branch_content.null_branch = perLocale(
      (locale) => `Spring sale (${locale}) p${patchGeneration}`,
    );
    const started = performance.now();
    await call(origin, account, 'PATCH', `${workspace}/emails/${email.id}`, { email_content: next });
    return performance.now() - started;
  };

  // Warm-up, then interleaved runs.
  await download();
  await upload(changedSheet());
  await readEmail();
  await patchEmail();
  const times = {
    export: [] as number[],
    import: [] as number[],
    read: [] as number[],
    write: [] as number[],
  };
  for (let run = 0; run < runs; run += 1) {
    times.read.push(await timed(readEmail));
    times.export.push(await timed(download));
    times.write.push(await patchEmail());
    const sheet = changedSheet();
    times.import.push(await timed(() => upload(sheet)));
  }

  const m = Object.fromEntries(Object.entries(times).map(([name, list]) => [name, median(list)])) as Record<
    keyof typeof times,
    number
  >;
  const csvBytes = new TextEncoder().encode(csv).length;
  const format = (ms: number) => ms.toFixed(0).padStart(6);
  console.log(
    `Translation spreadsheets: ${valueCount} translatable values × ${locales.length} locales (Letterset Starter, ${chosen.length} instances), ` +
      `CSV of ${(csvBytes / 1024).toFixed(0)} KB, ${runs} runs after a warm-up, Node ${process.version}\n`,
  );
  console.log(`Baseline: GET the email (JSON)                                  median ${format(m.read)} ms`);
  console.log(`Baseline: PATCH the email content (validated, one version)      median ${format(m.write)} ms`);
  console.log(
    `CSV export, GET (load, collect, serialize)                      median ${format(m.export)} ms   (runs: ${times.export.map((t) => t.toFixed(0)).join(', ')})`,
  );
  console.log(
    `CSV import, POST ${valueCount * (locales.length - 1)} changed cells (parse, validate, apply, one version)  median ${format(m.import)} ms   (runs: ${times.import.map((t) => t.toFixed(0)).join(', ')})`,
  );
  console.log('');
  console.log(`CSV export vs GET of the email: ${(m.export / m.read).toFixed(2)}x its time`);
  console.log(`CSV import vs PATCH of the content: ${(m.import / m.write).toFixed(2)}x its time`);
  console.log(
    `Target ≤ ${targetMs} ms each: export ${m.export <= targetMs ? 'met' : 'NOT met'}, import ${m.import <= targetMs ? 'met' : 'NOT met'}`,
  );
} finally {
  await letterset.stop();
}
