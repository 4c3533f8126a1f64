import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'vitest';
import { isBuildFresh } from './build-freshness.ts';

function project() {
  const folder = mkdtempSync(path.join(tmpdir(), 'freshness-'));
  mkdirSync(path.join(folder, 'src/nested'), { recursive: true });
  const source = path.join(folder, 'src/nested/page.ts');
  const marker = path.join(folder, 'index.html');
  writeFileSync(source, 'source');
  writeFileSync(marker, 'build');
  utimesSync(source, 1000, 1000);
  utimesSync(marker, 2000, 2000);
  return { folder, source, marker };
}

test('a build newer than every source is fresh', () => {
  const { folder, marker } = project();
  assert.equal(isBuildFresh(marker, [path.join(folder, 'src')]), true);
});

test('a source newer than the build makes it stale', () => {
  const { folder, source, marker } = project();
  utimesSync(source, 3000, 3000);
  assert.equal(isBuildFresh(marker, [path.join(folder, 'src')]), false);
});

test('no build yet is stale', () => {
  const { folder } = project();
  assert.equal(isBuildFresh(path.join(folder, 'missing.html'), [path.join(folder, 'src')]), false);
});
