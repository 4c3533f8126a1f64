import type { ErrorCode } from '@letterset/api-client';

/**
 * An API answer other than 2xx, as the screens see it: the status, the API's message and its
 * machine-readable code, and for a 422 the messages per field path (`name`, `fields.0.label`, ...).
 */
export class ApiError extends Error {
  readonly status: number;
  /** The error's stable `code` (`stale_write`, `pre_send_checks_failed`, …); null when the body has none. */
  readonly code: ErrorCode | null;
  readonly fieldErrors: Record<string, string[]>;
  readonly body: unknown;

  constructor(status: number, body: unknown) {
    super(messageOf(status, body));
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
    this.code = codeOf(body);
    this.fieldErrors = fieldErrorsOf(body);
  }
}

function codeOf(body: unknown): ErrorCode | null {
  if (body && typeof body === 'object' && 'code' in body && typeof body.code === 'string') {
    return body.code as ErrorCode;
  }
  return null;
}

/** The API's `{ data, error, response }` answer turned into the data, or a thrown ApiError. */
export async function unwrap<T>(
  call: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) throw new ApiError(response.status, error);
  return data as T;
}

function messageOf(status: number, body: unknown): string {
  if (body && typeof body === 'object' && 'message' in body && typeof body.message === 'string') {
    return body.message;
  }
  if (status >= 500) return 'The server ran into a problem. Try again in a moment.';
  return `The request failed (${status}).`;
}

function fieldErrorsOf(body: unknown): Record<string, string[]> {
  if (!body || typeof body !== 'object' || !('errors' in body)) return {};
  const errors = body.errors;
  if (!errors || typeof errors !== 'object') return {};
  const result: Record<string, string[]> = {};
  for (const [path, messages] of Object.entries(errors)) {
    if (Array.isArray(messages)) result[path] = messages.map(String);
  }
  return result;
}

/** What to tell the user about any thrown value. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof TypeError) return 'The server cannot be reached. Check your connection and try again.';
  return error instanceof Error ? error.message : String(error);
}
