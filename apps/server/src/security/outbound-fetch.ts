import { lookup as dnsLookup } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { Readable } from 'node:stream';
import { isNonPublicAddress } from './non-public-addresses.ts';

export { isNonPublicAddress };

/**
 * Requests Letterset makes to URLs that users configure (feeds) and to the sending platforms
 * (connectors). The guard against server-side request forgery: only http(s); the host is
 * resolved and every address it resolves to is checked at connect time (so a DNS answer cannot
 * change between the check and the connection);
 * private, loopback, link-local, unique-local and other non-public ranges are refused unless
 * allowed; redirects are not followed; the whole exchange has a time limit and the body a size cap.
 */
export interface OutboundFetchOptions {
  allowPrivateNetwork: boolean;
  /**
   * Origins (`http://127.0.0.1:4215`) allowed on private addresses although the rest is not:
   * the local fakes tests start in place of the sending platforms. Empty in production.
   */
  privateOriginsAllowed?: readonly string[];
  timeoutMs: number;
  maxBytes: number;
}

export interface OutboundRequest {
  url: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  headers?: Record<string, string>;
  body?: string;
}

export interface OutboundResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A refused or failed request, with a message that can be shown to the user. */
export class OutboundFetchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OutboundFetchError';
  }
}

function refusal(host: string): OutboundFetchError {
  return new OutboundFetchError(
    `${host} is a private, loopback or link-local address; requests to it are refused (ALLOW_PRIVATE_NETWORK_FETCH)`,
  );
}

/** DNS lookup that refuses non-public answers (every answer, so no address slips through). */
function guardedLookup(allowPrivateNetwork: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const list = addresses as { address: string; family: number }[];
      if (!allowPrivateNetwork && list.some((entry) => isNonPublicAddress(entry.address)))
        return callback(refusal(hostname), '', 0);
      if ((options as { all?: boolean }).all)
        return (callback as (e: null, a: typeof list) => void)(null, list);
      const first = list[0];
      if (!first) return callback(new OutboundFetchError(`${hostname} has no address`), '', 0);
      return callback(null, first.address, first.family);
    });
  };
}

export function outboundFetch(
  request: OutboundRequest,
  options: OutboundFetchOptions,
): Promise<OutboundResponse> {
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return Promise.reject(new OutboundFetchError('The URL is not valid'));
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return Promise.reject(new OutboundFetchError('Only http and https URLs can be fetched'));
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const allowPrivateNetwork =
    options.allowPrivateNetwork || (options.privateOriginsAllowed ?? []).includes(url.origin);
  if (isIP(host) !== 0 && !allowPrivateNetwork && isNonPublicAddress(host))
    return Promise.reject(refusal(host));

  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const outgoing = client.request(url, {
      method: request.method,
      headers: { 'user-agent': 'Letterset', ...request.headers },
      lookup: guardedLookup(allowPrivateNetwork),
    });
    // Why the request was cut short, whichever error event then reports it.
    let cutShort: OutboundFetchError | undefined;
    const stop = (reason: OutboundFetchError) => {
      if (cutShort) return;
      cutShort = reason;
      clearTimeout(timer);
      reject(reason);
      outgoing.destroy();
    };
    const timer = setTimeout(() => {
      stop(new OutboundFetchError(`No complete answer within ${options.timeoutMs / 1000} s`));
    }, options.timeoutMs);
    const fail = (error: Error) => {
      clearTimeout(timer);
      reject(
        cutShort ??
          (error instanceof OutboundFetchError
            ? error
            : new OutboundFetchError(`The request failed: ${error.message}`)),
      );
    };
    outgoing.on('error', fail);
    outgoing.on('response', (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        if (cutShort) return;
        size += chunk.length;
        if (size > options.maxBytes) {
          stop(new OutboundFetchError(`The answer is larger than ${Math.round(options.maxBytes / 1024)} KB`));
          return;
        }
        chunks.push(chunk);
      });
      response.on('error', fail);
      response.on('aborted', () => fail(new OutboundFetchError('The connection closed early')));
      response.on('end', () => {
        clearTimeout(timer);
        if (cutShort) return reject(cutShort);
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        });
      });
    });
    outgoing.end(request.body);
  });
}

/**
 * A `fetch` for SDKs that take one (the AI SDK): the same guard as `outboundFetch` (http(s) only,
 * every resolved address checked at connect time, no redirects followed, a time limit to the first
 * byte), but the body streams, so a streamed model answer arrives as it is written.
 */
export function guardedFetch(
  options: Pick<OutboundFetchOptions, 'allowPrivateNetwork' | 'timeoutMs'>,
): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new OutboundFetchError('Only http and https URLs can be fetched');
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) !== 0 && !options.allowPrivateNetwork && isNonPublicAddress(host)) throw refusal(host);
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;

    return new Promise<Response>((resolve, reject) => {
      const client = url.protocol === 'https:' ? https : http;
      const outgoing = client.request(url, {
        method: request.method,
        headers: { 'user-agent': 'Letterset', ...Object.fromEntries(request.headers) },
        lookup: guardedLookup(options.allowPrivateNetwork),
        signal: request.signal,
      });
      const timer = setTimeout(() => {
        outgoing.destroy(new OutboundFetchError(`No answer within ${options.timeoutMs / 1000} s`));
      }, options.timeoutMs);
      outgoing.on('error', (error) => {
        clearTimeout(timer);
        reject(
          error instanceof OutboundFetchError
            ? error
            : new OutboundFetchError(`The request failed: ${error.message}`),
        );
      });
      outgoing.on('response', (incoming) => {
        clearTimeout(timer);
        const headers = new Headers();
        for (const [name, value] of Object.entries(incoming.headers)) {
          if (value === undefined) continue;
          for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
        }
        const status = incoming.statusCode ?? 502;
        const hasBody = request.method !== 'HEAD' && status !== 204 && status !== 304;
        resolve(
          new Response(hasBody ? (Readable.toWeb(incoming) as ReadableStream<Uint8Array>) : null, {
            status,
            statusText: incoming.statusMessage ?? '',
            headers,
          }),
        );
      });
      outgoing.end(body);
    });
  };
}
