import Fastify from 'fastify';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyHeadersFor, createTestOrganization, type TestOrganization } from '../test/factories.ts';
import { buildTestApp, type TestApp } from '../test/harness.ts';
import { Id, limits, Name, RequestBody, ref } from './schemas.ts';
import { assertBoundedInput, buildValidatorFactory } from './validation.ts';

describe('bounded input', () => {
  let app: TestApp;
  let organization: TestOrganization;
  let admin: Record<string, string>;

  beforeAll(async () => {
    app = await buildTestApp();
    organization = await createTestOrganization(app);
    admin = await apiKeyHeadersFor(app, organization, organization.admin);
  });
  afterAll(() => app.close());

  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) =>
    app.inject({
      method,
      url,
      headers: admin,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const workspaceNames = async () =>
    (await call('GET', '/api/v1/workspaces?per=100'))
      .json()
      .results.map((workspace: { name: string }) => workspace.name);

  it('refuses NUL in a body string with a 422 naming the field, and stores nothing', async () => {
    const before = await workspaceNames();
    const response = await call('POST', '/api/v1/workspaces', { name: '\u0000x', auto_join: false });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      code: 'validation_failed',
      message: 'Failed to save',
      errors: { name: ['must not contain NUL characters', 'must be one line, without control characters'] },
    });
    expect(await workspaceNames()).toEqual(before);
  });

  it('refuses unpaired surrogates and NUL in keys of free-form JSON, naming where they are', async () => {
    const system = await call('POST', `/api/v1/workspaces/${organization.workspaceId}/email_design_systems`, {
      name: 'Tokens',
      access_scope: 'this_workspace_only',
      description: 'Lone \ud800 surrogate',
      design_tokens: { colors: { 'primary\u0000': '#1890ff' }, spacing: ['4px', 'x\udfff'] },
    });
    expect(system.statusCode).toBe(422);
    expect(system.json().errors).toEqual({
      description: ['must not contain unpaired UTF-16 surrogates'],
      'design_tokens.colors': ['must not have a key containing NUL characters'],
      'design_tokens.spacing.1': ['must not contain unpaired UTF-16 surrogates'],
    });
  });

  it(`refuses JSON nested more than ${limits.nestingDepth} levels deep`, async () => {
    let tokens: unknown = 'deep';
    for (let level = 0; level < 40; level += 1) tokens = { a: tokens };
    const response = await call(
      'POST',
      `/api/v1/workspaces/${organization.workspaceId}/email_design_systems`,
      {
        name: 'Deep',
        access_scope: 'this_workspace_only',
        design_tokens: tokens,
      },
    );
    expect(response.statusCode).toBe(422);
    const [[field, messages]] = Object.entries(response.json().errors) as [[string, string[]]];
    expect(field).toBe(`design_tokens${'.a'.repeat(limits.nestingDepth - 1)}`);
    expect(messages).toEqual([`must not nest more than ${limits.nestingDepth} levels deep`]);
  });

  it('refuses NUL in a query value, naming the parameter', async () => {
    const response = await call('GET', '/api/v1/users?search=%00');
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual({ search: ['must not contain NUL characters'] });
  });

  it('keeps names and labels to one line, and lets descriptions have line breaks', async () => {
    const named = await call('POST', '/api/v1/workspaces', { name: 'EMEA\nAPAC', auto_join: false });
    expect(named.json().errors).toEqual({ name: ['must be one line, without control characters'] });
    const team = await call('POST', '/api/v1/teams', {
      name: 'Lifecycle',
      workspace_id: organization.workspaceId,
      badge_color: 'blue',
    });
    const project = await call('POST', `/api/v1/workspaces/${organization.workspaceId}/projects`, {
      name: 'Spring',
      description: 'First line\nsecond line\twith a tab',
      team_id: team.json().id,
    });
    expect(project.statusCode).toBe(200);
    expect(project.json().description).toBe('First line\nsecond line\twith a tab');
  });

  it.each([
    '/api/v1/users/99999999999999999999',
    '/api/v1/users/2147483648',
    '/api/v1/users/0',
    '/api/v1/users/-1',
    '/api/v1/users/Infinity',
    '/api/v1/workspaces/2147483648/projects',
    '/api/v1/workspaces/99999999999999999999/projects/1',
    `/api/v1/workspaces/:workspace/images/${'x'.repeat(65)}`,
    `/api/v1/workspaces/:workspace/images/${'x'.repeat(500)}`,
  ])('answers 404 for a path id no record can have: %s', async (url) => {
    const response = await call('GET', url.replace(':workspace', String(organization.workspaceId)));
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ code: 'not_found', message: 'Record not found' });
  });

  it('answers 422 for a path id that is not an integer, and 400 for a path that cannot be decoded', async () => {
    const malformed = await call('GET', '/api/v1/users/1.5');
    expect(malformed.statusCode).toBe(422);
    expect(malformed.json().errors).toEqual({ id: ['must be an integer'] });
    const undecodable = await call('GET', '/api/v1/users/%ED%A0%80');
    expect(undecodable.statusCode).toBe(400);
    expect(undecodable.json()).toEqual({
      code: 'bad_request',
      message: 'The path is not valid: it has a broken percent-encoding',
    });
  });

  it('answers 422 for ids out of range in a body or query, naming the field', async () => {
    const member = await app.inject({
      method: 'POST',
      url: `/api/v1/workspaces/${organization.workspaceId}/users`,
      headers: { ...admin, 'content-type': 'application/json' },
      payload: '{"user_id": 9223372036854775808}',
    });
    expect(member.statusCode).toBe(422);
    expect(member.json().errors).toEqual({ user_id: ['must be less than or equal to 2147483647'] });
    const role = await call('PATCH', `/api/v1/users/${organization.admin.id}`, { role_id: 2147483648 });
    expect(role.json().errors).toEqual({ role_id: ['must be less than or equal to 2147483647'] });
    const teams = await call('GET', '/api/v1/teams?workspace_id=2147483648');
    expect(teams.statusCode).toBe(422);
    expect(teams.json().errors).toEqual({ workspace_id: ['must be less than or equal to 2147483647'] });
    const page = await call('GET', '/api/v1/workspaces?per=Infinity');
    expect(page.json().errors).toEqual({ per: ['must be a finite number'] });
  });

  it('answers an out-of-range page with a 422 instead of asking the database for it', async () => {
    const response = await call('GET', '/api/v1/workspaces?page=99999999999');
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual({ page: ['must be less than or equal to 2147483647'] });
  });
});

describe('the bounded-input check at start-up', () => {
  const routeSchema = (schema: unknown) => ({ schema, method: 'POST', url: '/things', httpPart: 'body' });

  it('refuses a string without maxLength and an integer without maximum, naming where', () => {
    const schema = RequestBody({
      title: Type.String(),
      count: Type.Integer({ minimum: 0 }),
      tags: Type.Array(Type.String()),
      owner: Type.Object({ note: Type.Union([Type.String(), Type.Null()]) }),
    });
    expect(() => assertBoundedInput(routeSchema(schema) as never, {})).toThrow(
      'Unbounded request input in POST /things body: title: a string needs a maxLength; count: an integer needs a maximum; tags.0: a string needs a maxLength; owner.note: a string needs a maxLength',
    );
  });

  it('follows references to shared schemas', () => {
    const Shared = Type.Object({ label: Type.String() }, { $id: 'Shared' });
    expect(() =>
      assertBoundedInput(routeSchema(RequestBody({ shared: ref(Shared) })) as never, { Shared }),
    ).toThrow('shared.label: a string needs a maxLength');
  });

  it('accepts bounded strings and integers, enums, constants and multipart file fields', () => {
    const schema = RequestBody({
      name: Name(),
      id: Id(),
      kind: Type.Enum(['a', 'b']),
      flag: Type.Literal('yes'),
      file: Type.String({ format: 'binary' }),
    });
    expect(() => assertBoundedInput(routeSchema(schema) as never, {})).not.toThrow();
  });

  it('stops a server from starting with an unbounded route', async () => {
    const server = Fastify({
      schemaController: { compilersFactory: { buildValidator: buildValidatorFactory() } },
    });
    server.post('/things', { schema: { body: RequestBody({ title: Type.String() }) } }, async () => 'ok');
    await expect(server.ready()).rejects.toThrow('title: a string needs a maxLength');
    await server.close();
  });
});

describe('validators compiled on first use', () => {
  const compilerFor = (externalSchemas: Record<string, unknown>) =>
    (
      buildValidatorFactory() as unknown as (schemas: Record<string, unknown>) => (route: object) => {
        (data: unknown): boolean;
        errors?: unknown[] | null;
      }
    )(externalSchemas);

  it('compiles a schema only when the route first validates with it', () => {
    const compile = compilerFor({});
    // A schema Ajv refuses: compiled at start-up, the server would not start.
    const validate = compile({
      schema: { type: 'object', properties: { id: { type: 'no-such-type' } } },
      httpPart: 'body',
      method: 'POST',
      url: '/things',
    });
    expect(() => validate({ id: 1 })).toThrow();
  });

  it('answers the errors of the request it validated, with the shared schemas, for every part', () => {
    const Thing = Type.Object({ count: Type.Integer({ maximum: 10 }) }, { $id: 'Thing' });
    const compile = compilerFor({ Thing });
    const body = compile({ schema: ref(Thing), httpPart: 'body', method: 'POST', url: '/things' });
    const headers = compile({
      schema: Type.Object({ 'x-count': Type.Integer({ maximum: 10 }) }),
      httpPart: 'headers',
      method: 'POST',
      url: '/things',
    });
    expect(body({ count: 11 })).toBe(false);
    expect(body.errors).toMatchObject([{ instancePath: '/count', keyword: 'maximum' }]);
    expect(body({ count: 3 })).toBe(true);
    expect(body.errors).toBeFalsy();
    expect(headers({ 'x-count': '12' })).toBe(false);
    expect(headers.errors).toMatchObject([{ instancePath: '/x-count', keyword: 'maximum' }]);
  });
});
