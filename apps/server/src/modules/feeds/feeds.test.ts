import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestOrganization,
  createTestUser,
  signInAs,
  type TestOrganization,
} from '../../test/factories.ts';
import { buildTestApp, type TestApp, testConfig } from '../../test/harness.ts';

describe('feeds', () => {
  let app: TestApp;
  let organization: TestOrganization;
  let admin: Record<string, string>;
  let base: string;
  let remote: http.Server;
  let remoteUrl: string;
  const seen: { url: string; authorization: string | undefined }[] = [];

  beforeAll(async () => {
    remote = http.createServer((request, response) => {
      seen.push({ url: request.url ?? '', authorization: request.headers.authorization });
      if (request.url === '/slow') return void setTimeout(() => response.end('{}'), 1000);
      if (request.url === '/big') return void response.end(JSON.stringify({ data: 'x'.repeat(3000) }));
      if (request.url === '/missing') {
        response.statusCode = 404;
        return void response.end('{"error":"no such product"}');
      }
      if (request.url === '/html') return void response.end('<html></html>');
      response.setHeader('content-type', 'application/json');
      response.end(
        JSON.stringify({
          product: { name: 'Trail shoe', price: 89.5 },
          images: [{ url: 'https://cdn.example.com/1.png' }],
          path: request.url,
        }),
      );
    });
    await new Promise<void>((resolve) => remote.listen(0, '127.0.0.1', resolve));
    remoteUrl = `http://127.0.0.1:${(remote.address() as AddressInfo).port}`;
    const defaults = testConfig().outboundFetch;
    app = await buildTestApp({
      config: {
        outboundFetch: { ...defaults, allowPrivateNetwork: true, timeoutMs: 300, maxBytes: 2000 },
        renderBudgetMs: 500,
      },
    });
    organization = await createTestOrganization(app);
    admin = await signInAs(app, organization.admin);
    base = `/api/v1/workspaces/${organization.workspaceId}/feeds`;
  });
  afterAll(async () => {
    await app.close();
    await new Promise<void>((resolve) => remote.close(() => resolve()));
  });

  const request = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
    app.inject({ method, url, headers: admin, ...(payload ? { payload } : {}) });
  const productFeed = (url = `${remoteUrl}/products/{{ parameters.product_id | url_encode }}`) => ({
    name: 'Products',
    url,
    request_method: 'GET',
    parameters: [{ label: 'Product ID', name: 'product_id' }],
    headers: [{ key: 'Authorization', value: 'Bearer sk_live_abcdefghijkl' }],
    fields: [
      { key: 'title', value: '$.product.name' },
      { key: 'price', value: 'product.price' },
      { key: 'image', value: '$.images[0].url' },
      { key: 'colour', value: '$.product.colour' },
    ],
  });
  const run = (id: number, parameters: Record<string, string> = {}) =>
    request('POST', `${base}/${id}/run`, { parameters });

  it('creates, reads, updates and deletes, never answering header values in full', async () => {
    const created = await request('POST', base, productFeed());
    expect(created.statusCode).toBe(200);
    const feed = created.json();
    expect(feed).toMatchObject({ name: 'Products', request_method: 'GET', fields: productFeed().fields });
    expect(feed.headers).toEqual([{ key: 'Authorization', value: 'Bear…' }]);
    expect(JSON.stringify((await request('GET', base)).json())).not.toContain('sk_live');

    // The masked value sent back keeps the secret; a new value replaces it.
    await request('PATCH', `${base}/${feed.id}`, { name: 'Catalogue', headers: feed.headers });
    expect((await run(feed.id, { product_id: '1' })).json().error).toBeNull();
    expect(seen.at(-1)?.authorization).toBe('Bearer sk_live_abcdefghijkl');
    await request('PATCH', `${base}/${feed.id}`, {
      headers: [{ key: 'Authorization', value: 'Bearer other-secret' }],
    });
    await run(feed.id, { product_id: '1' });
    expect(seen.at(-1)?.authorization).toBe('Bearer other-secret');

    expect((await request('GET', `${base}/${feed.id}`)).json().name).toBe('Catalogue');
    expect((await request('DELETE', `${base}/${feed.id}`)).statusCode).toBe(204);
    expect((await request('GET', `${base}/${feed.id}`)).statusCode).toBe(404);
  });

  it('refuses bad methods, duplicate names, broken URL templates and invalid JSON paths', async () => {
    const response = await request('POST', base, {
      ...productFeed('https://example.com/{{ parameters.id | nope }}'),
      parameters: [
        { label: 'A', name: 'id' },
        { label: 'B', name: 'id' },
      ],
      fields: [{ key: 'title', value: '$..[' }],
    });
    expect(response.statusCode).toBe(422);
    expect(Object.keys(response.json().errors).sort()).toEqual(['fields.0.value', 'parameters.1', 'url']);
    expect((await request('POST', base, { ...productFeed(), request_method: 'DELETE' })).statusCode).toBe(
      422,
    );
    expect((await request('POST', base, { name: 'Only a name' })).statusCode).toBe(422);
  });

  it('runs: renders the URL with the parameters and extracts each field by JSON path', async () => {
    const feed = (await request('POST', base, productFeed())).json();
    const response = await run(feed.id, { product_id: 'a b/7' });
    expect(response.statusCode).toBe(200);
    const result = response.json();
    expect(result).toMatchObject({
      url: `${remoteUrl}/products/a+b%2F7`,
      status: 200,
      error: null,
      extracted_data: {
        title: 'Trail shoe',
        price: 89.5,
        image: 'https://cdn.example.com/1.png',
        colour: null,
      },
    });
    expect(JSON.parse(result.body).path).toBe('/products/a+b%2F7');
  });

  it('renders its URL template within the render budget: a runaway template is reported, nothing is called', async () => {
    const calls = seen.length;
    for (const runaway of [
      // Liquid stops this one itself at the budget.
      `${remoteUrl}/{% for i in (1..10000) %}{% for j in (1..10000) %}{% endfor %}{% endfor %}`,
      // Liquid cannot stop a filter call: the pool terminates its worker.
      `${remoteUrl}/{{ (1..3000000) | sort_natural | size }}{{ (1..3000000) | sort_natural | size }}`,
    ]) {
      const feed = (
        await request('POST', base, { ...productFeed(runaway), name: `Runaway ${calls}${runaway.length}` })
      ).json();
      const started = performance.now();
      const result = (await run(feed.id)).json();
      expect(result.url).toBeNull();
      expect(result.error).toMatch(/^The URL template did not render: .*(limit|budget)/);
      // The budget (500 ms) and the pool's grace, with room for a loaded machine.
      expect(performance.now() - started).toBeLessThan(5000);
    }
    expect(seen.length).toBe(calls);
  });

  it('puts each parameter URL-encoded into its place: a&b=c/../x?y#z arrives as one value', async () => {
    const hostile = 'a&b=c/../x?y#z';
    const feed = (
      await request(
        'POST',
        base,
        productFeed(
          `${remoteUrl}/products/{{ parameters.product_id }}?q={{ parameters.product_id }}&lang=en`,
        ),
      )
    ).json();
    expect((await run(feed.id, { product_id: hostile })).json().error).toBeNull();
    const arrived = new URL(seen.at(-1)?.url ?? '', remoteUrl);
    expect(arrived.pathname).toBe('/products/a%26b%3Dc%2F..%2Fx%3Fy%23z');
    expect(decodeURIComponent(arrived.pathname.slice('/products/'.length))).toBe(hostile);
    expect([...arrived.searchParams.entries()]).toEqual([
      ['q', hostile],
      ['lang', 'en'],
    ]);
  });

  it('refuses Liquid in the scheme, host or port: a parameter cannot choose where the headers go', async () => {
    for (const url of [
      'https://{{ parameters.host }}/products',
      'https://api.example:{{ parameters.port }}/x',
    ]) {
      const response = await request('POST', base, productFeed(url));
      expect(response.statusCode, url).toBe(422);
      expect(response.json().errors.url).toEqual([
        'must name its scheme, host and port without Liquid: parameters go into the path or query',
      ]);
    }
  });

  it('runs for manage_feeds or update_emails; a Viewer gets 403 naming both keys', async () => {
    const feed = (await request('POST', base, productFeed())).json();
    const runAs = async (role: 'Viewer' | 'Editor' | 'Developer') =>
      app.inject({
        method: 'POST',
        url: `${base}/${feed.id}/run`,
        headers: await signInAs(app, await createTestUser(app, organization, { role })),
        payload: { parameters: { product_id: '1' } },
      });
    const before = seen.length;
    const refused = await runAs('Viewer');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      code: 'permission_denied',
      message: 'You need the manage_feeds or update_emails permission to do this',
    });
    expect(seen.length).toBe(before);
    expect((await runAs('Editor')).json().error).toBeNull();
    expect((await runAs('Developer')).json().error).toBeNull();
  });

  it('reports timeouts, oversize answers, error statuses and non-JSON answers in the result', async () => {
    const feedAt = async (path: string) =>
      (await request('POST', base, productFeed(`${remoteUrl}${path}`))).json().id;
    expect((await run(await feedAt('/slow'))).json()).toMatchObject({
      status: null,
      error: 'No complete answer within 0.3 s',
      extracted_data: {},
    });
    expect((await run(await feedAt('/big'))).json().error).toBe('The answer is larger than 2 KB');
    expect((await run(await feedAt('/missing'))).json()).toMatchObject({
      status: 404,
      error: 'The feed answered 404',
      body: '{"error":"no such product"}',
    });
    expect((await run(await feedAt('/html'))).json().error).toBe('The answer is not JSON');
  });

  it('refuses private addresses unless the server allows them', async () => {
    const guarded = await buildTestApp({ config: { outboundFetch: testConfig().outboundFetch } });
    try {
      expect(guarded.services.config.outboundFetch.allowPrivateNetwork).toBe(false);
      const org = await createTestOrganization(guarded);
      const headers = await signInAs(guarded, org.admin);
      const feedsUrl = `/api/v1/workspaces/${org.workspaceId}/feeds`;
      const before = seen.length;
      const feed = (
        await guarded.inject({ method: 'POST', url: feedsUrl, headers, payload: productFeed() })
      ).json();
      const result = (
        await guarded.inject({
          method: 'POST',
          url: `${feedsUrl}/${feed.id}/run`,
          headers,
          payload: { parameters: { product_id: '1' } },
        })
      ).json();
      expect(result.error).toBe(
        '127.0.0.1 is a private, loopback or link-local address; requests to it are refused (ALLOW_PRIVATE_NETWORK_FETCH)',
      );
      expect(result.status).toBeNull();
      expect(seen.length).toBe(before);
      const fileFeed = (
        await guarded.inject({
          method: 'POST',
          url: feedsUrl,
          headers,
          payload: productFeed('file:///etc/passwd'),
        })
      ).json();
      expect(
        (
          await guarded.inject({
            method: 'POST',
            url: `${feedsUrl}/${fileFeed.id}/run`,
            headers,
            payload: {},
          })
        ).json().error,
      ).toBe('Only http and https URLs can be fetched');
    } finally {
      await guarded.close();
    }
  });
});
