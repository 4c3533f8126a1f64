import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { Static, TObject } from 'typebox';
import type { Services } from '../services.ts';
import { principalOf, workspaceOf } from './access.ts';
import { type CrudDocumentation, type CrudSchemas, crudRoutes } from './crud-routes.ts';
import { type listBody, type PageRequest, type PaginationQuery, pageRequest } from './pagination.ts';
import type { Principal } from './principal.ts';
import { WorkspaceIdParams } from './schemas.ts';

export interface WorkspaceCrudSchemas extends CrudSchemas {
  /** The collection's path parameters when it lies deeper than the workspace (a design system's). */
  collectionParams?: TObject;
}

/**
 * What a service call may need besides the workspace: who asks, and the path parameters and the
 * query as validated (a design system's id, filters).
 */
export interface WorkspaceCrudRequest<Params, Query = unknown> {
  principal: Principal;
  params: Params;
  query: Query;
}

type StaticOf<Schema, Otherwise> = Schema extends TObject ? Static<Schema> : Otherwise;
type CollectionParamsOf<Schemas extends WorkspaceCrudSchemas> = StaticOf<
  Schemas['collectionParams'],
  Static<typeof WorkspaceIdParams>
>;
type CollectionRequest<Schemas extends WorkspaceCrudSchemas, Query = unknown> = WorkspaceCrudRequest<
  CollectionParamsOf<Schemas>,
  Query
>;
type ItemRequest<Schemas extends WorkspaceCrudSchemas, Query = unknown> = WorkspaceCrudRequest<
  Static<Schemas['itemParams']>,
  Query
>;

/**
 * The five routes of a plain workspace resource (list, create, get, update, delete) under
 * `/api/v1/workspaces/:workspace_id/<path>`. Each service call gets the workspace's id, and last
 * the request's principal, parameters and query for the services that need more than the workspace.
 */
export interface WorkspaceCrudSpec<
  Id extends number | string,
  Schemas extends WorkspaceCrudSchemas = WorkspaceCrudSchemas,
> extends CrudDocumentation {
  /** The collection's path below the workspace, e.g. `conditionals`. */
  path: string;
  schemas: Schemas;
  service: {
    list(
      services: Services,
      workspaceId: number,
      page: PageRequest,
      request: CollectionRequest<Schemas, StaticOf<Schemas['listQuery'], PaginationQuery>>,
    ): Promise<ReturnType<typeof listBody>>;
    create(
      services: Services,
      principal: Principal,
      workspaceId: number,
      body: Static<Schemas['create']>,
      request: CollectionRequest<Schemas>,
    ): Promise<unknown>;
    get(services: Services, workspaceId: number, id: Id, request: ItemRequest<Schemas>): Promise<unknown>;
    update(
      services: Services,
      workspaceId: number,
      id: Id,
      body: Static<Schemas['update']>,
      request: ItemRequest<Schemas>,
    ): Promise<unknown>;
    delete(
      services: Services,
      workspaceId: number,
      id: Id,
      request: ItemRequest<Schemas, StaticOf<Schemas['deleteQuery'], unknown>>,
    ): Promise<void>;
  };
}

export function workspaceCrudRoutes<
  Id extends number | string,
  Schemas extends WorkspaceCrudSchemas = WorkspaceCrudSchemas,
>({ path, schemas, service, ...documentation }: WorkspaceCrudSpec<Id, Schemas>): FastifyPluginAsyncTypebox {
  // The route's schemas have validated the parameters, query and body these casts name.
  const requestOf = (request: FastifyRequest) =>
    ({ principal: principalOf(request), params: request.params, query: request.query }) as never;
  const workspaceIdOf = (request: FastifyRequest) => workspaceOf(request).id;
  const idOf = (request: FastifyRequest) => (request.params as { id: Id }).id;
  return crudRoutes({
    ...documentation,
    collection: `/api/v1/workspaces/:workspace_id/${path}`,
    collectionParams: schemas.collectionParams ?? WorkspaceIdParams,
    schemas,
    handlers: {
      list: (services, request) =>
        service.list(
          services,
          workspaceIdOf(request),
          pageRequest(request.query as PaginationQuery),
          requestOf(request),
        ),
      create: (services, request) =>
        service.create(
          services,
          principalOf(request),
          workspaceIdOf(request),
          request.body as never,
          requestOf(request),
        ),
      get: (services, request) =>
        service.get(services, workspaceIdOf(request), idOf(request), requestOf(request)),
      update: (services, request) =>
        service.update(
          services,
          workspaceIdOf(request),
          idOf(request),
          request.body as never,
          requestOf(request),
        ),
      delete: (services, request) =>
        service.delete(services, workspaceIdOf(request), idOf(request), requestOf(request)),
    },
  });
}
