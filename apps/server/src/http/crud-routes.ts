import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { PermissionKey } from '@letterset/core';
import type { FastifyRequest } from 'fastify';
import { type TObject, type TSchema, Type } from 'typebox';
import type { Services } from '../services.ts';
import type { ErrorStatus } from './errors.ts';
import { ListResponse, PaginationQuery } from './pagination.ts';
import { errorResponses, ref } from './schemas.ts';

export type CrudOperation = 'list' | 'create' | 'get' | 'update' | 'delete';

/** The request and response schemas of the five routes. */
export interface CrudSchemas {
  item: TSchema;
  create: TObject;
  update: TObject;
  itemParams: TObject;
  /** Pagination's query unless given. */
  listQuery?: TObject;
  deleteQuery?: TObject;
}

/** How the five operations of a resource read in the OpenAPI document, besides their schemas. */
export interface CrudDocumentation {
  tag: string;
  /** For operation ids and summaries: `Role` → listRoles, createRole… */
  name: { singular: string; plural: string; words: string };
  permissions: { create: PermissionKey; update: PermissionKey; delete: PermissionKey };
  /** Summaries other than the plain ones (`List roles`, `Create a role`, `Change a role`…). */
  summaries?: Partial<Record<CrudOperation, string>>;
  descriptions?: Partial<Record<CrudOperation, string>>;
  /** Error answers other than 401, 403 and 422, and 404 whenever the path names something. */
  errors?: Partial<Record<CrudOperation, ErrorStatus[]>>;
  /** Answers with bodies of their own besides the item and the errors, e.g. a 409 showing the conflict. */
  responses?: Partial<Record<CrudOperation, Record<number, TSchema>>>;
  /** 200 unless the resource answers a create with 201. */
  createdStatus?: 200 | 201;
  /** What the 204 of a delete says: `Deleted` unless given. */
  deletedDescription?: string;
}

/** What answers each operation; the request has passed the route's schemas. */
export interface CrudHandlers {
  list(services: Services, request: FastifyRequest): Promise<unknown>;
  create(services: Services, request: FastifyRequest): Promise<unknown>;
  get(services: Services, request: FastifyRequest): Promise<unknown>;
  update(services: Services, request: FastifyRequest): Promise<unknown>;
  delete(services: Services, request: FastifyRequest): Promise<void>;
}

export interface CrudRoutesSpec extends CrudDocumentation {
  /** The collection's URL, e.g. `/api/v1/roles`; one item is at `<collection>/:id`. */
  collection: string;
  /** The parameters of the collection's URL, if it has any. */
  collectionParams?: TObject;
  schemas: CrudSchemas;
  handlers: CrudHandlers;
}

/**
 * The five routes of a plain resource (list, create, get, update, delete): the common part of
 * `workspaceCrudRoutes` and `organizationCrudRoutes`, which say where the resource lives and how
 * its service functions are called.
 */
export function crudRoutes(spec: CrudRoutesSpec): FastifyPluginAsyncTypebox {
  const { collection, collectionParams, schemas, handlers } = spec;
  const item = `${collection}/:id`;
  const { singular, plural, words } = spec.name;
  const article = /^[aeiou]/i.test(words) ? 'an' : 'a';
  const plainSummaries: Record<CrudOperation, string> = {
    list: `List ${words}s`,
    create: `Create ${article} ${words}`,
    get: `Get ${article} ${words}`,
    update: `Change ${article} ${words}`,
    delete: `Delete ${article} ${words}`,
  };
  // A collection under a path parameter (a workspace, a design system) may not exist: 404.
  const collectionErrors: ErrorStatus[] = collectionParams ? [401, 403, 404, 422] : [401, 403, 422];
  const plainErrors: Record<CrudOperation, ErrorStatus[]> = {
    list: collectionErrors,
    create: collectionErrors,
    get: [401, 403, 404, 422],
    update: [401, 403, 404, 422],
    delete: [401, 403, 404, 422],
  };
  const documentation = (operation: CrudOperation) => {
    const description = spec.descriptions?.[operation];
    return {
      operationId: `${operation}${operation === 'list' ? plural : singular}`,
      tags: [spec.tag],
      summary: spec.summaries?.[operation] ?? plainSummaries[operation],
      ...(description ? { description } : {}),
    };
  };
  const responsesOf = (operation: CrudOperation, success: Record<number, TSchema>) => ({
    ...success,
    ...spec.responses?.[operation],
    ...errorResponses(...(spec.errors?.[operation] ?? plainErrors[operation])),
  });
  const withParams = (params: TObject | undefined) => (params ? { params } : {});
  const createdStatus = spec.createdStatus ?? 200;

  return async (app) => {
    app.get(
      collection,
      {
        config: { permission: 'signed_in' },
        schema: {
          ...documentation('list'),
          ...withParams(collectionParams),
          querystring: schemas.listQuery ?? PaginationQuery,
          response: responsesOf('list', { 200: ListResponse(ref(schemas.item)) }),
        },
      },
      async (request) => handlers.list(app.services, request),
    );

    app.post(
      collection,
      {
        config: { permission: spec.permissions.create },
        schema: {
          ...documentation('create'),
          ...withParams(collectionParams),
          body: schemas.create,
          response: responsesOf('create', { [createdStatus]: ref(schemas.item) }),
        },
      },
      async (request, reply) => reply.code(createdStatus).send(await handlers.create(app.services, request)),
    );

    app.get(
      item,
      {
        config: { permission: 'signed_in' },
        schema: {
          ...documentation('get'),
          params: schemas.itemParams,
          response: responsesOf('get', { 200: ref(schemas.item) }),
        },
      },
      async (request) => handlers.get(app.services, request),
    );

    app.patch(
      item,
      {
        config: { permission: spec.permissions.update },
        schema: {
          ...documentation('update'),
          params: schemas.itemParams,
          body: schemas.update,
          response: responsesOf('update', { 200: ref(schemas.item) }),
        },
      },
      async (request) => handlers.update(app.services, request),
    );

    app.delete(
      item,
      {
        config: { permission: spec.permissions.delete },
        schema: {
          ...documentation('delete'),
          params: schemas.itemParams,
          ...(schemas.deleteQuery ? { querystring: schemas.deleteQuery } : {}),
          response: responsesOf('delete', {
            204: Type.Null({ description: spec.deletedDescription ?? 'Deleted' }),
          }),
        },
      },
      async (request, reply) => {
        await handlers.delete(app.services, request);
        return reply.code(204).send(null);
      },
    );
  };
}
