import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * Builds tiny throwaway sites with the real site's build rules (src/build-rules.ts) to prove that a
 * broken link fails the build. A tiny site takes seconds; the full site would take half a minute.
 * The sites live under apps/docs so Docusaurus resolves its packages from the workspace.
 */
const docsWorkspace = path.resolve(import.meta.dirname, '..');
const fixturesRoot = path.join(docsWorkspace, '.test-sites');
const docusaurusCli = createRequire(import.meta.url).resolve('@docusaurus/core/bin/docusaurus.mjs');
const buildRulesModule = path.join(docsWorkspace, 'src/build-rules.ts');

function buildSiteWithPage(name: string, pageMarkdown: string) {
  const siteDir = path.join(fixturesRoot, name);
  rmSync(siteDir, { recursive: true, force: true });
  mkdirSync(path.join(siteDir, 'docs'), { recursive: true });
  writeFileSync(
    path.join(siteDir, 'docusaurus.config.ts'),
    `import { buildRules } from ${JSON.stringify(buildRulesModule)};
export default {
  title: 'Build rules fixture',
  url: 'http://localhost',
  baseUrl: '/',
  trailingSlash: true,
  ...buildRules,
  presets: [['classic', { docs: { routeBasePath: '/' }, blog: false, sitemap: false }]],
};
`,
  );
  writeFileSync(path.join(siteDir, 'package.json'), '{"private": true}\n');
  writeFileSync(path.join(siteDir, 'docs/intro.md'), `---\ntitle: Intro\nslug: /\n---\n\n${pageMarkdown}\n`);
  writeFileSync(path.join(siteDir, 'docs/other.md'), '---\ntitle: Other\n---\n\nAnother page.\n');
  const result = spawnSync(process.execPath, [docusaurusCli, 'build', siteDir], {
    cwd: siteDir,
    encoding: 'utf8',
    env: { ...process.env, FORCE_COLOR: '0' },
  });
  return { exitCode: result.status, output: `${result.stdout}\n${result.stderr}` };
}

describe('the docs build', () => {
  afterAll(() => rmSync(fixturesRoot, { recursive: true, force: true }));

  it('passes when every link resolves', () => {
    const build = buildSiteWithPage('valid', 'See [the other page](./other.md) and [the home page](/).');
    expect(build.output).toContain('Generated static files');
    expect(build.exitCode).toBe(0);
  });

  it('fails on a link to a page that does not exist', () => {
    const build = buildSiteWithPage('broken-link', 'See [nowhere](/nowhere/).');
    expect(build.exitCode).not.toBe(0);
    expect(build.output).toMatch(/broken link/i);
    expect(build.output).toContain('/nowhere/');
  });

  it('fails on a markdown link to a file that does not exist', () => {
    const build = buildSiteWithPage('broken-markdown-link', 'See [a missing file](./missing.md).');
    expect(build.exitCode).not.toBe(0);
    expect(build.output).toMatch(/markdown link with URL `\.\/missing\.md` .* couldn't be resolved/i);
  });

  it('fails on a page that says a feature is being built', () => {
    const build = buildSiteWithPage(
      'unfinished-feature',
      'Link tracking is\nbeing built; until then, add parameters by hand.',
    );
    expect(build.exitCode).not.toBe(0);
    expect(build.output).toMatch(/intro\.md says a feature is not there yet \(line 7: "being built"\)/);
  });
});
