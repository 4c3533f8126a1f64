import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../test/harness.ts';
import {
  BadRequestError,
  ConflictError,
  errorCodes,
  ForbiddenError,
  NotFoundError,
  TooManyRequestsError,
  UnauthorizedError,
  ValidationError,
} from './errors.ts';
import { RequestBody } from './schemas.ts';

const thrown = {
  'bad-request': () => new BadRequestError('You cannot delete yourself'),
  unauthorized: () => new UnauthorizedError(),
  forbidden: () => new ForbiddenError(),
  'not-found': () => new NotFoundError(),
  conflict: () => new ConflictError('The email changed since you loaded it', { current_version: 7 }),
  unprocessable: () => ValidationError.field('role_id', 'is in use by 3 users'),
  'too-many': () => new TooManyRequestsError(29.2),
  crash: () => new Error('database password is hunter2'),
} as const;

describe('the error catalogue', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await buildTestApp({
      routes: async (routes) => {
        for (const [name, error] of Object.entries(thrown)) {
          routes.get(`/test/errors/${name}`, async () => {
            throw error();
          });
        }
        routes.post(
          '/test/things',
          {
            schema: {
              body: RequestBody({
                name: Type.String({ minLength: 1, maxLength: 20 }),
                count: Type.Integer({ minimum: 0, maximum: 1000 }),
                tags: Type.Optional(Type.Array(Type.String({ maxLength: 5 }))),
                owner: Type.Optional(
                  RequestBody({
                    email: Type.String({ format: 'email', maxLength: 254 }),
                    note: Type.Union([Type.String({ maxLength: 100 }), Type.Null()]),
                  }),
                ),
              }),
            },
          },
          async (request) => request.body,
        );
      },
    });
  });
  afterAll(() => app.close());

  it.each([
    ['bad-request', 400, { code: 'bad_request', message: 'You cannot delete yourself' }],
    [
      'unauthorized',
      401,
      { code: 'authentication_required', message: 'You need to sign in or provide a valid API key' },
    ],
    ['forbidden', 403, { code: 'permission_denied', message: 'You do not have permission to do this' }],
    ['not-found', 404, { code: 'not_found', message: 'Record not found' }],
    [
      'conflict',
      409,
      { code: 'stale_write', message: 'The email changed since you loaded it', current_version: 7 },
    ],
    [
      'unprocessable',
      422,
      { code: 'validation_failed', message: 'Failed to save', errors: { role_id: ['is in use by 3 users'] } },
    ],
    ['too-many', 429, { code: 'rate_limited', message: 'Too many requests; try again in 30 seconds' }],
  ])('answers a thrown %s with %i and its body', async (name, status, body) => {
    const response = await app.inject({ method: 'GET', url: `/test/errors/${name}` });
    expect(response.statusCode).toBe(status);
    expect(response.json()).toEqual(body);
  });

  it('names every answer with a code of the catalogue, and a specific refusal with its own', async () => {
    expect(new Set(errorCodes).size).toBe(errorCodes.length);
    for (const name of Object.keys(thrown)) {
      const response = await app.inject({ method: 'GET', url: `/test/errors/${name}` });
      expect(errorCodes, name).toContain(response.json().code);
    }
    expect(new ForbiddenError('Refused', 'grant_beyond_own_keys').toBody()).toEqual({
      message: 'Refused',
      code: 'grant_beyond_own_keys',
    });
  });

  it('tells a 429 when to try again in whole seconds, in Retry-After', async () => {
    const response = await app.inject({ method: 'GET', url: '/test/errors/too-many' });
    expect(response.headers['retry-after']).toBe('30');
    const ok = await app.inject({ method: 'GET', url: '/test/errors/not-found' });
    expect(ok.headers['retry-after']).toBeUndefined();
  });

  it('answers an unexpected error with a 500 that leaks nothing', async () => {
    const response = await app.inject({ method: 'GET', url: '/test/errors/crash' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({
      code: 'internal_error',
      message: 'Something went wrong on our side; it has been logged',
    });
    expect(response.body).not.toContain('hunter2');
  });

  it('answers an unknown route with a 404 naming it', async () => {
    const response = await app.inject({ method: 'DELETE', url: '/api/v1/nothing/here?x=1' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      code: 'not_found',
      message: 'No route for DELETE /api/v1/nothing/here',
    });
  });

  it('answers malformed JSON with a 400', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/test/things',
      headers: { 'content-type': 'application/json' },
      payload: '{"name": "a",',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ code: 'bad_request', message: 'The request body is not valid JSON' });
  });

  it('answers an unsupported content type with a 415', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/test/things',
      headers: { 'content-type': 'application/xml' },
      payload: '<thing/>',
    });
    expect(response.statusCode).toBe(415);
    expect(response.json()).toEqual({
      code: 'unsupported_media_type',
      message: 'Unsupported content type; send application/json',
    });
  });

  it('answers an oversized body with a 413', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/test/things',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'x'.repeat(3 * 1024 * 1024), count: 1 }),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({
      code: 'payload_too_large',
      message: 'The request body is too large: at most 2 MB',
    });
  });

  it('maps every schema problem of a body to its field path in one 422', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/test/things',
      payload: {
        name: '',
        count: '5',
        colour: 'red',
        tags: ['ok', 'too long'],
        owner: { email: 'nope', note: 3 },
      },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      code: 'validation_failed',
      message: 'Failed to save',
      errors: {
        name: ["can't be blank"],
        count: ['must be an integer'],
        colour: ['is not a known field'],
        'tags.1': ['must be at most 5 characters'],
        'owner.email': ['must be a valid email'],
        'owner.note': ['must be a string or null'],
      },
    });
  });

  it('names unknown fields called like members of Object (toString, constructor) as any other', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/test/things',
      payload: { name: 'x', count: 1, toString: { a: 1 }, constructor: 2 },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual({
      toString: ['is not a known field'],
      constructor: ['is not a known field'],
    });
  });

  it('names missing required fields', async () => {
    const response = await app.inject({ method: 'POST', url: '/test/things', payload: {} });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual({ name: ['is required'], count: ['is required'] });
  });

  it('keys a body that is not an object by the request part', async () => {
    const response = await app.inject({ method: 'POST', url: '/test/things', payload: [1, 2] });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual({ body: ['must be an object'] });
  });

  it('accepts a valid body unchanged (no coercion, nothing stripped)', async () => {
    const body = { name: 'Launch', count: 5, tags: ['a'], owner: { email: 'ada@example.com', note: null } };
    const response = await app.inject({ method: 'POST', url: '/test/things', payload: body });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(body);
  });

  it('sends a request id with every answer, keeping a sane one from the client', async () => {
    const generated = await app.inject({ method: 'GET', url: '/healthz' });
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { 'x-request-id': 'trace-42' },
    });
    expect(kept.headers['x-request-id']).toBe('trace-42');
    const replaced = await app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { 'x-request-id': 'bad id\n' },
    });
    expect(replaced.headers['x-request-id']).not.toBe('bad id\n');
  });
});
