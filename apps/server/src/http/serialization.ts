import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';

type SerializerFactory = ReturnType<typeof SerializerSelector>;

/**
 * Fastify's own serializer factory, but each response schema is compiled the first time a route
 * answers with it instead of when the server starts. Compiling every schema of the API up front
 * took about 4 s of each start (fast-json-stringify checks each schema against the JSON Schema
 * meta-schema, through every shared `$ref`), paid by every test file's app for the handful of
 * routes it calls. A route's first answer pays its own compile once; the answers are the same.
 */
export function buildLazySerializerFactory(): SerializerFactory {
  const eager = SerializerSelector();
  return (externalSchemas, serializerOptions) => {
    const compile = eager(externalSchemas, serializerOptions);
    return (routeSchema) => {
      let serialize: ((data: unknown) => string) | undefined;
      return (data: unknown) => {
        serialize ??= compile(routeSchema) as (data: unknown) => string;
        return serialize(data);
      };
    };
  };
}
