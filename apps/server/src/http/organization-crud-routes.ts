import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { PermissionKey } from '@letterset/core';
import { type Static, type TObject, type TSchema, Type } from 'typebox';
import type { Services } from '../services.ts';
import { principalOf } from './access.ts';
import type { ErrorStatus } from './errors.ts';
import { ListResponse, type listBody, type PageRequest, PaginationQuery, pageRequest } from './pagination.ts';
import type { Principal } from './principal.ts';
import { errorResponses, ref } from './schemas.ts';

type Operation = 'list' | 'create' | 'get' | 'update' | 'delete';

/**
 * The five routes of a plain organization resource (list, create, get, update, delete) under
 * `/api/v1/<path>`: the organization-level twin of `workspaceCrudRoutes`. The organization is
 * the principal's; each service call gets the principal, which scopes what it sees.
 */
export interface OrganizationCrudSpec<
  Id extends number | string,
  Query extends TObject,
  Create extends TObject,
  Update extends TObject,
> {
  /** The collection's path segment, e.g. `roles`. */
  path: string;
  tag: string;
  /** For operation ids and summaries: `Role` → listRoles, createRole… */
  name: { singular: string; plural: string; words: string };
  permissions: { create: PermissionKey; update: PermissionKey; delete: PermissionKey };
  schemas: { item: TSchema; create: Create; update: Update; itemParams: TObject; listQuery?: Query };
  /** Summaries other than the plain ones (`List roles`, `Create a role`, `Change a role`…). */
  summaries?: Partial<Record<Operation, string>>;
  descriptions?: Partial<Record<Operation, string>>;
  /** Error answers other than 401, 403 and 422 (and 404 for one item). */
  errors?: Partial<Record<Operation, ErrorStatus[]>>;
  /** 200 unless the resource answers a create with 201. */
  createdStatus?: 200 | 201;
  /** What the 204 of a delete says: `Deleted` unless given. */
  deletedDescription?: string;
  service: {
    list(
      services: Services,
      principal: Principal,
      query: Static<Query>,
      page: PageRequest,
    ): Promise<ReturnType<typeof listBody>>;
    create(services: Services, principal: Principal, body: Static<Create>): Promise<unknown>;
    get(services: Services, principal: Principal, id: Id): Promise<unknown>;
    update(services: Services, principal: Principal, id: Id, body: Static<Update>): Promise<unknown>;
    delete(services: Services, principal: Principal, id: Id): Promise<void>;
  };
}

export function organizationCrudRoutes<
  Id extends number | string,
  Query extends TObject,
  Create extends TObject,
  Update extends TObject,
>(spec: OrganizationCrudSpec<Id, Query, Create, Update>): FastifyPluginAsyncTypebox {
  const collection = `/api/v1/${spec.path}`;
  const { singular, plural, words } = spec.name;
  const article = /^[aeiou]/i.test(words) ? 'an' : 'a';
  const plainSummaries: Record<Operation, string> = {
    list: `List ${words}s`,
    create: `Create ${article} ${words}`,
    get: `Get ${article} ${words}`,
    update: `Change ${article} ${words}`,
    delete: `Delete ${article} ${words}`,
  };
  const plainErrors: Record<Operation, ErrorStatus[]> = {
    list: [401, 403, 422],
    create: [401, 403, 422],
    get: [401, 403, 404, 422],
    update: [401, 403, 404, 422],
    delete: [401, 403, 404, 422],
  };
  const describe = (operation: Operation) => {
    const description = spec.descriptions?.[operation];
    return {
      summary: spec.summaries?.[operation] ?? plainSummaries[operation],
      ...(description ? { description } : {}),
    };
  };
  const errorsOf = (operation: Operation) =>
    errorResponses(...(spec.errors?.[operation] ?? plainErrors[operation]));
  const idOf = (params: unknown) => (params as { id: Id }).id;
  const createdStatus = spec.createdStatus ?? 200;
  // Each route gets its own tags array: a shared one would come out of the YAML writer as an anchor.
  return async (app) => {
    app.get(
      collection,
      {
        config: { permission: 'signed_in' },
        schema: {
          operationId: `list${plural}`,
          tags: [spec.tag],
          ...describe('list'),
          querystring: spec.schemas.listQuery ?? PaginationQuery,
          response: { 200: ListResponse(ref(spec.schemas.item)), ...errorsOf('list') },
        },
      },
      async (request) =>
        spec.service.list(
          app.services,
          principalOf(request),
          request.query as Static<Query>,
          pageRequest(request.query as PaginationQuery),
        ),
    );

    app.post(
      collection,
      {
        config: { permission: spec.permissions.create },
        schema: {
          operationId: `create${singular}`,
          tags: [spec.tag],
          ...describe('create'),
          body: spec.schemas.create,
          response: { [createdStatus]: ref(spec.schemas.item), ...errorsOf('create') },
        },
      },
      async (request, reply) =>
        reply
          .code(createdStatus)
          .send(
            await spec.service.create(app.services, principalOf(request), request.body as Static<Create>),
          ),
    );

    app.get(
      `${collection}/:id`,
      {
        config: { permission: 'signed_in' },
        schema: {
          operationId: `get${singular}`,
          tags: [spec.tag],
          ...describe('get'),
          params: spec.schemas.itemParams,
          response: { 200: ref(spec.schemas.item), ...errorsOf('get') },
        },
      },
      async (request) => spec.service.get(app.services, principalOf(request), idOf(request.params)),
    );

    app.patch(
      `${collection}/:id`,
      {
        config: { permission: spec.permissions.update },
        schema: {
          operationId: `update${singular}`,
          tags: [spec.tag],
          ...describe('update'),
          params: spec.schemas.itemParams,
          body: spec.schemas.update,
          response: { 200: ref(spec.schemas.item), ...errorsOf('update') },
        },
      },
      async (request) =>
        spec.service.update(
          app.services,
          principalOf(request),
          idOf(request.params),
          request.body as Static<Update>,
        ),
    );

    app.delete(
      `${collection}/:id`,
      {
        config: { permission: spec.permissions.delete },
        schema: {
          operationId: `delete${singular}`,
          tags: [spec.tag],
          ...describe('delete'),
          params: spec.schemas.itemParams,
          response: {
            204: Type.Null({ description: spec.deletedDescription ?? 'Deleted' }),
            ...errorsOf('delete'),
          },
        },
      },
      async (request, reply) => {
        await spec.service.delete(app.services, principalOf(request), idOf(request.params));
        return reply.code(204).send(null);
      },
    );
  };
}
