import type { ConnectorEndpoints } from '../config.ts';
import {
  OutboundFetchError,
  type OutboundRequest,
  type OutboundResponse,
  outboundFetch,
} from '../security/outbound-fetch.ts';

/**
 * How connectors talk to sending platforms: through the SSRF guard (only the platforms' public
 * hosts, or the fakes of tests), with a time limit per request, and again after a pause on 429
 * and 5xx answers (the platform's Retry-After when it gives one, else exponential backoff).
 */
export interface PlatformHttp {
  request(request: OutboundRequest): Promise<OutboundResponse>;
}

export interface PlatformHttpOptions {
  endpoints: ConnectorEndpoints;
  /** Attempts in all, the first included. */
  maxAttempts?: number;
  timeoutMs?: number;
  /** The first backoff pause; each later one doubles (with jitter), up to `maxDelayMs`. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Waits between attempts; tests pass one that records the pauses instead of sleeping. */
  sleep?: (milliseconds: number) => Promise<void>;
}

/** A problem with a platform, in words a marketer can act on (never a secret, never raw HTML). */
export class PlatformError extends Error {
  /** The platform's HTTP status, when it answered. */
  readonly status: number | null;
  /**
   * `account`: the credentials, the region or the account itself: every further request would fail
   * the same way, so the other locales of an export are not tried. `request`: this request only.
   */
  readonly scope: 'account' | 'request';

  constructor(message: string, options: { status?: number | null; scope?: 'account' | 'request' } = {}) {
    super(message);
    this.name = 'PlatformError';
    this.status = options.status ?? null;
    this.scope = options.scope ?? 'request';
  }
}

const defaultSleep = (milliseconds: number) =>
  new Promise<void>((resolve) => setTimeout(resolve, milliseconds));

/** Seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(header: string | string[] | undefined, now = Date.now()): number | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value.trim() === '') return null;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Math.round(Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

export function createPlatformHttp(options: PlatformHttpOptions): PlatformHttp {
  const maxAttempts = options.maxAttempts ?? 4;
  const baseDelayMs = options.baseDelayMs ?? 500;
  const maxDelayMs = options.maxDelayMs ?? 30_000;
  const sleep = options.sleep ?? defaultSleep;
  const fetchOptions = {
    allowPrivateNetwork: false,
    privateOriginsAllowed: options.endpoints.privateOrigins,
    timeoutMs: options.timeoutMs ?? 30_000,
    // Content Builder answers an asset with every view of its HTML: room for large emails.
    maxBytes: 20 * 1024 * 1024,
  };
  return {
    async request(request) {
      for (let attempt = 1; ; attempt += 1) {
        let response: OutboundResponse;
        try {
          response = await outboundFetch(request, fetchOptions);
        } catch (error) {
          if (error instanceof OutboundFetchError)
            throw new PlatformError(`The platform could not be reached: ${error.message}`);
          throw error;
        }
        const retryable = response.status === 429 || response.status >= 500;
        if (!retryable || attempt >= maxAttempts) return response;
        const backoff = Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1));
        const jittered = backoff / 2 + Math.random() * (backoff / 2);
        await sleep(Math.min(maxDelayMs, retryAfterMs(response.headers['retry-after']) ?? jittered));
      }
    },
  };
}

/** The JSON of an answer, or null when it is not JSON (platforms answer some errors in HTML). */
export function jsonOf(response: OutboundResponse): unknown {
  try {
    return JSON.parse(response.body);
  } catch {
    return null;
  }
}

/** A short readable line from an answer that is not JSON: an HTML page's title, or its start. */
export function textOf(response: OutboundResponse): string {
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(response.body)?.[1]?.trim();
  const text =
    title ||
    response.body
      .replace(/<[^>]*>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
  return text.length > 160 ? `${text.slice(0, 157)}…` : text;
}
