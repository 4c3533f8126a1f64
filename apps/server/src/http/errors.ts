import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifySchemaValidationError } from 'fastify/types/schema.js';
import { type FieldErrors, fieldErrorsFromAjv } from './validation-messages.ts';

/**
 * The error catalogue. Services throw these; the one handler below turns them into responses.
 * Every body has `message` (for people) and `code` (for programs: stable, from this catalogue).
 * 401/403/404/400/413/415/429/502: `{message, code}`. 409: `{message, code, ...details}`.
 * 422: `{message, code, errors}`.
 */
export const errorCatalogue = {
  400: { title: 'Bad request', schemaId: 'Error', code: 'bad_request' },
  401: { title: 'Unauthorized', schemaId: 'Error', code: 'authentication_required' },
  403: { title: 'Forbidden', schemaId: 'Error', code: 'permission_denied' },
  404: { title: 'Not found', schemaId: 'Error', code: 'not_found' },
  409: { title: 'Conflict', schemaId: 'ConflictError', code: 'stale_write' },
  413: { title: 'Payload too large', schemaId: 'Error', code: 'payload_too_large' },
  415: { title: 'Unsupported media type', schemaId: 'Error', code: 'unsupported_media_type' },
  422: { title: 'Validation failed', schemaId: 'ValidationError', code: 'validation_failed' },
  429: {
    title: 'Too many requests; the Retry-After header says in how many seconds to try again',
    schemaId: 'Error',
    code: 'rate_limited',
  },
  502: { title: 'An outside service failed', schemaId: 'Error', code: 'upstream_failed' },
} as const;
export type ErrorStatus = keyof typeof errorCatalogue;

/**
 * Refusals a client may want to tell apart from others of their status: their `code` replaces the
 * status's own. Each is listed here, with its status, so the OpenAPI document and the docs name them.
 */
export const specificErrorCodes = {
  grant_beyond_own_keys: {
    status: 403,
    meaning: 'The request would give (or take) permission keys the caller does not hold.',
  },
  last_administrator: {
    status: 422,
    meaning: 'The change would leave the organization with nobody who can manage users and roles.',
  },
  pre_send_checks_failed: {
    status: 422,
    meaning: 'A step toward sending was refused by blocking pre-send checks; `problems` lists them.',
  },
  pre_send_checks_changed: {
    status: 409,
    meaning:
      'The problems a forced publish acknowledged are no longer the blocking ones; `problems` lists the current ones.',
  },
} as const satisfies Record<string, { status: ErrorStatus; meaning: string }>;

/** The answer to an error no one foresaw (a bug or an outage); it is logged with its details. */
export const internalErrorCode = 'internal_error';

/** Every `code` an error body can carry. */
export type ErrorCode =
  | (typeof errorCatalogue)[ErrorStatus]['code']
  | keyof typeof specificErrorCodes
  | typeof internalErrorCode;

/** The catalogue's codes in the order the docs list them: the statuses', then the specific ones. */
export const errorCodes: readonly ErrorCode[] = [
  ...Object.values(errorCatalogue).map((entry) => entry.code),
  ...(Object.keys(specificErrorCodes) as (keyof typeof specificErrorCodes)[]),
  internalErrorCode,
];

/** The body of an error answer that only has a message. */
export function errorBody(status: ErrorStatus, message: string): { message: string; code: ErrorCode } {
  return { message, code: errorCatalogue[status].code };
}

export class HttpError extends Error {
  readonly statusCode: ErrorStatus;
  /** The stable machine-readable name of the refusal: the status's own unless a specific one is given. */
  readonly code: ErrorCode;

  constructor(statusCode: ErrorStatus, message: string, code?: keyof typeof specificErrorCodes) {
    super(message);
    this.name = new.target.name;
    this.statusCode = statusCode;
    this.code = code ?? errorCatalogue[statusCode].code;
  }

  toBody(): Record<string, unknown> {
    return { message: this.message, code: this.code };
  }
}

export class BadRequestError extends HttpError {
  constructor(message: string) {
    super(400, message);
  }
}

export class UnauthorizedError extends HttpError {
  constructor(message = 'You need to sign in or provide a valid API key') {
    super(401, message);
  }
}

export class ForbiddenError extends HttpError {
  constructor(message = 'You do not have permission to do this', code?: keyof typeof specificErrorCodes) {
    super(403, message, code);
  }
}

/** Also what another organization's ids answer: existence is never leaked through a 403. */
export class NotFoundError extends HttpError {
  constructor(message = 'Record not found') {
    super(404, message);
  }
}

/** A write based on a stale version; `details` tells the client what is current. */
export class ConflictError extends HttpError {
  readonly details: Record<string, unknown>;

  constructor(message: string, details: Record<string, unknown> = {}) {
    super(409, message);
    this.details = details;
  }

  override toBody() {
    return { message: this.message, code: this.code, ...this.details };
  }
}

/** Service-level validation: the same 422 body the schema validation produces. */
export class ValidationError extends HttpError {
  readonly errors: FieldErrors;

  constructor(errors: FieldErrors, message = 'Failed to save', code?: keyof typeof specificErrorCodes) {
    super(422, message, code);
    this.errors = errors;
  }

  /** One field, one message: the common case. */
  static field(field: string, message: string): ValidationError {
    return new ValidationError({ [field]: [message] });
  }

  override toBody() {
    return { ...super.toBody(), errors: this.errors };
  }
}

/** A problem the pre-send checks found, as the refusal lists it (the core's `PreSendProblem`). */
export interface CheckProblem {
  code: string;
  severity: 'blocking' | 'warning';
  locale: string | null;
  branch: string | null;
  component_instance_id: string | null;
  message: string;
}

/**
 * Blocking pre-send checks refuse a step that leads to sending (submit for approval, approve,
 * publish): the messages under `checks.<locale>` (or `checks` for the email as a whole), as an
 * export's refusal has them, and the problems themselves with their branch and component.
 */
export class PreSendChecksFailedError extends ValidationError {
  readonly problems: CheckProblem[];

  constructor(problems: readonly CheckProblem[], message: string) {
    const blocking = problems.filter((problem) => problem.severity === 'blocking');
    const errors: FieldErrors = {};
    for (const problem of blocking) {
      const key = problem.locale === null ? 'checks' : `checks.${problem.locale}`;
      errors[key] = [...(errors[key] ?? []), problem.message];
    }
    super(errors, message, 'pre_send_checks_failed');
    this.problems = blocking;
  }

  override toBody() {
    return { ...super.toBody(), problems: this.problems };
  }
}

/**
 * For the `.catch` of a look-up of a record that a request field names: the record's absence
 * (a 404) is the request's fault, a 422 on that field; any other failure (a database outage)
 * stays the failure it is, rather than a 422 blaming the input.
 */
export function notFoundAsFieldError(field: string, message: string): (error: unknown) => never {
  return (error) => {
    if (error instanceof NotFoundError) throw ValidationError.field(field, message);
    throw error;
  };
}

/** A body over the route's limit, refused before it is read. */
export class PayloadTooLargeError extends HttpError {
  constructor(limitBytes: number) {
    super(413, `The request body is too large: at most ${megabytes(limitBytes)}`);
  }
}

/** A multipart upload with more parts, files or field bytes than any upload takes. */
export class UploadLimitError extends HttpError {
  constructor(message: string) {
    super(413, message);
  }
}

/** A body in a content type the route does not take. */
export class UnsupportedMediaTypeError extends HttpError {
  constructor(accepted: readonly string[]) {
    super(415, `Unsupported content type; send ${accepted.join(' or ')}`);
  }
}

/** Always says when to try again: the handler sends `retryAfterSeconds` as `Retry-After`. */
export class TooManyRequestsError extends HttpError {
  readonly retryAfterSeconds: number;

  constructor(
    retryAfterSeconds: number,
    message = `Too many requests; try again in ${inSeconds(retryAfterSeconds)}`,
  ) {
    super(429, message);
    this.retryAfterSeconds = Math.max(1, Math.ceil(retryAfterSeconds));
  }
}

/** "1 second", "30 seconds": how long to wait, in the words of a 429's message. */
export function inSeconds(seconds: number): string {
  const whole = Math.max(1, Math.ceil(seconds));
  return whole === 1 ? '1 second' : `${whole} seconds`;
}

/**
 * A service Letterset called on the user's behalf (an AI provider) refused or failed; the message
 * says what happened in plain words (a refused key, a rate limit, an unreachable host).
 */
export class UpstreamServiceError extends HttpError {
  constructor(message: string) {
    super(502, message);
  }
}

/** Fastify's own errors for bad requests, with messages a client developer can act on. */
const frameworkErrorMessages: Record<string, { status: ErrorStatus; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, message: 'The request body is not valid JSON' },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    status: 400,
    message: 'The request body is empty but the content type is application/json',
  },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, message: 'Unsupported content type; send application/json' },
  FST_ERR_BAD_URL: { status: 400, message: 'The path is not valid: it has a broken percent-encoding' },
};

/** Validation keywords a path id fails when it is out of the range of ids: it names no record. */
const beyondIdRange = new Set(['minimum', 'maximum', 'maxLength', 'finite']);

function namesNoRecord(context: string | undefined, errors: FastifySchemaValidationError[]): boolean {
  return (
    context === 'params' && errors.length > 0 && errors.every((error) => beyondIdRange.has(error.keyword))
  );
}

function megabytes(bytes: number): string {
  return `${Number((bytes / (1024 * 1024)).toFixed(1))} MB`;
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) {
      if (error instanceof TooManyRequestsError) reply.header('retry-after', String(error.retryAfterSeconds));
      return reply.code(error.statusCode).send(error.toBody());
    }
    if (error.validation) {
      // An id outside 1…2,147,483,647 (or longer than any id) is no record's: 404, as a missing one.
      if (namesNoRecord(error.validationContext, error.validation)) {
        return reply.code(404).send(new NotFoundError().toBody());
      }
      const errors = fieldErrorsFromAjv(error.validation, error.validationContext);
      return reply.code(422).send(new ValidationError(errors).toBody());
    }
    // Fastify's own limit, met by a body streamed without a Content-Length.
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      const limit = request.routeOptions.bodyLimit ?? request.server.initialConfig.bodyLimit ?? 0;
      return reply.code(413).send(new PayloadTooLargeError(limit).toBody());
    }
    const known = error.code ? frameworkErrorMessages[error.code] : undefined;
    if (known) return reply.code(known.status).send(errorBody(known.status, known.message));
    // Malformed JSON surfaces as a SyntaxError with Fastify's 400 attached.
    if (error instanceof SyntaxError || error.statusCode === 400) {
      return reply.code(400).send(errorBody(400, 'The request body is not valid JSON'));
    }
    if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
      const status = error.statusCode in errorCatalogue ? (error.statusCode as ErrorStatus) : 400;
      return reply.code(error.statusCode).send(errorBody(status, error.message));
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply
      .code(500)
      .send({ message: 'Something went wrong on our side; it has been logged', code: internalErrorCode });
  });
}

/**
 * Errors Fastify meets while routing, before any hook runs (the `frameworkErrors` option): a path
 * that cannot be decoded is a 400, and a path segment longer than any id names no record.
 */
export function answerFrameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') return reply.code(404).send(new NotFoundError().toBody());
  const known = error.code ? frameworkErrorMessages[error.code] : undefined;
  if (known) return reply.code(known.status).send(errorBody(known.status, known.message));
  return reply.code(400).send(errorBody(400, 'The request could not be read'));
}

/** Unknown routes: a 404 that names what was asked for. */
export function routeNotFound(request: FastifyRequest, reply: FastifyReply) {
  return reply.code(404).send(errorBody(404, `No route for ${request.method} ${request.url.split('?')[0]}`));
}

/**
 * Names for a "still used by" message: five at most, quoted, then an ellipsis. Callers fetch six,
 * so the ellipsis says truthfully that there are more.
 */
export function quotedNames(names: readonly string[]): string {
  const shown = names.slice(0, 5).map((name) => `“${name}”`);
  return names.length > 5 ? `${shown.join(', ')}, …` : shown.join(', ');
}
