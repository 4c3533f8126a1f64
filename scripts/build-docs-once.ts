/**
 * `npm start` serves the docs site too. Building it takes about 20 s, so it is built only when
 * there is no build yet, or the OpenAPI document or a page changed since; `npm run build -w
 * @letterset/docs` always rebuilds.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { isBuildFresh } from './build-freshness.ts';

const root = path.resolve(import.meta.dirname, '..');
const sources = ['apps/server/openapi.yml', 'apps/docs/docs', 'apps/docs/blog', 'apps/docs/src'];

if (
  isBuildFresh(
    path.join(root, 'apps/docs/build/index.html'),
    sources.map((source) => path.join(root, source)),
  )
) {
  process.stdout.write('Docs site is up to date.\n');
} else {
  process.stdout.write('Building the docs site (about 20 s)...\n');
  const build = spawnSync('npm', ['run', 'build', '-w', '@letterset/docs'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
