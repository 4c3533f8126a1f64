/**
 * `npm start` serves the web app's build. Building it takes about 20 s, so it is built only when
 * there is no build yet, or a source it bundles changed since; `npm run build -w @letterset/web`
 * always rebuilds.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { isBuildFresh } from './build-freshness.ts';

const root = path.resolve(import.meta.dirname, '..');
const sources = [
  'apps/web/src',
  'apps/web/public',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'apps/web/package.json',
  'packages/core/src',
  'packages/core/package.json',
  'packages/api-client/src',
  'packages/api-client/package.json',
];

if (
  isBuildFresh(
    path.join(root, 'apps/web/dist/index.html'),
    sources.map((source) => path.join(root, source)),
  )
) {
  process.stdout.write('Web app is up to date.\n');
} else {
  process.stdout.write('Building the web app (about 20 s)...\n');
  const build = spawnSync('npm', ['run', 'build', '-w', '@letterset/web'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
