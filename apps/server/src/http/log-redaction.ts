/**
 * What the logger may write about requests and errors. Every log line of the server goes through
 * these serializers (the request logger, the error handler's `err`, the job queue's), so a secret
 * kept out here is kept out everywhere, without each module having to remember it.
 *
 * - Errors keep their type, message, stack frames, code and the database's metadata (constraint,
 *   table, column) but not the values involved: a failed query's `params` (a feed's secret
 *   header, a sealed token), the `detail` that quotes the failing row or key, PGlite's
 *   `queryOptions`. A value quoted at the end of a database message is replaced.
 * - Request URLs keep their path and query names, but not the values of tokens: the invitation
 *   or password-reset token in a path, and `token`, `code`, `state`, keys, secrets, passwords,
 *   signatures and verifiers in the query.
 */

export const redacted = '[redacted]';

/** Path segments that are tokens: what follows these names (invitation and password-reset links). */
const tokenPathNames =
  /(\/(?:invitations|password_resets|password-resets|password_reset|reset_password|reset-password)\/)([^/?#]+)/gi;
/** Query parameters whose values are credentials or one-time codes. */
const secretQueryName =
  /token|code|state|secret|passw|key|signature|^sig$|verifier|credential|auth|session|otp/i;

/** The URL with token path segments and secret query values replaced by `[redacted]`. */
export function redactUrl(url: string): string {
  const queryStart = url.indexOf('?');
  const path = queryStart === -1 ? url : url.slice(0, queryStart);
  const redactedPath = path.replace(tokenPathNames, (_match, prefix: string) => `${prefix}${redacted}`);
  if (queryStart === -1) return redactedPath;
  const query = url
    .slice(queryStart + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      if (equals === -1) return pair;
      const rawName = pair.slice(0, equals);
      let name = rawName;
      try {
        name = decodeURIComponent(rawName.replaceAll('+', ' '));
      } catch {
        // A name that does not decode is compared as written.
      }
      return secretQueryName.test(name) ? `${rawName}=${redacted}` : pair;
    })
    .join('&');
  return `${redactedPath}?${query}`;
}

/** What the request serializer reads of Fastify's request. */
interface LoggedRequest {
  method?: string;
  url?: string;
  headers?: Record<string, string | string[] | undefined>;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number } | null;
}

/** Fastify's own request serializer, with the URL redacted. */
export function serializeRequest(request: LoggedRequest) {
  const version = request.headers?.['accept-version'];
  return {
    method: request.method,
    url: request.url === undefined ? undefined : redactUrl(request.url),
    version: typeof version === 'string' ? version : undefined,
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** Text properties an error may keep: names of things, never the values written to them. */
const describingProperties = new Set([
  'code',
  'severity',
  'constraint',
  'table',
  'column',
  'schema',
  'dataType',
  'routine',
  'status',
  'statusCode',
  'scope',
  'kind',
]);
const maxCauseDepth = 5;
const maxQueryLength = 4000;

interface SerializedError {
  type: string;
  message: string;
  stack: string;
  query?: string;
  cause?: SerializedError;
  errors?: SerializedError[];
  [property: string]: unknown;
}

function isDatabaseError(error: Record<string, unknown>): boolean {
  return (
    typeof error.severity === 'string' && typeof error.code === 'string' && /^[0-9A-Z]{5}$/.test(error.code)
  );
}

function safeMessage(error: Record<string, unknown>): string {
  const message = typeof error.message === 'string' ? error.message : String(error.message ?? '');
  // Drizzle's "Failed query: <sql>\nparams: <values>" (the SQL is kept under `query`).
  const withoutParams = message.replace(/\nparams:[\s\S]*$/, '');
  // PostgreSQL's `invalid input syntax for type integer: "<value>"` and the like.
  return isDatabaseError(error) ? withoutParams.replace(/: ".*"$/s, `: "${redacted}"`) : withoutParams;
}

/** The error as it may be logged (see the module comment). Anything that is not an object is shown as text. */
export function serializeError(error: unknown, depth = 0): SerializedError {
  if (error === null || typeof error !== 'object')
    return { type: typeof error, message: String(error), stack: '' };
  const record = error as Record<string, unknown>;
  const type = (error as { constructor?: { name?: string } }).constructor?.name ?? 'Object';
  const message = safeMessage(record);
  // The stack's first lines repeat the message: only its frames are kept, under the safe message.
  const frames =
    typeof record.stack === 'string' ? record.stack.split('\n').filter((line) => /^\s+at /.test(line)) : [];
  const serialized: SerializedError = { type, message, stack: [`${type}: ${message}`, ...frames].join('\n') };
  for (const [property, value] of Object.entries(record)) {
    if (typeof value === 'number' || typeof value === 'boolean') serialized[property] = value;
    else if (typeof value === 'string' && describingProperties.has(property)) serialized[property] = value;
  }
  if (typeof record.query === 'string') serialized.query = record.query.slice(0, maxQueryLength);
  if (depth < maxCauseDepth) {
    if (record.cause !== undefined) serialized.cause = serializeError(record.cause, depth + 1);
    if (Array.isArray(record.errors))
      serialized.errors = record.errors.slice(0, 10).map((inner) => serializeError(inner, depth + 1));
  }
  return serialized;
}

/** The logger's serializers: `err` and `error` for errors, `req` for requests. */
export const logSerializers = {
  err: (error: unknown) => serializeError(error),
  error: (error: unknown) => serializeError(error),
  req: serializeRequest,
};
