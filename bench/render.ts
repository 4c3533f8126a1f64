/**
 * Render speed: a 20-component email built from the Letterset Starter design system, rendered by
 * @letterset/core, against the same content written in MJML and rendered by the `mjml` package in
 * the same process. Medians and 95th percentiles of many runs after a warm-up, taken in interleaved
 * blocks; the ratio of medians is what to compare across machines and changes.
 *
 * The export path is what an export does per locale: render in export mode, inline the CSS and
 * make the plain text. The plain text is written straight from the document the inliner parsed
 * (core's plain-text writer), not by html-to-text parsing the inlined HTML again. Its reference
 * row does the same work through juice on the whole document and html-to-text on juice's HTML,
 * which is how Letterset worked before, so the two can be compared in one run; before measuring,
 * the two are checked to give the same HTML and the same plain text.
 *   npm run bench:render -w @letterset/bench      (BENCH_RUNS to change the number of runs)
 */
import {
  type ComponentInstance,
  definitionsFromImport,
  inlineCssWithJuice,
  type RenderInput,
  render,
  starterDesignSystem,
  toPlainText,
} from '@letterset/core';
import mjml2html from 'mjml';

const runs = Number(process.env.BENCH_RUNS ?? 200);
const warmUp = 50;
const blockSize = 10;
const locale = 'en-US';
const starter = definitionsFromImport(
  starterDesignSystem({ imagesUrl: 'https://files.example.com/starter' }),
);
const idOf = (name: string) => {
  const component = starter.components.find((candidate) => candidate.name === name);
  if (!component) throw new Error(`The starter has no ${name} component`);
  return component.id;
};

let counter = 0;
function instance(name: string, values: Record<string, string | number | boolean> = {}): ComponentInstance {
  counter += 1;
  const fieldValues: Record<string, { value: string | number | boolean }> = {};
  for (const [key, value] of Object.entries(values)) fieldValues[key] = { value };
  return {
    id: `00000000-0000-4000-8000-${String(counter).padStart(12, '0')}`,
    component_id: idOf(name),
    field_values: { null_branch: { [locale]: fieldValues } },
  };
}

const products = [
  ['Linen shirt', '$59.00'],
  ['Canvas tote', '$24.00'],
  ['Straw hat', '$32.00'],
  ['Sandals', '$78.00'],
] as const;

// Twenty components, the shape of a typical retail newsletter.
const instances: ComponentInstance[] = [
  instance('header', { show_view_online: true }),
  instance('hero', {
    headline: 'Spring is here',
    subheadline: 'Ten new things for warmer days & longer evenings.',
  }),
  instance('heading', { text: 'New this week' }),
  instance('rich_text', {
    body: '<p>Hello! Our <strong>spring collection</strong> has landed. Here is what our team is <em>wearing</em> this season, with <a href="https://example.com/spring">free returns</a>.</p><ul><li>Light fabrics</li><li>Bright colors</li></ul>',
  }),
  instance('button', {
    text: 'Shop the collection',
    url: 'https://example.com/spring?utm_source=email&utm_medium=newsletter',
  }),
  instance('divider'),
  instance('image_text', { headline: 'Made to last', image_position: 'left' }),
  instance('image_text', { headline: 'Packed in paper', image_position: 'right' }),
  instance('spacer', { height: 16 }),
  ...products.map(([name, price]) => instance('product_card', { name, price })),
  instance('divider'),
  instance('heading', { text: 'From the journal' }),
  instance('image', { image_alt: 'A picnic in the park', link_url: 'https://example.com/journal' }),
  instance('rich_text', { body: '<p>Five picnic spots our customers love, and what to pack for each.</p>' }),
  instance('button', {
    text: 'Read the story',
    url: 'https://example.com/journal/picnics',
    style: 'secondary',
  }),
  instance('social_links'),
  instance('footer', { unsubscribe_url: 'https://example.com/unsubscribe?u=123' }),
];
if (instances.length !== 20) throw new Error(`Expected 20 components, built ${instances.length}`);

const input: RenderInput = {
  designSystem: starter.designSystem,
  components: starter.components,
  brandProfile: null,
  content: {
    subject: { branch_content: { null_branch: { [locale]: 'Spring is here' } } },
    preheader: { branch_content: { null_branch: { [locale]: 'Ten new things for warmer days' } } },
    container_component_instance: {
      id: '00000000-0000-4000-8000-000000000000',
      component_id: starter.containerComponentId,
      field_values: {},
    },
    component_instances: instances,
  },
  locale,
  mode: 'export',
  email: { id: 1, name: 'Spring newsletter' },
};

const productSections = products
  .map(
    ([name, price]) => `
    <mj-section padding="16px 32px"><mj-column border="1px solid #e2e6ea" border-radius="6px">
      <mj-image src="https://placehold.co/1068x712/f3f4f6/1f2933/png?text=Product" alt="${name}" padding="0" />
      <mj-table padding="20px 24px 0"><tr><td style="font-family: Georgia, serif; font-size: 20px; font-weight: bold;">${name}</td><td align="right" style="font-size: 20px; font-weight: bold;">${price}</td></tr></mj-table>
      <mj-text color="#5f6b7a" padding="8px 24px 0">A line on what makes it worth having.</mj-text>
      <mj-button background-color="#2f5bea" href="https://example.com/products/1" align="left" padding="20px 24px 24px">Buy now</mj-button>
    </mj-column></mj-section>`,
  )
  .join('');

const imageText = (headline: string, direction: 'ltr' | 'rtl') => `
    <mj-section direction="${direction}" padding="24px 32px">
      <mj-column><mj-image src="https://placehold.co/512x384/e8edfd/2f5bea/png?text=Image" width="256px" padding="0" border-radius="6px" /></mj-column>
      <mj-column><mj-text font-family="Georgia, serif" font-size="20px" padding="0 0 8px 24px">${headline}</mj-text>
        <mj-text padding="0 0 0 24px"><p>Two or three sentences about it, and a link to <a href="https://example.com">read more</a>.</p></mj-text></mj-column>
    </mj-section>`;

const mjmlSource = `<mjml>
  <mj-head>
    <mj-title>Spring is here</mj-title>
    <mj-preview>Ten new things for warmer days</mj-preview>
    <mj-attributes><mj-all font-family="Helvetica, Arial, sans-serif" /><mj-text font-size="16px" line-height="24px" color="#1f2933" /></mj-attributes>
    <mj-style>@media (prefers-color-scheme: dark) { .dark-bg { background-color: #0f1216 !important; } }</mj-style>
  </mj-head>
  <mj-body background-color="#f3f4f6" width="600px">
    <mj-section background-color="#ffffff" padding="24px 32px 8px"><mj-column>
      <mj-image src="https://placehold.co/240x60/2f5bea/ffffff/png?text=Letterset" width="120px" align="left" padding="0" />
      <mj-text font-size="12px" color="#5f6b7a" padding="12px 0 0"><a href="https://example.com/view-online">View in your browser</a></mj-text>
    </mj-column></mj-section>
    <mj-section padding="0"><mj-column><mj-image src="https://placehold.co/1200x600/e8edfd/2f5bea/png?text=Hero" padding="0" /></mj-column></mj-section>
    <mj-section padding="32px"><mj-column>
      <mj-text align="center" font-family="Georgia, serif" font-size="32px" line-height="40px" font-weight="bold">Spring is here</mj-text>
      <mj-text align="center" color="#5f6b7a">Ten new things for warmer days &amp; longer evenings.</mj-text>
      <mj-button background-color="#2f5bea" href="https://example.com">Find out more</mj-button>
    </mj-column></mj-section>
    <mj-section padding="24px 32px 8px"><mj-column><mj-text font-family="Georgia, serif" font-size="24px">New this week</mj-text></mj-column></mj-section>
    <mj-section padding="16px 32px"><mj-column><mj-text><p>Hello! Our <strong>spring collection</strong> has landed. Here is what our team is <em>wearing</em> this season, with <a href="https://example.com/spring">free returns</a>.</p><ul><li>Light fabrics</li><li>Bright colors</li></ul></mj-text></mj-column></mj-section>
    <mj-section padding="16px 32px"><mj-column><mj-button background-color="#2f5bea" href="https://example.com/spring?utm_source=email&amp;utm_medium=newsletter">Shop the collection</mj-button></mj-column></mj-section>
    <mj-section padding="16px 32px"><mj-column><mj-divider border-color="#e2e6ea" border-width="1px" /></mj-column></mj-section>
    ${imageText('Made to last', 'ltr')}
    ${imageText('Packed in paper', 'rtl')}
    <mj-section padding="0"><mj-column><mj-spacer height="16px" /></mj-column></mj-section>
    ${productSections}
    <mj-section padding="16px 32px"><mj-column><mj-divider border-color="#e2e6ea" border-width="1px" /></mj-column></mj-section>
    <mj-section padding="24px 32px 8px"><mj-column><mj-text font-family="Georgia, serif" font-size="24px">From the journal</mj-text></mj-column></mj-section>
    <mj-section padding="16px 32px"><mj-column><mj-image src="https://placehold.co/1072x600/e2e6ea/5f6b7a/png?text=Image" alt="A picnic in the park" href="https://example.com/journal" width="536px" border-radius="6px" /></mj-column></mj-section>
    <mj-section padding="16px 32px"><mj-column><mj-text><p>Five picnic spots our customers love, and what to pack for each.</p></mj-text></mj-column></mj-section>
    <mj-section padding="16px 32px"><mj-column><mj-button background-color="#e8edfd" color="#1f3fb0" href="https://example.com/journal/picnics">Read the story</mj-button></mj-column></mj-section>
    <mj-section padding="16px 32px"><mj-column><mj-social mode="horizontal" icon-size="32px">
      <mj-social-element name="facebook" href="https://facebook.com/" />
      <mj-social-element name="instagram" href="https://instagram.com/" />
      <mj-social-element name="linkedin" href="https://linkedin.com/" />
    </mj-social></mj-column></mj-section>
    <mj-section padding="32px"><mj-column>
      <mj-text align="center" font-size="12px" color="#5f6b7a"><p>You are receiving this email because you signed up at example.com.</p></mj-text>
      <mj-text align="center" font-size="12px" color="#5f6b7a">Letterset, 1 Example Street, Springfield</mj-text>
      <mj-text align="center" font-size="12px" color="#5f6b7a"><a href="https://example.com/unsubscribe?u=123">Unsubscribe</a></mj-text>
    </mj-column></mj-section>
  </mj-body>
</mjml>`;

function percentile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  const position = (sorted.length - 1) * fraction;
  const below = sorted[Math.floor(position)] ?? 0;
  const above = sorted[Math.ceil(position)] ?? 0;
  return below + (above - below) * (position - Math.floor(position));
}

interface Case {
  label: string;
  once: () => unknown | Promise<unknown>;
  samples: number[];
  /** CPU time (user + system, all threads) per run, one entry a block. */
  cpuPerRun: number[];
}

/**
 * Every case is warmed up first, then the runs are taken in interleaved blocks (a block of each
 * case in turn), so a change in the machine's load during the benchmark falls on all of them
 * alike instead of on whichever case happened to run at that moment.
 */
async function measureInterleaved(cases: Case[]): Promise<void> {
  for (const { once } of cases) for (let run = 0; run < warmUp; run += 1) await once();
  for (let done = 0; done < runs; done += blockSize) {
    for (const { once, samples, cpuPerRun } of cases) {
      const end = Math.min(runs, done + blockSize);
      const cpuBefore = process.cpuUsage();
      for (let run = done; run < end; run += 1) {
        const started = performance.now();
        await once();
        samples.push(performance.now() - started);
      }
      const cpu = process.cpuUsage(cpuBefore);
      cpuPerRun.push((cpu.user + cpu.system) / 1000 / (end - done));
    }
  }
}

interface Summary {
  median: number;
  p95: number;
  cpu: number;
}

function summary({ samples, cpuPerRun }: Case): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  const cpu = percentile(
    [...cpuPerRun].sort((a, b) => a - b),
    0.5,
  );
  return { median: percentile(sorted, 0.5), p95: percentile(sorted, 0.95), cpu };
}

const check = render(input);
if (check.diagnostics.length > 0) throw new Error(`Render diagnostics: ${JSON.stringify(check.diagnostics)}`);
const exported = render({ ...input, inlineCss: true, strict: true });
const exportedWithJuice = inlineCssWithJuice(check.html);
if (exported.html !== exportedWithJuice || exported.plainText !== toPlainText(exportedWithJuice)) {
  throw new Error('The export path and juice disagree on this email');
}
const mjmlCheck = await mjml2html(mjmlSource, { validationLevel: 'soft' });
if (mjmlCheck.errors.length > 0) throw new Error(`MJML errors: ${JSON.stringify(mjmlCheck.errors)}`);

console.log(
  `Render: 20-component email (Letterset Starter, ${check.html.length} bytes of HTML; MJML output ${mjmlCheck.html.length} bytes), ${runs} runs each in interleaved blocks of ${blockSize} after ${warmUp} warm-up runs, Node ${process.version}\n`,
);
const cases = {
  letterset: { label: 'Letterset render()', once: () => render(input), samples: [], cpuPerRun: [] },
  withPlainText: {
    label: 'Letterset render() + plainText (html-to-text)',
    once: () => render(input).plainText,
    samples: [],
    cpuPerRun: [],
  },
  withInlining: {
    label: 'Letterset render({ inlineCss: true })',
    once: () => render({ ...input, inlineCss: true }),
    samples: [],
    cpuPerRun: [],
  },
  exportPath: {
    label: 'Export path: render + inlined CSS + plain text',
    once: () => render({ ...input, inlineCss: true, strict: true }).plainText,
    samples: [],
    cpuPerRun: [],
  },
  exportPathWithJuice: {
    label: 'Export path, juice on the whole document',
    once: () => toPlainText(inlineCssWithJuice(render({ ...input, strict: true }).html)),
    samples: [],
    cpuPerRun: [],
  },
  mjml: {
    label: 'mjml 5 mjml2html (validation skipped)',
    once: () => mjml2html(mjmlSource, { validationLevel: 'skip' }),
    samples: [],
    cpuPerRun: [],
  },
} satisfies Record<string, Case>;
await measureInterleaved(Object.values(cases));

const results = Object.fromEntries(
  Object.entries(cases).map(([name, entry]) => [name, summary(entry)]),
) as Record<keyof typeof cases, Summary>;
for (const [name, entry] of Object.entries(cases)) {
  const { median, p95, cpu } = results[name as keyof typeof cases];
  console.log(
    `${entry.label.padEnd(50)} median ${median.toFixed(3).padStart(8)} ms   p95 ${p95.toFixed(3).padStart(8)} ms   CPU ${cpu.toFixed(3).padStart(8)} ms`,
  );
}

const mjml = results.mjml.median;
const letterset = results.letterset.median;
const ratio = (name: keyof typeof cases) => (mjml / results[name].median).toFixed(1);
console.log('');
console.log(
  `Letterset render() vs MJML (medians):        ${ratio('letterset')}x faster (target ≥ 20x, ≤ 1 ms)`,
);
console.log(`Letterset render() + plain text vs MJML:     ${ratio('withPlainText')}x faster`);
console.log(`Letterset render() + CSS inlining vs MJML:   ${ratio('withInlining')}x faster`);
console.log(
  `Export path vs MJML:                         ${ratio('exportPath')}x faster (target ≥ 5x: ${mjml / results.exportPath.median >= 5 ? 'met' : 'NOT met'})`,
);
console.log(`Export path through juice vs MJML:           ${ratio('exportPathWithJuice')}x faster`);
console.log(
  `Target ≤ 1 ms median: ${letterset <= 1 ? 'met' : 'NOT met'}; ≥ 20x MJML: ${mjml / letterset >= 20 ? 'met' : 'NOT met'}`,
);
