import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The Configuration page lists every environment variable the server reads. The server's
 * `config.ts` is the only reader of the environment, so its `env.NAME` reads are the whole list.
 */
const repositoryRoot = path.resolve(import.meta.dirname, '../../..');
const configSource = readFileSync(path.join(repositoryRoot, 'apps/server/src/config.ts'), 'utf8');
const configurationPage = readFileSync(
  path.join(repositoryRoot, 'apps/docs/docs/self_hosting/configuration.md'),
  'utf8',
);

function variablesReadBy(source: string): string[] {
  return [
    ...new Set([...source.matchAll(/\benv\.([A-Z][A-Z0-9_]+)/g)].map((match) => match[1] ?? '')),
  ].sort();
}

describe('the Configuration page', () => {
  it('finds the variables the server reads', () => {
    expect(variablesReadBy(configSource)).toEqual(
      expect.arrayContaining(['DATABASE_URL', 'PORT', 'SMTP_URL']),
    );
  });

  it('documents every environment variable the server reads', () => {
    const documented = (name: string) => configurationPage.includes(`\`${name}\``);
    expect(variablesReadBy(configSource).filter((name) => !documented(name))).toEqual([]);
  });
});
