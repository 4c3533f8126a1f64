import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a fake platform saw: enough for tests to assert on headers and bodies. */
export interface SeenRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** An answer a test forces on the next requests (rate limits, outages, HTML error pages). */
export interface ForcedAnswer {
  status: number;
  headers?: Record<string, string>;
  body: string;
  /** Only requests whose path starts with this; any request when absent. */
  pathPrefix?: string;
  /** Answers this late (a platform that hangs). */
  delayMs?: number;
}

export interface FakeAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** Written piece by piece as it is produced (server-sent events), instead of `body`. */
  stream?: AsyncIterable<string>;
}

export const json = (status: number, body: unknown, headers: Record<string, string> = {}): FakeAnswer => ({
  status,
  body,
  headers,
});

/**
 * A loopback HTTP server for a fake platform: it records every request, plays forced answers
 * first, and hands the rest to the platform's handler.
 */
export async function startFakeServer(
  handle: (request: SeenRequest) => FakeAnswer | Promise<FakeAnswer>,
  port = 0,
): Promise<{
  url: string;
  seen: SeenRequest[];
  forced: ForcedAnswer[];
  close(): Promise<void>;
}> {
  const seen: SeenRequest[] = [];
  const forced: ForcedAnswer[] = [];
  const server = http.createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', async () => {
      const url = new URL(incoming.url ?? '/', 'http://fake');
      const request: SeenRequest = {
        method: incoming.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: incoming.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      seen.push(request);
      const forcedIndex = forced.findIndex(
        (answer) => answer.pathPrefix === undefined || request.path.startsWith(answer.pathPrefix),
      );
      if (forcedIndex >= 0) {
        const [answer] = forced.splice(forcedIndex, 1);
        if (answer?.delayMs) await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
        if (outgoing.destroyed) return;
        outgoing.writeHead(answer?.status ?? 500, answer?.headers ?? {});
        outgoing.end(answer?.body ?? '');
        return;
      }
      try {
        const answer = await handle(request);
        const headers = { ...(answer.headers ?? {}) };
        if (answer.stream) {
          outgoing.writeHead(answer.status, headers);
          for await (const piece of answer.stream) {
            // The client hung up (an aborted stream): stop producing.
            if (outgoing.destroyed) return;
            outgoing.write(piece);
          }
          outgoing.end();
          return;
        }
        let body = '';
        if (typeof answer.body === 'string') body = answer.body;
        else if (answer.body !== undefined) {
          body = JSON.stringify(answer.body);
          headers['content-type'] ??= 'application/json';
        }
        outgoing.writeHead(answer.status, headers);
        outgoing.end(body);
      } catch (error) {
        // A stream that fails midway can no longer change its status: cut it off instead.
        if (outgoing.headersSent) {
          outgoing.destroy();
          return;
        }
        outgoing.writeHead(500, { 'content-type': 'text/plain' });
        outgoing.end(`fake failed: ${(error as Error).message}`);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: listening } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${listening}`,
    seen,
    forced,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The request body as JSON; undefined when it is not JSON. */
export function bodyJson(request: SeenRequest): Record<string, unknown> | undefined {
  try {
    const parsed = JSON.parse(request.body);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** A 5xx page the way load balancers answer one: HTML, not the platform's JSON. */
export function htmlOutage(status = 502): ForcedAnswer {
  return {
    status,
    headers: { 'content-type': 'text/html' },
    body: `<html><head><title>${status} Bad Gateway</title></head><body><h1>${status} Bad Gateway</h1></body></html>`,
  };
}
