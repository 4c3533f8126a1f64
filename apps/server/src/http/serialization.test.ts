import { describe, expect, it } from 'vitest';
import { buildLazySerializerFactory } from './serialization.ts';

const route = (schema: object) => ({ schema, method: 'GET', url: '/things', httpStatus: '200' });

describe('the lazy serializer factory', () => {
  it('serializes as fast-json-stringify does, with the shared schemas, once asked', () => {
    const compile = buildLazySerializerFactory()(
      { Thing: { $id: 'Thing', type: 'object', properties: { id: { type: 'integer' } } } },
      {},
    );
    const serialize = compile(route({ type: 'array', items: { $ref: 'Thing#' } }));
    // Only the declared properties leave: a column the schema does not name is never answered.
    expect(serialize([{ id: 1, secret: 'no' }, { id: 2 }])).toBe('[{"id":1},{"id":2}]');
  });

  it('compiles a schema only when the route first answers with it', () => {
    const compile = buildLazySerializerFactory()({}, {});
    // A schema fast-json-stringify refuses: with eager compiling the server would not start.
    const serialize = compile(route({ type: 'object', properties: { id: { type: 'no-such-type' } } }));
    expect(() => serialize({ id: 1 })).toThrow();
  });
});
