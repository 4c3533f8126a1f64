import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type RenderInput, render } from '@letterset/core';
import { expect, test } from '@playwright/test';
import { build } from 'vite';
import { parityInput } from './render-parity/fixture.ts';

// The editor preview renders in the browser and exports render on the server: both must produce
// the same bytes. Bundle @letterset/core for the browser with Vite, run it in Chromium, compare.
let bundleDir = '';
let bundle = '';

test.beforeAll(async () => {
  bundleDir = mkdtempSync(path.join(tmpdir(), 'letterset-parity-'));
  await build({
    configFile: false,
    logLevel: 'warn',
    build: {
      outDir: bundleDir,
      emptyOutDir: true,
      minify: false,
      lib: {
        entry: path.join(import.meta.dirname, 'render-parity/browser-entry.ts'),
        formats: ['iife'],
        name: 'lettersetParity',
        fileName: () => 'core.js',
      },
    },
  });
  bundle = readFileSync(path.join(bundleDir, 'core.js'), 'utf8');
});

test.afterAll(() => {
  if (bundleDir) rmSync(bundleDir, { recursive: true, force: true });
});

function nodeRender(input: RenderInput) {
  const output = render(input);
  return {
    html: output.html,
    subject: output.subject,
    preheader: output.preheader,
    plainText: output.plainText,
    diagnostics: output.diagnostics,
  };
}

for (const [label, overrides] of [
  ['HTML', {}],
  ['HTML with CSS inlined', { inlineCss: true }],
  ['plain text', { outputFormat: 'plaintext' }],
] as const) {
  test(`the starter renders byte-identically in Node and in Chromium: ${label}`, async ({ page }) => {
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    await page.setContent('<!DOCTYPE html><html><body></body></html>');
    await page.addScriptTag({ content: bundle });

    const input = parityInput(overrides);
    const inBrowser = await page.evaluate((renderInput) => {
      const core = (globalThis as unknown as { lettersetCore: { render: typeof render } }).lettersetCore;
      const output = core.render(renderInput);
      return {
        html: output.html,
        subject: output.subject,
        preheader: output.preheader,
        plainText: output.plainText,
        diagnostics: output.diagnostics,
      };
    }, input);
    const inNode = nodeRender(input);

    expect(problems).toEqual([]);
    expect(inNode.diagnostics).toEqual([]);
    expect(inNode.html.length).toBeGreaterThan(1000);
    expect(inBrowser.html).toBe(inNode.html);
    expect(inBrowser.plainText).toBe(inNode.plainText);
    expect(inBrowser).toEqual(inNode);
  });
}
