import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isNonPublicAddress, outboundFetch } from './outbound-fetch.ts';

describe('outbound fetch', () => {
  let server: http.Server;
  let base: string;
  const allowed = { allowPrivateNetwork: true, timeoutMs: 2000, maxBytes: 1000 };

  beforeAll(async () => {
    server = http.createServer((request, response) => {
      if (request.url === '/slow') return void setTimeout(() => response.end('late'), 1500);
      if (request.url === '/big') return void response.end('x'.repeat(5000));
      if (request.url === '/redirect') {
        response.writeHead(302, { location: 'http://169.254.169.254/' });
        return void response.end();
      }
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify({ method: request.method, auth: request.headers.authorization, body }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('classifies private, loopback, link-local and unique-local addresses, v4 and v6', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      'fe80::1',
      'fd12:3456::1',
      '::ffff:127.0.0.1',
      '::',
    ])
      expect(isNonPublicAddress(address), address).toBe(true);
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8'])
      expect(isNonPublicAddress(address), address).toBe(false);
  });

  it('fetches with method, headers and body when private addresses are allowed', async () => {
    const response = await outboundFetch(
      { url: `${base}/echo`, method: 'POST', headers: { authorization: 'Bearer s3cret' }, body: 'hello' },
      allowed,
    );
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toEqual({ method: 'POST', auth: 'Bearer s3cret', body: 'hello' });
  });

  it('refuses private addresses by default, by literal and by name', async () => {
    const refused = { ...allowed, allowPrivateNetwork: false };
    await expect(outboundFetch({ url: `${base}/echo`, method: 'GET' }, refused)).rejects.toThrow(
      '127.0.0.1 is a private, loopback or link-local address',
    );
    await expect(outboundFetch({ url: 'http://[::1]/', method: 'GET' }, refused)).rejects.toThrow(
      '::1 is a private, loopback or link-local address',
    );
    const port = (server.address() as AddressInfo).port;
    await expect(
      outboundFetch({ url: `http://localhost:${port}/echo`, method: 'GET' }, refused),
    ).rejects.toThrow('localhost is a private, loopback or link-local address');
  });

  it('allows the listed origins only on private addresses (the fakes of tests)', async () => {
    const listed = { ...allowed, allowPrivateNetwork: false, privateOriginsAllowed: [base] };
    const response = await outboundFetch({ url: `${base}/echo`, method: 'PATCH', body: 'x' }, listed);
    expect(JSON.parse(response.body)).toMatchObject({ method: 'PATCH', body: 'x' });
    const port = (server.address() as AddressInfo).port;
    await expect(
      outboundFetch({ url: `http://localhost:${port}/echo`, method: 'GET' }, listed),
    ).rejects.toThrow('localhost is a private, loopback or link-local address');
  });

  it('refuses other schemes and does not follow redirects', async () => {
    await expect(outboundFetch({ url: 'file:///etc/passwd', method: 'GET' }, allowed)).rejects.toThrow(
      'Only http and https URLs can be fetched',
    );
    await expect(outboundFetch({ url: 'not a url', method: 'GET' }, allowed)).rejects.toThrow(
      'The URL is not valid',
    );
    const redirect = await outboundFetch({ url: `${base}/redirect`, method: 'GET' }, allowed);
    expect(redirect.status).toBe(302);
    expect(redirect.headers.location).toBe('http://169.254.169.254/');
  });

  it('gives up after the time limit and above the size cap', async () => {
    await expect(
      outboundFetch({ url: `${base}/slow`, method: 'GET' }, { ...allowed, timeoutMs: 200 }),
    ).rejects.toThrow('No complete answer within 0.2 s');
    await expect(outboundFetch({ url: `${base}/big`, method: 'GET' }, allowed)).rejects.toThrow(
      'The answer is larger than 1 KB',
    );
  });
});
