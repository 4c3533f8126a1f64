import fc from 'fast-check';
import { limits } from '../http/schemas.ts';
import {
  acceptedTypes,
  type JsonType,
  mainBranch,
  type OpenApiSchema,
  type Operation,
  type Parameter,
  type Resolve,
} from './openapi-operations.ts';

/**
 * Requests that are wrong on purpose, generated with fast-check from an operation's OpenAPI
 * description. Each variant is wrong by construction (a value its schema refuses, a body that is
 * not JSON, a record that does not exist...), so a write answering 2xx means bad input got in.
 * GETs change nothing, so they are also sent input that is odd but may be acceptable.
 */
export interface BadRequest {
  operation: string;
  kind: string;
  method: Operation['method'];
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
}

export interface VariantContext {
  resolve: Resolve;
  /** The operation's path naming real records; `replace` puts raw (already encoded) text in one parameter. */
  path(operation: Operation, replace?: { name: string; text: string }): string;
  /** The id of a real record for a field named like `team_id`, when the fixture has one. */
  recordId(field: string): number | string | undefined;
  jsonBodyLimit: number;
  uploadBodyLimit: number;
  /** The deepest nesting a request may have; anything deeper is refused. */
  maxNestingDepth: number;
}

/** PostgreSQL `integer` (what `serial` ids are): the largest id a record can have. */
const largestId = limits.largestId;
const oneMegabyte = 1024 * 1024;
const fieldKey = 'bad_input_key';
const boundary = 'bad-input-boundary';

type Part = Pick<BadRequest, 'url' | 'headers' | 'payload'>;
interface Kind {
  kind: string;
  arbitrary: fc.Arbitrary<Part>;
  /** How many samples at most: the expensive kinds (megabyte bodies) need only a couple. */
  maxSamples?: number;
}

/** At least this many variants per operation. */
export const minimumVariantsPerOperation = 32;

export function badRequestsFor(operation: Operation, context: VariantContext, seed: number): BadRequest[] {
  const kinds = [
    ...pathKinds(operation, context),
    ...queryKinds(operation, context),
    ...bodyKinds(operation, context),
  ];
  if (kinds.length === 0) throw new Error(`No bad-input variants apply to ${operation.id}`);
  const perKind = Math.max(2, Math.ceil(minimumVariantsPerOperation / kinds.length));
  const requests: BadRequest[] = [];
  for (const { kind, arbitrary, maxSamples } of kinds) {
    const numRuns = Math.min(perKind, maxSamples ?? perKind);
    for (const part of fc.sample(arbitrary, { seed: seedFor(seed, `${operation.id} ${kind}`), numRuns })) {
      requests.push({ operation: operation.id, kind, method: operation.method, ...part });
    }
  }
  // Expensive kinds give fewer samples; top the operation up from the cheap ones.
  const cheap = kinds.filter((candidate) => candidate.maxSamples === undefined);
  const topUp = cheap.length > 0 ? cheap : kinds;
  for (let round = 0; requests.length < minimumVariantsPerOperation; round += 1) {
    const { kind, arbitrary } = topUp[round % topUp.length] as Kind;
    const [part] = fc.sample(arbitrary, {
      seed: seedFor(seed, `${operation.id} ${kind} ${round}`),
      numRuns: 1,
    });
    if (part) requests.push({ operation: operation.id, kind, method: operation.method, ...part });
  }
  return requests;
}

/** FNV-1a: a stable seed per operation and kind, so one can be replayed alone. */
function seedFor(seed: number, text: string): number {
  let hash = 0x811c9dc5 ^ seed;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

// ---------------------------------------------------------------------------------------------
// Values

const nulText = fc
  .tuple(fc.string({ maxLength: 8, unit: 'grapheme' }), fc.string({ maxLength: 8 }))
  .map(([before, after]) => `${before}\u0000${after}`);

const loneSurrogateText = fc
  .tuple(
    fc.string({ maxLength: 8, unit: 'grapheme' }),
    fc.constantFrom('\uD800', '\uDBFF', '\uDC00', '\uDFFF'),
    fc.string({ maxLength: 8 }),
  )
  .map(([before, surrogate, after]) => `${before}${surrogate}${after}`)
  .filter((text) => !text.isWellFormed());

/** Control characters other than NUL: C0 (tab and line breaks included), DEL and C1. */
const controlCharacter = fc.constantFrom(
  '\u0001',
  '\u0007',
  '\b',
  '\t',
  '\n',
  '\u000b',
  '\f',
  '\r',
  '\u001b',
  '\u001f',
  '\u007f',
  '\u0085',
  '\u009f',
);
const controlText = fc
  .tuple(fc.string({ maxLength: 6 }), fc.string({ unit: controlCharacter, minLength: 1, maxLength: 4 }))
  .map(([text, controls]) => `${text}${controls}${text}`);

const textThatIsNoInteger = fc.oneof(
  fc.constantFrom(
    'abc',
    '1.5',
    '-0.5',
    'null',
    'undefined',
    'true',
    '[]',
    '{}',
    'NaN',
    'Infinity',
    '١٢',
    '1_000',
  ),
  fc.double({ noInteger: true, noNaN: true, noDefaultInfinity: true }).map(String),
  fc.string({ minLength: 1, maxLength: 12 }),
);

/**
 * Text that cannot name a record by an integer id: nothing Ajv or `Number()` would read as a
 * positive integer (so ' 1' and '0x1' are left out: they may name a real record).
 */
const notAnId = textThatIsNoInteger.filter((text) => {
  const number = Number(text);
  // '.' and '..' would be resolved as path segments, to another route.
  return !(text.trim() !== '' && Number.isInteger(number) && number >= 1) && text !== '.' && text !== '..';
});

function nested(depth: number, shape: 'array' | 'object', leaf: unknown): unknown {
  let value = leaf;
  for (let level = 0; level < depth; level += 1) value = shape === 'array' ? [value] : { a: value };
  return value;
}

const wrongTypeValues: Record<JsonType, fc.Arbitrary<unknown>> = {
  string: fc.string({ maxLength: 12 }),
  integer: fc.integer(),
  number: fc.double({ noInteger: true, noNaN: true, noDefaultInfinity: true }),
  boolean: fc.boolean(),
  null: fc.constant(null),
  object: fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), fc.jsonValue({ maxDepth: 1 }), {
    maxKeys: 3,
  }),
  array: fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }),
};

/** Integers outside what the schema, and the database behind it, can hold. */
function outOfRangeIntegers(schema: OpenApiSchema): fc.Arbitrary<number> {
  const highest = Math.min(schema.maximum ?? largestId, largestId);
  const choices: fc.Arbitrary<number>[] = [
    fc.integer({ min: highest + 1, max: Number.MAX_SAFE_INTEGER }),
    fc.constantFrom(2 ** 31, 2 ** 63, 1e20, 1e300),
  ];
  if (schema.minimum !== undefined) {
    choices.push(fc.integer({ min: Number.MIN_SAFE_INTEGER, max: schema.minimum - 1 }));
    if (schema.minimum >= 1) choices.push(fc.constantFrom(0, -1));
  }
  return fc.oneof(...choices);
}

/** Strings longer than the schema allows; a megabyte where it declares no limit. */
function tooLongText(schema: OpenApiSchema): fc.Arbitrary<string> {
  const lengths =
    schema.maxLength !== undefined && schema.maxLength < oneMegabyte
      ? fc.constantFrom(schema.maxLength + 1, oneMegabyte)
      : fc.constant(oneMegabyte);
  return fc.tuple(lengths, fc.constantFrom('x', 'a', '7', 'Z')).map(([length, unit]) => unit.repeat(length));
}

/** Whether the schema refuses every string with a control character in it. */
function refusesControlCharacters(schema: OpenApiSchema): boolean {
  return (
    schema.enum !== undefined ||
    ['uuid', 'email', 'date-time'].includes(schema.format ?? '') ||
    schema.type !== 'string'
  );
}

function matchesPattern(schema: OpenApiSchema, text: string): boolean {
  return schema.pattern !== undefined && new RegExp(schema.pattern, 'u').test(text);
}

// ---------------------------------------------------------------------------------------------
// Path parameters

function pathKinds(operation: Operation, context: VariantContext): Kind[] {
  const kinds: Kind[] = [];
  const at = (parameter: Parameter, text: fc.Arbitrary<string>, encode = true): fc.Arbitrary<Part> =>
    text.map((value) => ({
      url: context.path(operation, {
        name: parameter.name,
        text: encode ? encodeURIComponent(value) : value,
      }),
      ...bodyOf(operation, context),
    }));

  for (const parameter of operation.pathParameters) {
    const schema = mainBranch(parameter.schema, context.resolve);
    const name = `path ${parameter.name}`;
    if (schema.type === 'integer') {
      kinds.push(
        { kind: `${name} out of range`, arbitrary: at(parameter, outOfRangeIntegers(schema).map(String)) },
        {
          kind: `${name} naming no record`,
          arbitrary: at(parameter, fc.integer({ min: 1_000_000_000, max: largestId }).map(String)),
        },
        {
          kind: `${name} beyond any id`,
          arbitrary: at(
            parameter,
            fc.constantFrom('99999999999999999999', '9223372036854775808', '2147483648'),
          ),
        },
        { kind: `${name} not an integer`, arbitrary: at(parameter, notAnId) },
        {
          kind: `${name} with NUL or control characters`,
          arbitrary: at(
            parameter,
            fc.oneof(nulText, controlText).filter((text) => !/^\s*\d+\s*$/.test(text)),
          ),
        },
      );
    } else if (schema.enum) {
      kinds.push({
        kind: `${name} not an allowed value`,
        arbitrary: at(
          parameter,
          fc
            .oneof(fc.string({ maxLength: 12 }), nulText, controlText)
            .filter((text) => text !== '' && !schema.enum?.includes(text)),
        ),
      });
    } else {
      const noRecord =
        schema.format === 'uuid'
          ? fc.uuid()
          : fc.stringMatching(/^[A-Za-z0-9_-]{1,24}$/).map((text) => `no-such-${text}`);
      kinds.push(
        { kind: `${name} naming no record`, arbitrary: at(parameter, noRecord) },
        {
          kind: `${name} too long`,
          arbitrary: at(
            parameter,
            fc.integer({ min: (schema.maxLength ?? 64) + 1, max: 4000 }).map((length) => 'x'.repeat(length)),
          ),
        },
        { kind: `${name} with NUL`, arbitrary: at(parameter, nulText) },
        { kind: `${name} with control characters`, arbitrary: at(parameter, controlText) },
      );
    }
  }
  const [first] = operation.pathParameters;
  if (first) {
    kinds.push({
      kind: `path ${first.name} with broken percent-encoding`,
      arbitrary: at(
        first,
        fc.constantFrom('%', '%zz', '%ED%A0%80', '%C0%AF', '%FF', '1%', '%E0%A4%A'),
        false,
      ),
    });
  }
  return kinds;
}

// ---------------------------------------------------------------------------------------------
// Query parameters

function queryKinds(operation: Operation, context: VariantContext): Kind[] {
  const kinds: Kind[] = [];
  const withQuery = (query: fc.Arbitrary<string>): fc.Arbitrary<Part> =>
    query.map((text) => ({
      url: `${context.path(operation)}?${text}`,
      ...bodyOf(operation, context),
    }));
  const at = (parameter: Parameter, value: fc.Arbitrary<string>) =>
    withQuery(value.map((text) => `${parameter.name}=${encodeURIComponent(text)}`));

  for (const parameter of operation.queryParameters) {
    const schema = mainBranch(parameter.schema, context.resolve);
    const name = `query ${parameter.name}`;
    kinds.push({
      kind: `${name} given twice`,
      arbitrary: withQuery(
        fc
          .tuple(fc.string({ maxLength: 6 }), fc.string({ maxLength: 6 }))
          .filter(([first, second]) => first !== second)
          .map(
            ([first, second]) =>
              `${parameter.name}=${encodeURIComponent(first)}&${parameter.name}=${encodeURIComponent(second)}`,
          ),
      ),
    });
    if (parameter.name.endsWith('_id') || schema.type === 'integer') {
      kinds.push(
        { kind: `${name} out of range`, arbitrary: at(parameter, outOfRangeIntegers(schema).map(String)) },
        {
          kind: `${name} not an integer`,
          arbitrary: at(
            parameter,
            notAnId.filter((text) => text !== 'null'),
          ),
        },
      );
    } else if (schema.type === 'boolean') {
      kinds.push({
        kind: `${name} not a boolean`,
        arbitrary: at(
          parameter,
          fc
            .oneof(fc.string({ maxLength: 8 }), nulText)
            .filter((text) => text !== 'true' && text !== 'false'),
        ),
      });
    } else if (schema.enum) {
      kinds.push({
        kind: `${name} not an allowed value`,
        arbitrary: at(
          parameter,
          fc.oneof(fc.string({ maxLength: 12 }), nulText).filter((text) => !schema.enum?.includes(text)),
        ),
      });
    } else if (schema.type === 'string') {
      kinds.push(
        {
          kind: `${name} too long`,
          arbitrary: at(
            parameter,
            fc
              .integer({ min: (schema.maxLength ?? 1000) + 1, max: 20_000 })
              .map((length) => 'q'.repeat(length)),
          ),
        },
        { kind: `${name} with NUL`, arbitrary: at(parameter, nulText) },
      );
      if (operation.readOnly || refusesControlCharacters(schema)) {
        kinds.push({
          kind: `${name} with control characters`,
          arbitrary: at(
            parameter,
            controlText.filter((text) => operation.readOnly || !matchesPattern(schema, text)),
          ),
        });
      }
    }
  }
  if (operation.readOnly) {
    const junk = fc.string({ unit: 'binary-ascii', maxLength: 40 });
    kinds.push({
      kind: 'unknown query parameters',
      arbitrary: withQuery(
        fc
          .dictionary(fc.stringMatching(/^[a-z_[\]]{1,16}$/), junk, { minKeys: 1, maxKeys: 4 })
          .map((entries) =>
            Object.entries(entries)
              .filter(([key]) => !operation.queryParameters.some((parameter) => parameter.name === key))
              .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`)
              .join('&'),
          ),
      ),
    });
  }
  return kinds;
}

// ---------------------------------------------------------------------------------------------
// Bodies

/** The body a request carries when the variant is about its path or query: a valid one. */
function bodyOf(operation: Operation, context: VariantContext): Pick<Part, 'payload' | 'headers'> {
  if (!operation.body) return { headers: {} };
  const example = exampleOf(operation.body.schema, context, undefined);
  if (operation.body.contentType === 'multipart/form-data') {
    return multipart(example as Record<string, unknown>, operation.body.schema, context);
  }
  return { headers: { 'content-type': 'application/json' }, payload: JSON.stringify(example) };
}

function bodyKinds(operation: Operation, context: VariantContext): Kind[] {
  if (operation.readOnly) return [];
  const url = context.path(operation);
  const body = operation.body;
  if (body?.contentType === 'multipart/form-data') return multipartKinds(operation, context, url);

  const json = (text: fc.Arbitrary<string>): fc.Arbitrary<Part> =>
    text.map((payload) => ({ url, headers: { 'content-type': 'application/json' }, payload }));
  const example = body ? exampleOf(body.schema, context, undefined) : {};
  const kinds: Kind[] = [
    { kind: 'malformed JSON', arbitrary: json(malformedJson) },
    {
      kind: 'wrong content type',
      arbitrary: wrongContentType.map((contentType) => ({
        url,
        ...(contentType.startsWith('multipart/')
          ? multipart(example as Record<string, unknown>, body?.schema, context)
          : {
              headers: contentType ? { 'content-type': contentType } : {},
              payload: JSON.stringify(example),
            }),
      })),
    },
    {
      kind: 'oversized body',
      maxSamples: 1,
      arbitrary: json(
        fc
          .integer({ min: context.jsonBodyLimit + 1, max: context.jsonBodyLimit + oneMegabyte })
          .map((size) => `{"name":"${'x'.repeat(size - 11)}"}`),
      ),
    },
  ];
  // Without a declared body any JSON is accepted (and ignored): only unreadable bodies are bad.
  if (!body) return kinds;

  kinds.push(
    {
      kind: 'body not an object',
      arbitrary: json(
        fc
          .oneof(
            fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 }),
            fc.string({ maxLength: 12 }),
            fc.integer(),
            fc.boolean(),
            fc.constant(null),
          )
          .map((value) => JSON.stringify(value)),
      ),
    },
    {
      kind: 'deeply nested body',
      maxSamples: 2,
      arbitrary: json(
        fc
          .tuple(fc.integer({ min: 1000, max: 300_000 }), fc.boolean())
          .map(([depth, asArrays]) =>
            asArrays
              ? `${'['.repeat(depth)}${']'.repeat(depth)}`
              : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`,
          ),
      ),
    },
  );

  const targets = fieldTargets(body.schema, context.resolve);
  const field = (
    kind: string,
    applies: (target: FieldTarget) => boolean,
    value: (target: FieldTarget) => fc.Arbitrary<unknown>,
    maxSamples?: number,
  ) => {
    const applicable = targets.filter(applies);
    if (applicable.length === 0) return;
    kinds.push({
      kind,
      ...(maxSamples ? { maxSamples } : {}),
      arbitrary: fc
        .constantFrom(...applicable)
        .chain((target) =>
          json(
            value(target).map((bad) => JSON.stringify(withValueAt(body.schema, target.path, bad, context))),
          ),
        ),
    });
  };
  const branchOf = (target: FieldTarget) => mainBranch(target.schema, context.resolve);
  const typesOf = (target: FieldTarget) => acceptedTypes(target.schema, context.resolve);
  const takes = (target: FieldTarget, type: JsonType) => {
    const types = typesOf(target);
    return types === 'any' || types.has(type);
  };
  const wrongTypes = (target: FieldTarget) => {
    const types = typesOf(target);
    return types === 'any'
      ? []
      : (Object.keys(wrongTypeValues) as JsonType[]).filter((type) => !types.has(type));
  };

  field(
    'field of the wrong type',
    (target) => target.path.length > 0 && wrongTypes(target).length > 0,
    (target) => fc.oneof(...wrongTypes(target).map((type) => wrongTypeValues[type])),
  );
  field(
    'integer out of range',
    (target) => branchOf(target).type === 'integer',
    (target) => outOfRangeIntegers(branchOf(target)),
  );
  field(
    'id naming no record',
    (target) => branchOf(target).type === 'integer' && namesRecord(target.path),
    () => fc.integer({ min: 1_000_000_000, max: largestId }),
  );
  field(
    'text too long',
    (target) => branchOf(target).type === 'string',
    (target) => tooLongText(branchOf(target)),
    2,
  );
  field(
    'text with NUL',
    (target) => target.path.length > 0 && takes(target, 'string'),
    () => nulText,
  );
  field(
    'text with an unpaired surrogate',
    (target) => target.path.length > 0 && takes(target, 'string'),
    () => loneSurrogateText,
  );
  field(
    'text with control characters',
    (target) => branchOf(target).type === 'string' && refusesControlCharacters(branchOf(target)),
    () => controlText,
  );
  field(
    'text with control characters against a pattern',
    (target) => branchOf(target).type === 'string' && branchOf(target).pattern !== undefined,
    (target) => controlText.filter((text) => !matchesPattern(branchOf(target), text)),
  );
  field(
    'value not allowed',
    (target) => branchOf(target).enum !== undefined,
    (target) => fc.string({ maxLength: 16 }).filter((text) => !branchOf(target).enum?.includes(text)),
  );
  field(
    'key with NUL',
    (target) =>
      target.path.length > 0 &&
      (typesOf(target) === 'any' || typeof branchOf(target).additionalProperties === 'object'),
    () => nulText.map((key) => ({ [key]: 1 })),
  );
  field(
    'field nested too deeply',
    (target) => target.path.length > 0 && (takes(target, 'object') || takes(target, 'array')),
    () =>
      fc
        .tuple(
          fc.integer({ min: context.maxNestingDepth + 1, max: 3000 }),
          fc.constantFrom('array', 'object'),
        )
        .map(([depth, shape]) => nested(depth, shape as 'array' | 'object', 1)),
  );

  const objects = targets.filter((target) => mainBranch(target.schema, context.resolve).properties);
  const requiredSomewhere = objects.filter(
    (target) => (mainBranch(target.schema, context.resolve).required ?? []).length > 0,
  );
  if (requiredSomewhere.length > 0) {
    kinds.push({
      kind: 'required field missing',
      arbitrary: fc.constantFrom(...requiredSomewhere).chain((target) => {
        const required = mainBranch(target.schema, context.resolve).required ?? [];
        return json(
          fc.constantFrom(...required).map((name) => {
            const document = exampleOf(body.schema, context, undefined);
            const object = objectAt(document, target.path, body.schema, context);
            delete object[name];
            return JSON.stringify(document);
          }),
        );
      }),
    });
  }
  const closed = objects.filter(
    (target) => mainBranch(target.schema, context.resolve).additionalProperties === false,
  );
  if (closed.length > 0) {
    kinds.push({
      kind: 'unknown field',
      arbitrary: fc.constantFrom(...closed).chain((target) => {
        const known = Object.keys(mainBranch(target.schema, context.resolve).properties ?? {});
        return json(
          fc
            .tuple(
              fc
                .string({ minLength: 1, maxLength: 16 })
                .filter(
                  (name) =>
                    !known.includes(name) && !['__proto__', 'constructor', 'prototype'].includes(name),
                ),
              fc.jsonValue({ maxDepth: 1 }),
            )
            .map(([name, value]) => {
              const document = exampleOf(body.schema, context, undefined);
              objectAt(document, target.path, body.schema, context)[name] = value;
              return JSON.stringify(document);
            }),
        );
      }),
    });
  }
  return kinds;
}

const malformedJson = fc
  .oneof(
    fc
      .json({ maxDepth: 2 })
      .chain((text) => fc.nat({ max: Math.max(0, text.length - 1) }).map((cut) => text.slice(0, cut))),
    fc.json({ maxDepth: 2 }).map((text) => `${text},`),
    fc.constantFrom(
      "{'name': 'x'}",
      '{"name": "x",}',
      '{name: "x"}',
      '{"a": 1}{"b": 2}',
      'NaN',
      'undefined',
      '{"a": 01}',
      '{"a": "\\x41"}',
      '\u0000',
      '[1, 2',
      '{"a" 1}',
      'tru',
      '{"a": "unterminated}',
    ),
  )
  .filter((text) => {
    try {
      JSON.parse(text);
      return false;
    } catch {
      return true;
    }
  });

/** Content types the JSON operations do not take ('' leaves the header out). */
const wrongContentType = fc.oneof(
  fc.constantFrom(
    '',
    'text/plain',
    'text/plain; charset=utf-8',
    'application/xml',
    'text/xml',
    'text/html',
    'application/x-www-form-urlencoded',
    'application/octet-stream',
    'application/json-patch+json',
    'application/merge-patch+json',
    'application/vnd.api+json',
    'image/png',
    'application/jsonx',
    `multipart/form-data; boundary=${boundary}`,
  ),
  fc
    .stringMatching(/^[a-z]{2,12}\/[a-z][a-z0-9.+-]{0,20}$/)
    .filter((type) => type !== 'application/json' && !type.startsWith('multipart/')),
);

// ---------------------------------------------------------------------------------------------
// Multipart bodies (uploads)

function multipart(
  fields: Record<string, unknown>,
  schema: OpenApiSchema | undefined,
  context: VariantContext,
): Pick<Part, 'payload' | 'headers'> {
  const properties = schema ? (mainBranch(schema, context.resolve).properties ?? {}) : {};
  const chunks: string[] = [];
  for (const [name, value] of Object.entries(fields)) {
    const isFile = properties[name]?.format === 'binary';
    chunks.push(
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${isFile ? '; filename="bad-input.png"\r\nContent-Type: image/png' : ''}\r\n\r\n`,
      // A file part always holds text, which no upload accepts as an image.
      isFile ? 'not the bytes of an image' : typeof value === 'string' ? value : JSON.stringify(value),
      '\r\n',
    );
  }
  chunks.push(`--${boundary}--\r\n`);
  return {
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: Buffer.from(chunks.join(''), 'utf8'),
  };
}

function multipartKinds(operation: Operation, context: VariantContext, url: string): Kind[] {
  const schema = operation.body?.schema ?? {};
  const object = mainBranch(schema, context.resolve);
  const example = exampleOf(schema, context, undefined) as Record<string, unknown>;
  const textFields = Object.entries(object.properties ?? {})
    .filter(([, field]) => field.format !== 'binary' && mainBranch(field, context.resolve).type === 'string')
    .map(([name]) => name);
  const form = (fields: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<Part> =>
    fields.map((values) => ({ url, ...multipart(values, schema, context) }));
  const kinds: Kind[] = [
    {
      kind: 'wrong content type',
      arbitrary: fc
        .constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', '')
        .map(
          (contentType): Part => ({
            url,
            headers: contentType ? { 'content-type': contentType } : {},
            payload: JSON.stringify(example),
          }),
        ),
    },
    {
      kind: 'oversized upload',
      maxSamples: 1,
      arbitrary: form(
        fc
          .integer({ min: context.uploadBodyLimit + 1, max: context.uploadBodyLimit + oneMegabyte })
          .map((size) => ({ ...example, [textFields[0] ?? 'name']: 'x'.repeat(size) })),
      ),
    },
    {
      kind: 'multipart without its boundary',
      arbitrary: fc
        .constantFrom('multipart/form-data', 'multipart/form-data; boundary=other')
        .map((contentType) => ({
          url,
          headers: { 'content-type': contentType },
          payload: multipart(example, schema, context).payload,
        })),
    },
  ];
  if ((object.required ?? []).length > 0) {
    kinds.push({
      kind: 'required field missing',
      arbitrary: form(
        fc.constantFrom(...(object.required ?? [])).map((name) => {
          const { [name]: _left, ...rest } = example;
          return rest;
        }),
      ),
    });
  }
  if (textFields.length > 0) {
    const inField = (value: fc.Arbitrary<string>) =>
      form(
        fc.tuple(fc.constantFrom(...textFields), value).map(([name, text]) => ({ ...example, [name]: text })),
      );
    kinds.push(
      { kind: 'field with NUL', arbitrary: inField(nulText) },
      {
        kind: 'field too long',
        arbitrary: inField(fc.integer({ min: 1001, max: 100_000 }).map((length) => 'x'.repeat(length))),
      },
    );
    const refusing = textFields.filter((name) =>
      refusesControlCharacters(mainBranch(object.properties?.[name] ?? {}, context.resolve)),
    );
    if (refusing.length > 0) {
      kinds.push({
        kind: 'field with control characters',
        arbitrary: form(
          fc
            .tuple(fc.constantFrom(...refusing), controlText)
            .map(([name, text]) => ({ ...example, [name]: text })),
        ),
      });
    }
  }
  if (object.additionalProperties === false) {
    kinds.push({
      kind: 'unknown field',
      arbitrary: form(
        fc
          .stringMatching(/^[a-z_]{1,12}$/)
          .filter((name) => !(name in (object.properties ?? {})))
          .map((name) => ({ ...example, [name]: 'x' })),
      ),
    });
  }
  return kinds;
}

// ---------------------------------------------------------------------------------------------
// Valid values, and where fields are

/** Whether a field holds a record's id, by the API's naming: `team_id`, or an item of `team_ids`. */
function namesRecord(path: (string | number)[]): boolean {
  const [last, parent] = [path[path.length - 1], path[path.length - 2]];
  return (
    (typeof last === 'string' && last.endsWith('_id')) || (last === 0 && String(parent).endsWith('_ids'))
  );
}

interface FieldTarget {
  path: (string | number)[];
  schema: OpenApiSchema;
}

/** Every field of a body down to a depth, the root included: where bad values are put. */
function fieldTargets(root: OpenApiSchema, resolve: Resolve, maxDepth = 7): FieldTarget[] {
  const targets: FieldTarget[] = [];
  const walk = (schema: OpenApiSchema, path: (string | number)[]) => {
    targets.push({ path, schema });
    if (path.length >= maxDepth) return;
    const branch = mainBranch(schema, resolve);
    for (const [name, property] of Object.entries(branch.properties ?? {})) walk(property, [...path, name]);
    if (!branch.properties && typeof branch.additionalProperties === 'object') {
      walk(branch.additionalProperties, [...path, fieldKey]);
    }
    if (branch.items) walk(branch.items, [...path, 0]);
  };
  walk(root, []);
  return targets;
}

/** A value the schema accepts: required fields only, ids of real records where named like one. */
function exampleOf(schema: OpenApiSchema, context: VariantContext, field: string | undefined): unknown {
  const branch = mainBranch(schema, context.resolve);
  if (branch.enum) return branch.enum[0];
  const recordId = field === undefined ? undefined : context.recordId(field);
  switch (branch.type) {
    case 'integer':
      if (typeof recordId === 'number') return recordId;
      return branch.minimum ?? 1;
    case 'number':
      return branch.minimum ?? 0;
    case 'boolean':
      return false;
    case 'array': {
      const item = exampleOf(branch.items ?? {}, context, field);
      return Array.from({ length: branch.minItems ?? 0 }, () => item);
    }
    case 'object': {
      const object: Record<string, unknown> = {};
      for (const name of branch.required ?? []) {
        object[name] = exampleOf(branch.properties?.[name] ?? {}, context, name);
      }
      return object;
    }
    case 'string':
      return exampleText(branch, recordId);
    default:
      return 'x';
  }
}

function exampleText(schema: OpenApiSchema, recordId: number | string | undefined): string {
  if (typeof recordId === 'string') return recordId;
  switch (schema.format) {
    case 'email':
      return 'bad-input@example.com';
    case 'uuid':
      return '2b1e4a5c-9d3f-4e8a-b6c7-0f1e2d3c4b5a';
    case 'date-time':
      return '2026-01-01T00:00:00.000Z';
    case 'binary':
      return 'bad-input.png';
  }
  if (typeof schema.example === 'string') return schema.example;
  const minimum = Math.max(schema.minLength ?? 1, 1);
  if (schema.pattern) {
    const pattern = new RegExp(schema.pattern, 'u');
    const [text] = fc.sample(
      fc
        .stringMatching(pattern)
        .filter((candidate) => candidate.length >= minimum && candidate.length <= (schema.maxLength ?? 64)),
      { seed: 1, numRuns: 1 },
    );
    if (text !== undefined) return text;
  }
  return 'x'.repeat(minimum);
}

/** The body example with `value` at `path`, creating the containers on the way. */
function withValueAt(
  root: OpenApiSchema,
  path: (string | number)[],
  value: unknown,
  context: VariantContext,
): unknown {
  if (path.length === 0) return value;
  const document = exampleOf(root, context, undefined);
  const parentPath = path.slice(0, -1);
  const parent = objectAt(document, parentPath, root, context);
  parent[path[path.length - 1] as string] = value;
  return document;
}

/** The container at `path` in `document`, made from examples where the example left it out. */
function objectAt(
  document: unknown,
  path: (string | number)[],
  root: OpenApiSchema,
  context: VariantContext,
): Record<string | number, unknown> {
  let container = document as Record<string | number, unknown>;
  let schema = root;
  for (const step of path) {
    const branch = mainBranch(schema, context.resolve);
    const child =
      typeof step === 'number'
        ? (branch.items ?? {})
        : (branch.properties?.[step] ??
          (typeof branch.additionalProperties === 'object' ? branch.additionalProperties : {}));
    let next = container[step];
    if (next === undefined || next === null || typeof next !== 'object') {
      next = exampleOf(child, context, typeof step === 'string' ? step : undefined);
      if (next === null || typeof next !== 'object') next = {};
      container[step] = next;
    }
    const childBranch = mainBranch(child, context.resolve);
    if (Array.isArray(next) && next.length === 0)
      next.push(exampleOf(childBranch.items ?? {}, context, undefined));
    container = next as Record<string | number, unknown>;
    schema = child;
  }
  return container;
}

// ---------------------------------------------------------------------------------------------
// Empty and minimal updates

/**
 * A request that is not wrong, only small: an update (PATCH or PUT) with an empty body, with its
 * required fields alone, or with a single field. None may answer 5xx: an empty update answers
 * 200 with the record as it was, or 422 naming the field that update requires.
 */
export interface SmallUpdate {
  operation: string;
  kind: string;
  method: Operation['method'];
  url: string;
  headers: Record<string, string>;
  payload: string;
  /**
   * What a 2xx answer may change: `nothing` (not a row), `only-stamps` (the record reads as it
   * did, but for when it was written and its version), or `anything` (a field got an example).
   */
  changes: 'nothing' | 'only-stamps' | 'anything';
}

export function isUpdate(operation: Operation): boolean {
  return (
    (operation.method === 'PATCH' || operation.method === 'PUT') &&
    operation.body?.contentType === 'application/json'
  );
}

/**
 * `{}`, the required fields alone (when there are any), and each field alone: with the value
 * the record already has where `current` (its JSON as read) shows one, else an example value.
 */
export function smallUpdatesFor(
  operation: Operation,
  context: VariantContext,
  current: Record<string, unknown> | undefined,
): SmallUpdate[] {
  const schema = operation.body?.schema;
  if (!schema || !isUpdate(operation)) return [];
  const url = context.path(operation);
  const updates: SmallUpdate[] = [];
  const add = (kind: string, body: unknown, changes: SmallUpdate['changes']) =>
    updates.push({
      operation: operation.id,
      kind,
      method: operation.method,
      url,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(body),
      changes,
    });
  add('empty body', {}, 'nothing');
  const object = mainBranch(schema, context.resolve);
  const required = exampleOf(schema, context, undefined) as Record<string, unknown>;
  if (Object.keys(required).length > 0) add('required fields only', required, 'anything');
  for (const [name, property] of Object.entries(object.properties ?? {})) {
    if (name in required) continue;
    if (current && name in current) {
      add(`only ${name}, as it is`, { ...required, [name]: current[name] }, 'only-stamps');
    } else {
      add(`only ${name}`, { ...required, [name]: exampleOf(property, context, name) }, 'anything');
    }
  }
  return updates;
}
