import type { FastifyInstance, FastifySchemaCompiler } from 'fastify';
import type { FastifySchemaValidationError } from 'fastify/types/schema.js';
import type { Static, TSchema } from 'typebox';
import { ValidationError } from '../../http/errors.ts';
import { buildValidatorFactory } from '../../http/validation.ts';
import { fieldErrorsFromAjv } from '../../http/validation-messages.ts';

type Validator = ((data: unknown) => boolean) & { errors?: FastifySchemaValidationError[] | null };
type CompilerFactory = (externalSchemas: Record<string, unknown>) => FastifySchemaCompiler<unknown>;
type RequestPart = 'body' | 'querystring';

const validators = new WeakMap<object, Map<TSchema, Map<RequestPart, Validator>>>();

/**
 * A tool's input checked by the API's own schema for that operation, with the API's validator
 * (bounds, unknown fields, storable text, defaults filled in): the same 422 messages as the API.
 */
export function checkedInput<T extends TSchema>(
  api: Pick<FastifyInstance, 'getSchemas'>,
  schema: T,
  input: Record<string, unknown>,
  part: RequestPart = 'body',
): Static<T> {
  let bySchema = validators.get(api);
  if (!bySchema) {
    bySchema = new Map();
    validators.set(api, bySchema);
  }
  let byPart = bySchema.get(schema);
  if (!byPart) {
    byPart = new Map();
    bySchema.set(schema, byPart);
  }
  let validate = byPart.get(part);
  if (!validate) {
    const compile = (buildValidatorFactory() as unknown as CompilerFactory)(api.getSchemas());
    validate = compile({ schema, httpPart: part, method: 'POST', url: '/mcp' }) as Validator;
    byPart.set(part, validate);
  }
  const data = structuredClone(withoutUndefined(input));
  if (!validate(data)) throw new ValidationError(fieldErrorsFromAjv(validate.errors ?? [], part));
  return data as Static<T>;
}

/** Optional arguments left out arrive as `undefined`; the API's schemas know only absent fields. */
function withoutUndefined(input: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));
}
