/**
 * The operations of an OpenAPI 3.0 document and the subset of schema objects the server's
 * generated document uses, read so tests can make requests for every operation without
 * naming any of them.
 */

export type JsonType = 'string' | 'integer' | 'number' | 'boolean' | 'null' | 'object' | 'array';

export interface OpenApiSchema {
  $ref?: string;
  type?: Exclude<JsonType, 'null'>;
  nullable?: boolean;
  enum?: unknown[];
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  items?: OpenApiSchema;
  minItems?: number;
  maxItems?: number;
  properties?: Record<string, OpenApiSchema>;
  required?: string[];
  additionalProperties?: boolean | OpenApiSchema;
  anyOf?: OpenApiSchema[];
  oneOf?: OpenApiSchema[];
  example?: unknown;
}

interface OpenApiParameter {
  in: 'path' | 'query' | 'header' | 'cookie';
  name: string;
  required?: boolean;
  schema: OpenApiSchema;
}

interface OpenApiOperation {
  operationId: string;
  parameters?: OpenApiParameter[];
  requestBody?: { content: Record<string, { schema: OpenApiSchema }> };
  responses: Record<string, { content?: Record<string, { schema: OpenApiSchema }> }>;
  security?: unknown[];
  /** Who may call it: a permission key, keys any one of which will do, `signed_in` or `public`. */
  'x-permission'?: string | string[];
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, OpenApiSchema> };
}

export interface Parameter {
  name: string;
  required?: boolean;
  schema: OpenApiSchema;
}

export interface Operation {
  id: string;
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** Fastify style, `/api/v1/users/:id`, as the route table and the record fixture name them. */
  path: string;
  pathParameters: Parameter[];
  queryParameters: Parameter[];
  body?: { contentType: string; schema: OpenApiSchema };
  /** A GET changes nothing, so it may also be sent input that is odd but acceptable. */
  readOnly: boolean;
  /** Answers an endless event stream (`text/event-stream`) rather than a body that ends. */
  streams: boolean;
  /** Its `x-permission`, as documented (undefined when the document says nothing). */
  permission: string | string[] | undefined;
}

export function operationsOf(document: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const parameters = operation.parameters ?? [];
      const [contentType, content] = Object.entries(operation.requestBody?.content ?? {})[0] ?? [];
      const upperMethod = method.toUpperCase() as Operation['method'];
      operations.push({
        id: operation.operationId,
        method: upperMethod,
        path: path.replaceAll(/\{(\w+)\}/g, ':$1'),
        pathParameters: parameters.filter((parameter) => parameter.in === 'path'),
        queryParameters: parameters.filter((parameter) => parameter.in === 'query'),
        ...(contentType && content ? { body: { contentType, schema: content.schema } } : {}),
        readOnly: upperMethod === 'GET',
        streams: 'text/event-stream' in (operation.responses['200']?.content ?? {}),
        permission: operation['x-permission'],
      });
    }
  }
  return operations;
}

/** Follows `$ref`s into `components.schemas`. */
export function schemaResolver(document: OpenApiDocument) {
  return function resolve(schema: OpenApiSchema): OpenApiSchema {
    let current = schema;
    for (let hops = 0; current.$ref !== undefined; hops += 1) {
      const name = current.$ref.replace('#/components/schemas/', '');
      const target = document.components.schemas[name];
      if (!target || hops > 20) throw new Error(`Unresolvable schema reference ${current.$ref}`);
      current = target;
    }
    return current;
  };
}
export type Resolve = ReturnType<typeof schemaResolver>;

/** The JSON types a schema accepts, or `any` for a schema that accepts every value. */
export function acceptedTypes(schema: OpenApiSchema, resolve: Resolve): Set<JsonType> | 'any' {
  const resolved = resolve(schema);
  const union = resolved.anyOf ?? resolved.oneOf;
  let types: Set<JsonType>;
  if (union) {
    types = new Set();
    for (const branch of union) {
      const branchTypes = acceptedTypes(branch, resolve);
      if (branchTypes === 'any') return 'any';
      for (const type of branchTypes) types.add(type);
    }
  } else if (resolved.enum) {
    types = new Set(resolved.enum.map(jsonTypeOf));
  } else if (resolved.type) {
    types = new Set([resolved.type]);
  } else {
    return 'any';
  }
  if (types.has('number')) types.add('integer');
  if (resolved.nullable) types.add('null');
  return types;
}

export function jsonTypeOf(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value as JsonType;
}

/** The first branch of a union that describes values other than null: where fields are found. */
export function mainBranch(schema: OpenApiSchema, resolve: Resolve): OpenApiSchema {
  const resolved = resolve(schema);
  const union = resolved.anyOf ?? resolved.oneOf;
  if (!union) return resolved;
  const branch = union.find((candidate) => {
    const types = acceptedTypes(candidate, resolve);
    return types === 'any' || [...types].some((type) => type !== 'null');
  });
  return mainBranch(branch ?? {}, resolve);
}
