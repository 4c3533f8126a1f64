import { type Static, type TNumberOptions, type TSchema, type TStringOptions, Type } from 'typebox';
import { type ErrorCode, type ErrorStatus, errorCatalogue, errorCodes } from './errors.ts';
import { singleLinePattern } from './validation-messages.ts';

export const ErrorCodeSchema = Type.Unsafe<ErrorCode>({
  $id: 'ErrorCode',
  type: 'string',
  enum: [...errorCodes],
  description:
    'A stable machine-readable name of the error, for programs (the message is for people): one per ' +
    'status (validation_failed, not_found, permission_denied, stale_write, rate_limited, …), or a more ' +
    'specific one (grant_beyond_own_keys, pre_send_checks_failed, last_administrator, …): the API conventions page of the docs lists them all.',
  examples: ['not_found'],
});

/**
 * Schemas shared by many routes. Each has an `$id`: it is registered once with `addSchema`, so
 * the OpenAPI document names it under `components.schemas` and routes point at it with `ref()`.
 */
export const ErrorSchema = Type.Object(
  {
    message: Type.String({ description: 'What went wrong, in words a person can act on' }),
    code: ref(ErrorCodeSchema),
  },
  { $id: 'Error', description: 'The body of 400, 401, 403, 404, 413, 415, 429, 500 and 502 answers' },
);

export const ValidationErrorSchema = Type.Object(
  {
    message: Type.String({ examples: ['Failed to save'] }),
    code: ref(ErrorCodeSchema),
    errors: Type.Record(Type.String(), Type.Array(Type.String()), {
      description: 'Field path (dot-separated; array items by index) → messages for that field',
      examples: [{ name: ['is required'], 'stages.0.position': ['must be an integer'] }],
    }),
    problems: Type.Optional(
      Type.Array(Type.Unsafe(Type.Ref('PreSendProblem')), {
        description:
          'With code pre_send_checks_failed: the blocking problems of the pre-send checks, each with its ' +
          'locale, branch and component instance (the same messages are under errors.checks.<locale>)',
      }),
    ),
  },
  { $id: 'ValidationError', description: 'The body of a 422 answer' },
);

export const ConflictErrorSchema = Type.Object(
  { message: Type.String(), code: ref(ErrorCodeSchema) },
  {
    $id: 'ConflictError',
    additionalProperties: true,
    description: 'The body of a 409 answer: the write was based on a stale version; it names what is current',
  },
);

export const PaginationSchema = Type.Object(
  {
    per: Type.Integer({ description: 'Records per page', examples: [10] }),
    page: Type.Integer({ description: 'This page, counted from 1', examples: [1] }),
    total: Type.Integer({ description: 'Records across all pages', examples: [42] }),
  },
  { $id: 'Pagination' },
);

export const sharedSchemas: TSchema[] = [
  ErrorCodeSchema,
  ErrorSchema,
  ValidationErrorSchema,
  ConflictErrorSchema,
  PaginationSchema,
];

/** A reference to a shared schema (one with an `$id`), typed as that schema. */
export function ref<T extends TSchema>(schema: T) {
  const id = (schema as { $id?: string }).$id;
  if (!id) throw new Error('ref() needs a schema with an $id, registered with addSchema');
  return Type.Unsafe<Static<T>>(Type.Ref(id));
}

/** The documented error answers of a route, from the catalogue. */
export function errorResponses(...statuses: ErrorStatus[]): Record<number, TSchema> {
  return Object.fromEntries(
    statuses.map((status) => [
      status,
      Type.Unsafe(Type.Ref(errorCatalogue[status].schemaId, { description: errorCatalogue[status].title })),
    ]),
  );
}

/** Timestamps are ISO 8601 with milliseconds, e.g. 2026-11-21T10:30:00.000Z. */
export const Timestamp = Type.Unsafe<Date | string>(
  Type.String({ format: 'date-time', examples: ['2026-11-21T10:30:00.000Z'] }),
);

/** A request body object: unknown fields are refused with a 422, never silently dropped. */
export function RequestBody<T extends Parameters<typeof Type.Object>[0]>(
  properties: T,
  description?: string,
) {
  return Type.Object(properties, { additionalProperties: false, ...(description ? { description } : {}) });
}

/**
 * The bounds of request input, declared once: every string a request carries has a maximum length
 * and every integer a maximum, so nothing reaches the database that it cannot hold (and the
 * OpenAPI document shows each as `maxLength` / `maximum`). The docs' Limits page lists them.
 */
export const limits = {
  /** Record ids are PostgreSQL `serial` (integer): 1 to 2,147,483,647. */
  largestId: 2_147_483_647,
  /** Names of records: workspaces, design systems, emails, … */
  name: 200,
  /** A person's first or last name. */
  personName: 100,
  /** What the editor shows for a field, a branch, a style. */
  label: 200,
  description: 2_000,
  /** Short free text: syntax snippets, default values, subject lines, header values. */
  text: 2_000,
  /** Names that code reads: liquid variables, branch keys, parameter names. */
  identifier: 100,
  url: 2_000,
  search: 200,
  /** A component's Liquid and HTML. */
  template: 200_000,
  /** One value of one field of an email (rich text included). */
  contentValue: 100_000,
  prompt: 10_000,
  /** Secrets in paths (invitation links) and codes. */
  token: 100,
  password: 200,
  /** How deep a request's JSON may nest: well beyond any shape the API declares. */
  nestingDepth: 32,
} as const;

/** A record id: an integer the database can hold. */
export const Id = (options: TNumberOptions = {}) =>
  Type.Integer({ minimum: 1, maximum: limits.largestId, ...options });
export const Name = (options: TStringOptions = {}) =>
  Type.String({ minLength: 1, maxLength: limits.name, pattern: singleLinePattern, ...options });
export const PersonName = (options: TStringOptions = {}) =>
  Type.String({ minLength: 1, maxLength: limits.personName, pattern: singleLinePattern, ...options });
export const Label = (options: TStringOptions = {}) =>
  Type.String({ minLength: 1, maxLength: limits.label, pattern: singleLinePattern, ...options });
export const Description = (options: TStringOptions = {}) =>
  Type.String({ maxLength: limits.description, ...options });
export const Text = (options: TStringOptions = {}) => Type.String({ maxLength: limits.text, ...options });
export const Identifier = (options: TStringOptions = {}) =>
  Type.String({ minLength: 1, maxLength: limits.identifier, ...options });
export const Url = (options: TStringOptions = {}) => Type.String({ maxLength: limits.url, ...options });
export const SearchText = (options: TStringOptions = {}) =>
  Type.String({ maxLength: limits.search, ...options });
export const Template = (options: TStringOptions = {}) =>
  Type.String({ maxLength: limits.template, ...options });
export const ContentValue = (options: TStringOptions = {}) =>
  Type.String({ maxLength: limits.contentValue, ...options });
export const Prompt = (options: TStringOptions = {}) => Type.String({ maxLength: limits.prompt, ...options });
export const Token = (options: TStringOptions = {}) =>
  Type.String({ minLength: 1, maxLength: limits.token, ...options });
export const Uuid = (options: TStringOptions = {}) =>
  Type.String({ format: 'uuid', maxLength: 36, ...options });
/** A point in time in a query, e.g. 2026-11-21T10:30:00.000Z. */
export const DateTimeText = (options: TStringOptions = {}) =>
  Type.String({ format: 'date-time', maxLength: 40, ...options });

export const IdParams = Type.Object({ id: Id() });
/** The `{workspace_id}` of workspace-scoped routes. */
export const WorkspaceIdParams = Type.Object({ workspace_id: Id() });
