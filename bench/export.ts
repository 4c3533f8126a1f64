/**
 * Export speed, end to end on a real server (its own process, embedded database, job worker): a
 * 30-component email of the Letterset Starter system in all 53 locales, exported as html (zip with
 * the images) from the POST (which runs the pre-send checks) until the job has stored the zip, and
 * once as pdf. The baseline, measured in the same run, is the engine alone rendering the same 53
 * locales as the export does (CSS inlined, plain text) in this process: the ratio is the export's
 * cost over that of its renders.
 *   npm run bench:export -w @letterset/bench     (BENCH_EXPORT_RUNS, BENCH_DATABASE_URL to tune)
 */
import { type ComponentDefinition, type EmailContent, localeCodes, render } from '@letterset/core';
import { type BenchAccount, createBenchAccount } from './lib/account.ts';
import { starterAndProject } from './lib/email-fixture.ts';
import { startLetterset } from './lib/servers.ts';

const runs = Number(process.env.BENCH_EXPORT_RUNS ?? 5);
const componentCount = 30;
const targetMs = 1500;

async function api<T>(origin: string, account: BenchAccount, method: string, path: string, body?: unknown) {
  const isForm = body instanceof FormData;
  const response = await fetch(`${origin}/api/v1${path}`, {
    method,
    headers: { ...account.headers, ...(body && !isForm ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path} failed: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** A 1×1 PNG, for a library image every locale shows. */
const pixel = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

const letterset = await startLetterset(3103);
try {
  const origin = letterset.origin;
  const account = await createBenchAccount(origin);
  const workspace = `/workspaces/${account.workspaceId}`;
  const starter = await starterAndProject(origin, account);
  const { system, project } = starter;
  // The API answers whole components; the fixture's type names only what its own emails use.
  const components = starter.components as unknown as ComponentDefinition[];
  const systemDetail = await api<{
    id: number;
    name: string;
    design_tokens: Record<string, unknown>;
    custom_styles: [];
  }>(origin, account, 'GET', `${workspace}/email_design_systems/${system.id}`);
  const form = new FormData();
  form.append('name', 'Pixel');
  form.append('file', new Blob([pixel], { type: 'image/png' }), 'pixel.png');
  const image = await api<{ public_url: string }>(origin, account, 'POST', `${workspace}/images`, form);

  const body = components.filter((component) => !component.container);
  const container = components.find((component) => component.container);
  if (!container) throw new Error('no container');
  const locales = [...localeCodes];
  const perLocale = (make: (locale: string) => string) =>
    Object.fromEntries(locales.map((locale) => [locale, make(locale)]));
  const email = await api<{ id: number; email_content: EmailContent }>(
    origin,
    account,
    'POST',
    `${workspace}/emails`,
    {
      name: 'Bench export',
      email_design_system_id: system.id,
      project_id: project.id,
      locales,
    },
  );
  const content: EmailContent = {
    ...email.email_content,
    subject: { branch_content: { null_branch: perLocale((locale) => `Spring sale (${locale})`) } },
    preheader: { branch_content: { null_branch: perLocale((locale) => `Ten days only (${locale})`) } },
    component_instances: Array.from({ length: componentCount }, (_, index) => {
      const component = body[index % body.length] as ComponentDefinition;
      const values = (locale: string) => {
        const fields: Record<string, { value: string }> = {};
        for (const field of component.field_definitions) {
          if (field.type === 'text') fields[field.liquid_variable] = { value: `Text ${index} in ${locale}` };
          if (field.type === 'image') fields[field.liquid_variable] = { value: image.public_url };
          if (field.type === 'url') fields[field.liquid_variable] = { value: `https://example.com/${index}` };
        }
        return fields;
      };
      return {
        id: crypto.randomUUID(),
        component_id: component.id,
        field_values: { null_branch: Object.fromEntries(locales.map((locale) => [locale, values(locale)])) },
      };
    }),
  };
  await api(origin, account, 'PATCH', `${workspace}/emails/${email.id}`, { email_content: content });

  async function exportOnce(exportType: 'html' | 'pdf'): Promise<number> {
    const started = performance.now();
    const created = await api<{ id: number }>(origin, account, 'POST', `${workspace}/exports`, {
      email_id: email.id,
      export_type: exportType,
      options: { locales, ...(exportType === 'html' ? { image_mode: 'include_in_zip' } : {}) },
    });
    for (;;) {
      const current = await api<{ status: string; export_errors: object }>(
        origin,
        account,
        'GET',
        `${workspace}/exports/${created.id}`,
      );
      if (current.status === 'completed') return performance.now() - started;
      if (current.status === 'failed')
        throw new Error(`export failed: ${JSON.stringify(current.export_errors)}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  // The baseline: the engine alone, the same 53 renders the export makes.
  const renderAll = () => {
    for (const locale of locales) {
      render({
        designSystem: { ...systemDetail, custom_styles: systemDetail.custom_styles ?? [] },
        components,
        brandProfile: null,
        content,
        locale,
        mode: 'export',
        strict: true,
        inlineCss: true,
        dynamicContent: {},
      }).plainText;
    }
  };
  renderAll();
  await exportOnce('html');
  const renderTimes: number[] = [];
  const exportTimes: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const started = performance.now();
    renderAll();
    renderTimes.push(performance.now() - started);
    exportTimes.push(await exportOnce('html'));
  }
  const pdfMs = await exportOnce('pdf');

  const exportMedian = median(exportTimes);
  const renderMedian = median(renderTimes);
  console.log(
    `Export: ${componentCount}-component email (Letterset Starter) in ${locales.length} locales, ${runs} runs after a warm-up, Node ${process.version}\n`,
  );
  console.log(
    `Baseline: render() ×${locales.length} in-process (CSS inlined, plain text)  median ${renderMedian.toFixed(0).padStart(6)} ms`,
  );
  console.log(
    `html export, POST to zip stored (checks, job, zip)        median ${exportMedian.toFixed(0).padStart(6)} ms   (runs: ${exportTimes.map((time) => time.toFixed(0)).join(', ')})`,
  );
  console.log(
    `pdf export of ${locales.length} locales, POST to PDF stored                    ${pdfMs.toFixed(0).padStart(6)} ms`,
  );
  console.log('');
  console.log(`html export vs the renders alone: ${(exportMedian / renderMedian).toFixed(2)}x their time`);
  console.log(`Target ≤ ${targetMs} ms for the html export: ${exportMedian <= targetMs ? 'met' : 'NOT met'}`);
} finally {
  await letterset.stop();
}
