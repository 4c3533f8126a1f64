import createClient, { type ClientOptions } from 'openapi-fetch';
import type { components, paths } from './schema.ts';

export type { components, operations, paths } from './schema.ts';

/**
 * The typed Letterset API client, generated from the server's committed openapi.yml. In the web
 * app it sends the session cookie; elsewhere pass `headers: { Authorization: 'Bearer <key>' }`.
 */
export function createApiClient(options: ClientOptions = {}) {
  return createClient<paths>({ credentials: 'include', ...options });
}

export type ApiClient = ReturnType<typeof createApiClient>;

/** The body of every error answer: `message` for people, `code` for programs (and `errors` on a 422). */
export type ErrorBody = components['schemas']['Error'];

/** The stable machine-readable name of an error answer; the docs' API conventions page lists each. */
export type ErrorCode = ErrorBody['code'];
