import { type Static, type TSchema, Type } from 'typebox';
import { type ErrorStatus, errorCatalogue } from './errors.ts';

/**
 * Schemas shared by many routes. Each has an `$id`: it is registered once with `addSchema`, so
 * the OpenAPI document names it under `components.schemas` and routes point at it with `ref()`.
 */
export const ErrorSchema = Type.Object(
  { message: Type.String({ description: 'What went wrong, in words a person can act on' }) },
  { $id: 'Error', description: 'The body of 400, 401, 403, 404, 413, 415 and 429 answers' },
);

export const ValidationErrorSchema = Type.Object(
  {
    message: Type.String({ examples: ['Failed to save'] }),
    errors: Type.Record(Type.String(), Type.Array(Type.String()), {
      description: 'Field path (dot-separated; array items by index) → messages for that field',
      examples: [{ name: ['is required'], 'stages.0.position': ['must be an integer'] }],
    }),
  },
  { $id: 'ValidationError', description: 'The body of a 422 answer' },
);

export const ConflictErrorSchema = Type.Object(
  { message: Type.String() },
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

export const IdParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });
