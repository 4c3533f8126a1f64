import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyHeadersFor, createTestOrganization, type TestOrganization } from '../test/factories.ts';
import { buildTestApp, type TestApp } from '../test/harness.ts';
import { uploadFieldsAllowance } from './request-limits.ts';

const twoMegabytes = 2 * 1024 * 1024;
const maxImageBytes = 200 * 1024;

describe('request body limits and content types', () => {
  let app: TestApp;
  let organization: TestOrganization;
  let admin: Record<string, string>;
  let imagesUrl: string;

  beforeAll(async () => {
    app = await buildTestApp({ config: { maxImageBytes } });
    organization = await createTestOrganization(app);
    admin = await apiKeyHeadersFor(app, organization, organization.admin);
    imagesUrl = `/api/v1/workspaces/${organization.workspaceId}/images`;
  });
  afterAll(() => app.close());

  const workspaceCount = async () =>
    (await app.inject({ method: 'GET', url: '/api/v1/workspaces', headers: admin })).json().pagination.total;

  it('answers 413 from the Content-Length alone, without reading the body', async () => {
    // A body that never arrives: only an answer given before reading it can come back.
    const neverSent = new Readable({ read() {} });
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/workspaces',
      headers: { ...admin, 'content-type': 'application/json', 'content-length': String(twoMegabytes + 1) },
      payload: neverSent,
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({
      code: 'payload_too_large',
      message: 'The request body is too large: at most 2 MB',
    });
  });

  it('answers 413 to a streamed body without a Content-Length once it passes the limit', async () => {
    const before = await workspaceCount();
    const chunk = 'x'.repeat(64 * 1024);
    const chunks = Math.ceil(twoMegabytes / chunk.length) + 1;
    const streamed = Readable.from(
      (function* () {
        yield '{"name": "';
        for (let index = 0; index < chunks; index += 1) yield chunk;
        yield '", "auto_join": false}';
      })(),
    );
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/workspaces',
      headers: { ...admin, 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      payload: streamed,
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({
      code: 'payload_too_large',
      message: 'The request body is too large: at most 2 MB',
    });
    expect(await workspaceCount()).toBe(before);
  });

  it.each([
    ['text/plain', '{"name": "Plain", "auto_join": false}'],
    ['application/xml', '<workspace><name>X</name></workspace>'],
    ['application/x-www-form-urlencoded', 'name=Form&auto_join=false'],
    [
      'multipart/form-data; boundary=b',
      '--b\r\nContent-Disposition: form-data; name="name"\r\n\r\nForm\r\n--b--\r\n',
    ],
  ])('answers 415 to a JSON operation sent %s, and creates nothing', async (contentType, payload) => {
    const before = await workspaceCount();
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/workspaces',
      headers: { ...admin, 'content-type': contentType },
      payload,
    });
    expect(response.statusCode).toBe(415);
    expect(response.json()).toEqual({
      code: 'unsupported_media_type',
      message: 'Unsupported content type; send application/json',
    });
    expect(await workspaceCount()).toBe(before);
  });

  it('answers 415 to a form sent to an operation that takes no body, and does nothing', async () => {
    const created = await app.inject({
      method: 'POST',
      url: '/api/v1/api_keys',
      headers: admin,
      payload: { name: 'Kept' },
    });
    const response = await app.inject({
      method: 'DELETE',
      url: `/api/v1/api_keys/${created.json().id}`,
      headers: { ...admin, 'content-type': 'multipart/form-data; boundary=b' },
      payload: '--b--\r\n',
    });
    expect(response.statusCode).toBe(415);
    const keys = (await app.inject({ method: 'GET', url: '/api/v1/api_keys', headers: admin })).json()
      .results;
    expect(keys.map((key: { name: string }) => key.name)).toContain('Kept');
  });

  it('answers 415 to JSON sent to an upload, and 400 to a form without its boundary', async () => {
    const json = await app.inject({
      method: 'POST',
      url: imagesUrl,
      headers: admin,
      payload: { name: 'Logo' },
    });
    expect(json.statusCode).toBe(415);
    expect(json.json()).toEqual({
      code: 'unsupported_media_type',
      message: 'Unsupported content type; send multipart/form-data',
    });
    const noBoundary = await app.inject({
      method: 'POST',
      url: imagesUrl,
      headers: { ...admin, 'content-type': 'multipart/form-data' },
      payload: '--b\r\nContent-Disposition: form-data; name="name"\r\n\r\nLogo\r\n--b--\r\n',
    });
    expect(noBoundary.statusCode).toBe(400);
    expect(noBoundary.json()).toEqual({
      code: 'bad_request',
      message: 'A multipart/form-data body needs a boundary parameter in its content type',
    });
  });

  it('keeps the upload limit of uploads: beyond the file limit and its fields it is a 413', async () => {
    const limit = maxImageBytes + uploadFieldsAllowance;
    const response = await app.inject({
      method: 'POST',
      url: imagesUrl,
      headers: {
        ...admin,
        'content-type': 'multipart/form-data; boundary=b',
        'content-length': String(limit + 1),
      },
      payload: new Readable({ read() {} }),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({
      code: 'payload_too_large',
      message: 'The request body is too large: at most 1.2 MB',
    });
  });

  it('documents 413 and 415 on the operations that take a body', async () => {
    const document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(Object.keys(document.paths['/api/v1/workspaces'].post.responses)).toEqual(
      expect.arrayContaining(['413', '415', '422']),
    );
    expect(Object.keys(document.paths['/api/v1/workspaces/{id}'].delete.responses)).not.toContain('415');
  });
});
