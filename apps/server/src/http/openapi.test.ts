import { readFile } from 'node:fs/promises';
import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { buildTestApp, type TestApp } from '../test/harness.ts';
import { committedOpenApiPath, generateOpenApiYaml } from './openapi-document.ts';

type Operation = {
  operationId?: string;
  tags?: string[];
  summary?: string;
  security?: unknown[];
  responses: Record<string, unknown>;
};
type Document = {
  openapi: string;
  servers: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
  tags: { name: string }[];
};

describe('the OpenAPI document', () => {
  let app: TestApp;
  let document: Document;

  beforeAll(async () => {
    app = await buildTestApp();
    const response = await app.inject({ method: 'GET', url: '/openapi.yml' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('application/yaml');
    document = parse(response.body);
  });
  afterAll(() => app.close());

  it('is valid OpenAPI 3.0.1', async () => {
    expect(document.openapi).toBe('3.0.1');
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeTruthy();
  });

  it('matches the committed apps/server/openapi.yml (run `npm run generate:api` after changing routes)', async () => {
    const committed = await readFile(committedOpenApiPath, 'utf8');
    expect(generateOpenApiYaml(app)).toBe(committed);
  });

  it('is served as committed, every object written out (no YAML anchors, which some tools do not follow)', async () => {
    const served = (await app.inject({ method: 'GET', url: '/openapi.yml' })).body;
    expect(served).toBe(await readFile(committedOpenApiPath, 'utf8'));
    expect(served).not.toMatch(/^\s*[\w-]+: [&*]a\d+$/m);
  });

  it('is also served as JSON', async () => {
    const response = await app.inject({ method: 'GET', url: '/openapi.json' });
    expect(response.json()).toEqual(document);
  });

  it('names the absolute server URL from the config', () => {
    expect(document.servers).toEqual([
      { url: 'http://localhost:3000', description: 'This Letterset server' },
    ]);
  });

  it('declares bearer and cookie authentication', () => {
    expect(document.components.securitySchemes).toMatchObject({
      bearerAuth: { type: 'http', scheme: 'bearer' },
      cookieAuth: { type: 'apiKey', in: 'cookie', name: 'letterset_session' },
    });
  });

  it('names the shared schemas instead of inlining them', () => {
    expect(Object.keys(document.components.schemas)).toEqual(
      expect.arrayContaining(['Error', 'ValidationError', 'ConflictError', 'Pagination']),
    );
    expect(JSON.stringify(document)).not.toContain('def-');
  });

  it('gives every operation an operationId, a declared tag and a summary', () => {
    const declaredTags = new Set(document.tags.map((tag) => tag.name));
    const operationIds = new Set<string>();
    for (const [route, methods] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        const where = `${method.toUpperCase()} ${route}`;
        expect(operation.operationId, where).toMatch(/^[a-z][A-Za-z]+$/);
        expect(operationIds.has(operation.operationId ?? ''), `${where} repeats an operationId`).toBe(false);
        operationIds.add(operation.operationId ?? '');
        expect(operation.tags?.length, where).toBe(1);
        expect(declaredTags.has(operation.tags?.[0] ?? ''), `${where} has an undeclared tag`).toBe(true);
        expect(operation.summary, where).toBeTruthy();
      }
    }
    expect(operationIds.size).toBeGreaterThan(0);
  });

  it('documents 401 and 403 on every operation that needs authentication', () => {
    for (const [route, methods] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        const isPublic = Array.isArray(operation.security) && operation.security.length === 0;
        if (isPublic) continue;
        expect(Object.keys(operation.responses), `${method.toUpperCase()} ${route}`).toEqual(
          expect.arrayContaining(['401', '403']),
        );
      }
    }
  });

  it('lets any origin fetch it (the docs site loads it from the API host)', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/openapi.yml',
      headers: { origin: 'https://docs.example.com' },
    });
    expect(response.headers['access-control-allow-origin']).toBe('*');
  });

  it('does not open the API itself to other origins', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { origin: 'https://evil.example.com' },
    });
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
  });
});
