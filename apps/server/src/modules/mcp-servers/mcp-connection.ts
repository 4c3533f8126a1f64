import { isIP } from 'node:net';
import {
  Client,
  extractWWWAuthenticateParams,
  SdkHttpError,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import type { mcpServers } from '../../db/schema.ts';
import { guardedFetch, isNonPublicAddress, OutboundFetchError } from '../../security/outbound-fetch.ts';
import type { Secrets } from '../../security/secrets.ts';
import type { Services } from '../../services.ts';

export type McpServerRow = typeof mcpServers.$inferSelect;

/** Listing tools and OAuth exchanges: an answer within this or the check fails. */
export const mcpRequestTimeoutMs = 20_000;
/** A tool call may do real work on the other side (search, read a document): longer. */
export const mcpToolCallTimeoutMs = 120_000;

const headersPurpose = 'mcp-server-headers';

/**
 * The `fetch` for every request to an MCP server and to its OAuth endpoints: the SSRF guard
 * (private addresses only with ALLOW_PRIVATE_NETWORK_FETCH, no redirects followed by itself),
 * with a time limit to the first byte.
 */
export function mcpFetch(services: Pick<Services, 'config'>, timeoutMs = mcpRequestTimeoutMs): typeof fetch {
  return guardedFetch({ allowPrivateNetwork: services.config.outboundFetch.allowPrivateNetwork, timeoutMs });
}

/**
 * Why a URL cannot be an MCP server's, or null when it can: http(s) only, and an address
 * written literally must be public unless the server allows private ones. Host names are
 * checked when connecting (every address they resolve to).
 */
export function mcpUrlProblem(text: string, allowPrivateNetwork: boolean): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'is not a valid URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http or https URL';
  if (url.username || url.password) return 'must not contain a user name or password: use headers';
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const literalPrivate =
    (isIP(host) !== 0 && isNonPublicAddress(host)) || host === 'localhost' || host.endsWith('.localhost');
  if (literalPrivate && !allowPrivateNetwork)
    return 'is a private or loopback address, which Letterset does not call unless the server sets ALLOW_PRIVATE_NETWORK_FETCH=true';
  return null;
}

export function sealHeaders(secrets: Secrets, headers: Record<string, string>): string | null {
  return Object.keys(headers).length === 0 ? null : secrets.seal(JSON.stringify(headers), headersPurpose);
}

/** The header values the server is called with, in the clear: only for the request itself. */
export function openHeaders(
  secrets: Secrets,
  row: Pick<McpServerRow, 'sealedHeaders'>,
): Record<string, string> {
  if (!row.sealedHeaders) return {};
  return JSON.parse(secrets.open(row.sealedHeaders, headersPurpose)) as Record<string, string>;
}

/** A failed attempt to talk to an MCP server, in words a person can act on. */
export class McpConnectionError extends Error {
  /** The HTTP status the server answered, when it answered one. */
  readonly status: number | undefined;
  /** The server's 401 answer, when it refused: it may point at OAuth metadata. */
  readonly challenge: { resourceMetadataUrl?: URL; scope?: string } | undefined;
  constructor(
    message: string,
    details: { status?: number; challenge?: { resourceMetadataUrl?: URL; scope?: string } } = {},
  ) {
    super(message);
    this.name = 'McpConnectionError';
    this.status = details.status;
    this.challenge = details.challenge;
  }
}

export interface McpConnection {
  client: Client;
  close(): Promise<void>;
}

/**
 * Connects to an MCP server over Streamable HTTP with the MCP SDK client: the stored headers,
 * the person's bearer token for an OAuth server, every request through the guarded fetch.
 */
export async function connectMcp(
  services: Pick<Services, 'config'>,
  target: { url: string; headers: Record<string, string>; accessToken?: string | undefined },
  options: { timeoutMs?: number } = {},
): Promise<McpConnection> {
  const guarded = mcpFetch(services, options.timeoutMs);
  let refusal: Response | undefined;
  // The transport turns a 401 into an error without its headers: keep the answer to read them.
  const watching: typeof fetch = async (input, init) => {
    const response = await guarded(input, init);
    if (response.status === 401) refusal = response.clone();
    return response;
  };
  const headers: Record<string, string> = { ...target.headers };
  if (target.accessToken) headers.Authorization = `Bearer ${target.accessToken}`;
  const transport = new StreamableHTTPClientTransport(new URL(target.url), {
    fetch: watching,
    requestInit: { headers },
  });
  const client = new Client({ name: 'Letterset', version: '1.0.0' });
  try {
    await client.connect(transport, { timeout: options.timeoutMs ?? mcpRequestTimeoutMs });
  } catch (error) {
    await client.close().catch(() => undefined);
    throw connectionError(error, refusal);
  }
  return {
    client,
    close: async () => {
      await client.close().catch(() => undefined);
    },
  };
}

/** The tools an MCP server lists now (every page of them). */
export async function listMcpTools(connection: McpConnection) {
  const tools: {
    name: string;
    description: string | null;
    inputSchema: Record<string, unknown>;
  }[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 50; page += 1) {
    let result: Awaited<ReturnType<Client['listTools']>>;
    try {
      result = await connection.client.listTools(cursor ? { cursor } : undefined, {
        timeout: mcpRequestTimeoutMs,
      });
    } catch (error) {
      throw connectionError(error, undefined);
    }
    for (const tool of result.tools)
      tools.push({
        name: tool.name,
        description: tool.description ?? null,
        inputSchema: tool.inputSchema as Record<string, unknown>,
      });
    cursor = result.nextCursor;
    if (!cursor) break;
  }
  return tools;
}

function connectionError(error: unknown, refusal: Response | undefined): McpConnectionError {
  if (error instanceof McpConnectionError) return error;
  if (refusal) {
    const params = extractWWWAuthenticateParams(refusal);
    return new McpConnectionError('The server refused the request (401 Unauthorized)', {
      status: 401,
      challenge: {
        ...(params.resourceMetadataUrl ? { resourceMetadataUrl: params.resourceMetadataUrl } : {}),
        ...(params.scope ? { scope: params.scope } : {}),
      },
    });
  }
  if (error instanceof SdkHttpError) {
    const status = error.data?.status;
    return new McpConnectionError(
      status === 404
        ? 'The server answered 404 Not Found: check the URL (it is usually the one ending in /mcp)'
        : status === 403
          ? 'The server refused the request (403 Forbidden): check the headers'
          : `The server answered HTTP ${status ?? 'error'}${error.data?.statusText ? ` ${error.data.statusText}` : ''}`,
      status === undefined ? {} : { status },
    );
  }
  // The guard's refusals and network failures arrive wrapped by the transport.
  const cause = findCause(error);
  if (cause instanceof OutboundFetchError) return new McpConnectionError(cause.message);
  const message = error instanceof Error ? error.message : String(error);
  return new McpConnectionError(`Could not talk to the MCP server: ${message}`);
}

function findCause(error: unknown): unknown {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth += 1) {
    if (current instanceof OutboundFetchError) return current;
    current = current.cause;
  }
  return current;
}
