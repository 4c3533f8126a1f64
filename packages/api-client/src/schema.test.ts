import { readFile } from 'node:fs/promises';
import path from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');

describe('the generated client types', () => {
  it('match the committed openapi.yml (run `npm run generate:api` after changing routes)', async () => {
    const document = await readFile(path.join(root, 'apps/server/openapi.yml'), 'utf8');
    const generated = astToString(await openapiTS(document));
    const committed = await readFile(path.join(import.meta.dirname, 'schema.ts'), 'utf8');
    const withoutBanner = (source: string) => source.replace(/^\/\*\*[\s\S]*?\*\/\s*/, '');
    expect(withoutBanner(committed)).toBe(withoutBanner(generated));
    // Generating the types from the whole document takes seconds on a busy 2-core machine.
  }, 60_000);
});
