import { AjvCompiler, type BuildCompilerFromPool } from '@fastify/ajv-compiler';
import type { Options as AjvOptions } from 'ajv';
import type { FastifySchemaCompiler } from 'fastify';
import type { FastifySchemaValidationError } from 'fastify/types/schema.js';
import { limits } from './schemas.ts';

/**
 * @fastify/ajv-compiler's declared types say its compilers take a bare schema; Fastify really
 * calls them with the route definition (`{schema, httpPart, method, url}`). This is the real shape.
 */
type CompilerFromPool = (
  externalSchemas: Record<string, unknown>,
  options: { customOptions: AjvOptions },
) => FastifySchemaCompiler<unknown>;
type RouteSchema = Parameters<FastifySchemaCompiler<unknown>>[0];
type Validator = ((data: unknown) => boolean) & { errors?: FastifySchemaValidationError[] | null };

/** Report every problem at once, fill declared defaults, and never drop unknown fields silently. */
const commonAjvOptions = {
  allErrors: true,
  removeAdditional: false,
  useDefaults: true,
  // OpenAPI's `binary` marks multipart file fields; by validation time they hold the file's name.
  formats: { binary: true },
} as const;

/** The request parts whose strings end up in the database, in logs or in answers. */
const textParts = new Set(['body', 'querystring', 'params']);

/**
 * Two Ajv instances: JSON bodies are validated as sent (`"5"` is not a number), while path,
 * query and header values, which are always strings on the wire, are coerced to their types.
 * Every validator also refuses text PostgreSQL cannot store or that is not text (NUL, unpaired
 * surrogates) and nesting deeper than any request has, wherever it is, free-form JSON included.
 * Compiling a route whose input is unbounded (a string without maxLength, an integer without
 * maximum) fails, so the server does not start with one.
 *
 * Ajv compiles a route's schema the first time the route validates a request, not when the server
 * starts: compiling every schema of the API up front took about 1.8 s of CPU at each start, for routes a
 * process may never be asked. The bounds check above still runs for every route at start-up.
 */
export function buildValidatorFactory(): BuildCompilerFromPool {
  const compilerFromPool = AjvCompiler() as unknown as CompilerFromPool;
  const factory = (
    externalSchemas: Record<string, unknown>,
    serverOptions?: { customOptions?: AjvOptions },
  ) => {
    const withCoercion = (coerceTypes: false | 'array') =>
      compilerFromPool(externalSchemas, {
        ...serverOptions,
        customOptions: { ...serverOptions?.customOptions, ...commonAjvOptions, coerceTypes },
      });
    let bodyValidator: FastifySchemaCompiler<unknown> | undefined;
    let parameterValidator: FastifySchemaCompiler<unknown> | undefined;
    const compilerFor = (httpPart: string | undefined) => {
      if (httpPart === 'body') {
        bodyValidator ??= withCoercion(false);
        return bodyValidator;
      }
      parameterValidator ??= withCoercion('array');
      return parameterValidator;
    };
    const compileNow = (routeSchema: RouteSchema): Validator => {
      const validate = compilerFor(routeSchema.httpPart)(routeSchema) as Validator;
      if (!textParts.has(routeSchema.httpPart ?? '')) return validate;
      const validateWithText: Validator = (data) => {
        const textErrors = unsafeTextErrors(data);
        // Nesting too deep is answered before Ajv walks it (its deep equality checks recurse).
        if (textErrors.some((error) => error.keyword === 'maxDepth')) {
          validateWithText.errors = textErrors;
          return false;
        }
        const valid = validate(data);
        const errors = [...textErrors, ...(validate.errors ?? []), ...nonFiniteNumberErrors(data)];
        validateWithText.errors = errors.length > 0 ? errors : null;
        return valid && errors.length === 0;
      };
      return validateWithText;
    };
    const compile: FastifySchemaCompiler<unknown> = (routeSchema) => {
      assertBoundedInput(routeSchema, externalSchemas);
      let validate: Validator | undefined;
      // Fastify reads a failed validation's errors from the function it was given: this one.
      const validateOnFirstUse: Validator = (data) => {
        validate ??= compileNow(routeSchema);
        const valid = validate(data);
        validateOnFirstUse.errors = validate.errors;
        return valid;
      };
      return validateOnFirstUse;
    };
    return compile;
  };
  return factory as unknown as BuildCompilerFromPool;
}

/** A JSON pointer step, escaped the way Ajv writes `instancePath`. */
function pointerStep(key: string | number): string {
  return `/${String(key).replaceAll('~', '~0').replaceAll('/', '~1')}`;
}

function textError(instancePath: string, keyword: string, message: string): FastifySchemaValidationError {
  return { keyword, instancePath, schemaPath: `#/${keyword}`, params: {}, message };
}

/** What makes a string unstorable, if anything: NUL (PostgreSQL refuses it) or an unpaired surrogate. */
function textProblem(text: string): { keyword: string; what: string } | null {
  if (text.includes('\u0000')) return { keyword: 'noNul', what: 'NUL characters' };
  if (!text.isWellFormed()) return { keyword: 'wellFormed', what: 'unpaired UTF-16 surrogates' };
  return null;
}

/**
 * Walks every string and key of request data (iteratively: the data may nest deeply) and
 * answers Ajv-shaped errors for text that is not storable, and for nesting beyond the limit.
 */
export function unsafeTextErrors(data: unknown): FastifySchemaValidationError[] {
  const errors: FastifySchemaValidationError[] = [];
  const pending: { value: unknown; path: string; depth: number }[] = [{ value: data, path: '', depth: 0 }];
  while (pending.length > 0) {
    const { value, path, depth } = pending.pop() as (typeof pending)[number];
    if (typeof value === 'string') {
      const problem = textProblem(value);
      if (problem) errors.push(textError(path, problem.keyword, `must not contain ${problem.what}`));
      continue;
    }
    if (value === null || typeof value !== 'object' || ArrayBuffer.isView(value)) continue;
    if (depth >= limits.nestingDepth) {
      errors.push(textError(path, 'maxDepth', `must not nest more than ${limits.nestingDepth} levels deep`));
      continue;
    }
    if (Array.isArray(value)) {
      value.forEach((child, index) => {
        pending.push({ value: child, path: `${path}${pointerStep(index)}`, depth: depth + 1 });
      });
      continue;
    }
    for (const [key, child] of Object.entries(value)) {
      const problem = textProblem(key);
      if (problem)
        errors.push(textError(path, problem.keyword, `must not have a key containing ${problem.what}`));
      else pending.push({ value: child, path: `${path}${pointerStep(key)}`, depth: depth + 1 });
    }
  }
  return errors;
}

/**
 * Ajv coerces the text `Infinity` in a path or query to a number and then skips its range checks
 * (they apply to finite numbers only): refused here, as out of range.
 */
function nonFiniteNumberErrors(data: unknown): FastifySchemaValidationError[] {
  if (data === null || typeof data !== 'object') return [];
  return Object.entries(data).flatMap(([key, value]) =>
    [value].flat().some((item) => typeof item === 'number' && !Number.isFinite(item))
      ? [textError(pointerStep(key), 'finite', 'must be a finite number')]
      : [],
  );
}

interface SchemaNode {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  maxLength?: number;
  maximum?: number;
  properties?: Record<string, SchemaNode>;
  patternProperties?: Record<string, SchemaNode>;
  additionalProperties?: boolean | SchemaNode;
  items?: SchemaNode | SchemaNode[];
  anyOf?: SchemaNode[];
  oneOf?: SchemaNode[];
  allOf?: SchemaNode[];
}

/**
 * Refuses a route whose request input has a string without `maxLength` (enums, constants and
 * multipart file fields aside) or an integer without `maximum`: every input is bounded, so
 * nothing reaches the database that it cannot hold, and routes added later cannot forget it.
 */
export function assertBoundedInput(routeSchema: RouteSchema, externalSchemas: Record<string, unknown>): void {
  const where = `${routeSchema.method} ${routeSchema.url} ${routeSchema.httpPart}`;
  const problems: string[] = [];
  const seen = new Set<SchemaNode>();
  const walk = (node: SchemaNode | undefined, path: string) => {
    if (!node || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    if (node.$ref !== undefined) {
      walk(externalSchemas[node.$ref.replace(/#.*$/, '')] as SchemaNode | undefined, path);
      return;
    }
    const types = [node.type ?? []].flat();
    const closedSet = node.enum !== undefined || node.const !== undefined;
    if (types.includes('string') && !closedSet && node.format !== 'binary' && node.maxLength === undefined) {
      problems.push(`${path || '(root)'}: a string needs a maxLength`);
    }
    if (types.includes('integer') && !closedSet && node.maximum === undefined) {
      problems.push(`${path || '(root)'}: an integer needs a maximum`);
    }
    for (const [name, child] of Object.entries(node.properties ?? {})) walk(child, join(path, name));
    for (const child of Object.values(node.patternProperties ?? {})) walk(child, join(path, '*'));
    if (typeof node.additionalProperties === 'object') walk(node.additionalProperties, join(path, '*'));
    for (const child of [node.items ?? []].flat()) walk(child, join(path, '0'));
    for (const child of [...(node.anyOf ?? []), ...(node.oneOf ?? []), ...(node.allOf ?? [])])
      walk(child, path);
  };
  walk(routeSchema.schema as SchemaNode, '');
  if (problems.length > 0) {
    throw new Error(`Unbounded request input in ${where}: ${problems.join('; ')}`);
  }
}

function join(path: string, step: string): string {
  return path ? `${path}.${step}` : step;
}
