import type { FastifySchemaValidationError } from 'fastify/types/schema.js';

/**
 * Names and labels are one line of text: no control characters (C0, DEL, C1), so no line breaks,
 * tabs or terminal escapes. (Every string is also refused when it holds NUL or an unpaired
 * surrogate: see `validation.ts`.) Written without `\p{…}` so every regex dialect reads it.
 */
export const singleLinePattern = '^[^\\x00-\\x1F\\x7F-\\x9F]*$';

/** 422 body's `errors`: field path (dots, array indexes as numbers) → messages. */
export type FieldErrors = Record<string, string[]>;

/**
 * Turns Ajv's errors into the field map clients show next to their inputs. Keys are the
 * field's path in the request part (`content.components.0.name`); a problem with the part as a
 * whole is keyed by the part's name (`body`, `querystring`).
 */
export function fieldErrorsFromAjv(
  validationErrors: FastifySchemaValidationError[],
  requestPart: string | undefined,
): FieldErrors {
  // A Map, not an object: a field named `toString` or `__proto__` must not meet Object's own members.
  const byField = new Map<string, string[]>();
  const add = (key: string, message: string) => {
    const messages = byField.get(key) ?? [];
    if (!messages.includes(message)) byField.set(key, [...messages, message]);
  };
  const has = (key: string) => byField.has(key);

  const unionPaths = new Map<string, string[]>();
  for (const error of validationErrors) {
    if (error.keyword === 'anyOf' || error.keyword === 'oneOf') {
      unionPaths.set(error.schemaPath, []);
    }
  }

  for (const error of validationErrors) {
    const params = error.params as Record<string, unknown>;
    const basePath = error.instancePath.slice(1).replaceAll('/', '.');
    const child = (params.missingProperty ?? params.additionalProperty) as string | undefined;
    const key = [basePath, child].filter(Boolean).join('.') || requestPart || 'body';

    // A value failing a union (e.g. string | null) fails every member; say it once, plainly.
    const union = [...unionPaths.keys()].find((schemaPath) => error.schemaPath.startsWith(`${schemaPath}/`));
    if (union !== undefined) {
      if (error.keyword === 'type') unionPaths.get(union)?.push(String(params.type));
      else add(key, messageFor(error.keyword, params, error.message));
      continue;
    }
    if (error.keyword === 'anyOf' || error.keyword === 'oneOf') {
      const types = unionPaths.get(error.schemaPath) ?? [];
      if (!has(key)) add(key, types.length > 0 ? `must be ${types.map(article).join(' or ')}` : 'is invalid');
      continue;
    }
    add(key, messageFor(error.keyword, params, error.message));
  }
  return Object.fromEntries(byField);
}

function messageFor(keyword: string, params: Record<string, unknown>, fallback: string | undefined): string {
  switch (keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return 'is not a known field';
    case 'type':
      return `must be ${article(String(params.type))}`;
    case 'enum': {
      const allowed = params.allowedValues as unknown[];
      // A long list (permission keys, locales) is documented in the API reference, not repeated here.
      return allowed.length > 20
        ? 'is not one of the allowed values'
        : `must be one of: ${allowed.join(', ')}`;
    }
    case 'const':
      return `must be ${JSON.stringify(params.allowedValue)}`;
    case 'minLength':
      return params.limit === 1 ? "can't be blank" : `must be at least ${params.limit} characters`;
    case 'maxLength':
      return `must be at most ${params.limit} characters`;
    case 'minimum':
      return `must be greater than or equal to ${params.limit}`;
    case 'maximum':
      return `must be less than or equal to ${params.limit}`;
    case 'exclusiveMinimum':
      return `must be greater than ${params.limit}`;
    case 'exclusiveMaximum':
      return `must be less than ${params.limit}`;
    case 'minItems':
      return `must have at least ${params.limit} item${params.limit === 1 ? '' : 's'}`;
    case 'maxItems':
      return `must have at most ${params.limit} items`;
    case 'uniqueItems':
      return 'must not contain duplicates';
    case 'format':
      return `must be a valid ${params.format}`;
    case 'pattern':
      return params.pattern === singleLinePattern
        ? 'must be one line, without control characters'
        : 'has an invalid format';
    default:
      return fallback ?? 'is invalid';
  }
}

function article(type: string): string {
  if (type === 'null') return 'null';
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}
