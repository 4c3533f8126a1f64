import { AjvCompiler, type BuildCompilerFromPool } from '@fastify/ajv-compiler';
import type { Options as AjvOptions } from 'ajv';
import type { FastifySchemaCompiler } from 'fastify';

/**
 * @fastify/ajv-compiler's declared types say its compilers take a bare schema; Fastify really
 * calls them with the route definition (`{schema, httpPart, method, url}`). This is the real shape.
 */
type CompilerFromPool = (
  externalSchemas: Record<string, unknown>,
  options: { customOptions: AjvOptions },
) => FastifySchemaCompiler<unknown>;

/** Report every problem at once, fill declared defaults, and never drop unknown fields silently. */
const commonAjvOptions = {
  allErrors: true,
  removeAdditional: false,
  useDefaults: true,
  // OpenAPI's `binary` marks multipart file fields; by validation time they hold the file's name.
  formats: { binary: true },
} as const;

/**
 * Two Ajv instances: JSON bodies are validated as sent (`"5"` is not a number), while path,
 * query and header values, which are always strings on the wire, are coerced to their types.
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
    const bodyValidator = withCoercion(false);
    const parameterValidator = withCoercion('array');
    const compile: FastifySchemaCompiler<unknown> = (routeSchema) =>
      routeSchema.httpPart === 'body' ? bodyValidator(routeSchema) : parameterValidator(routeSchema);
    return compile;
  };
  return factory as unknown as BuildCompilerFromPool;
}
