import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

/**
 * The API conventions page lists every error `code` the API answers with. The OpenAPI document
 * (a build artefact of the server's error catalogue) names them all in its ErrorCode schema.
 */
const repositoryRoot = path.resolve(import.meta.dirname, '../../..');
const openApi = parse(readFileSync(path.join(repositoryRoot, 'apps/server/openapi.yml'), 'utf8'));
const conventionsPage = readFileSync(
  path.join(repositoryRoot, 'apps/docs/docs/using_the_api/api_conventions.md'),
  'utf8',
);

function documentedCodes(): string[] {
  return openApi.components.schemas.ErrorCode.enum;
}

describe('the errors section of the API conventions page', () => {
  it('finds the codes in the OpenAPI document', () => {
    expect(documentedCodes()).toEqual(expect.arrayContaining(['not_found', 'validation_failed']));
  });

  it('has a table row for every error code', () => {
    const rowFor = (code: string) =>
      new RegExp(`^\\| \`\\d{3}\` \\| \`${code}\` \\|`, 'm').test(conventionsPage);
    expect(documentedCodes().filter((code) => !rowFor(code))).toEqual([]);
  });
});
