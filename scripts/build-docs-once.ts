/**
 * `npm start` serves the docs site too. Building it takes about 20 s, so it is built only when
 * there is no build yet, or the OpenAPI document or a page changed since; `npm run build -w
 * @letterset/docs` always rebuilds.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const buildIndex = path.join(root, 'apps/docs/build/index.html');

function newestChange(folder: string): number {
  let newest = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const entryPath = path.join(folder, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestChange(entryPath));
    else newest = Math.max(newest, statSync(entryPath).mtimeMs);
  }
  return newest;
}

const sources = [
  path.join(root, 'apps/docs/docs'),
  path.join(root, 'apps/docs/blog'),
  path.join(root, 'apps/docs/src'),
];
const sourcesChanged = Math.max(
  statSync(path.join(root, 'apps/server/openapi.yml')).mtimeMs,
  ...sources.map(newestChange),
);
if (existsSync(buildIndex) && statSync(buildIndex).mtimeMs > sourcesChanged) {
  process.stdout.write('Docs site is up to date.\n');
} else {
  process.stdout.write('Building the docs site (about 20 s)...\n');
  const build = spawnSync('npm', ['run', 'build', '-w', '@letterset/docs'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
