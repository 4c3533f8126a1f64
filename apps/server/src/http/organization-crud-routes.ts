import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Static, TObject, TSchema } from 'typebox';
import type { Services } from '../services.ts';
import { principalOf } from './access.ts';
import { type CrudDocumentation, crudRoutes } from './crud-routes.ts';
import { type listBody, type PageRequest, type PaginationQuery, pageRequest } from './pagination.ts';
import type { Principal } from './principal.ts';

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
> extends CrudDocumentation {
  /** The collection's path segment, e.g. `roles`. */
  path: string;
  schemas: { item: TSchema; create: Create; update: Update; itemParams: TObject; listQuery?: Query };
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
>({
  path,
  service,
  ...documentation
}: OrganizationCrudSpec<Id, Query, Create, Update>): FastifyPluginAsyncTypebox {
  const idOf = (params: unknown) => (params as { id: Id }).id;
  return crudRoutes({
    ...documentation,
    collection: `/api/v1/${path}`,
    handlers: {
      list: (services, request) =>
        service.list(
          services,
          principalOf(request),
          request.query as Static<Query>,
          pageRequest(request.query as PaginationQuery),
        ),
      create: (services, request) =>
        service.create(services, principalOf(request), request.body as Static<Create>),
      get: (services, request) => service.get(services, principalOf(request), idOf(request.params)),
      update: (services, request) =>
        service.update(services, principalOf(request), idOf(request.params), request.body as Static<Update>),
      delete: (services, request) => service.delete(services, principalOf(request), idOf(request.params)),
    },
  });
}
