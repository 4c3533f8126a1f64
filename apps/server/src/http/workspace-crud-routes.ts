import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { PermissionKey } from '@letterset/core';
import { type TObject, type TSchema, Type } from 'typebox';
import type { Services } from '../services.ts';
import { principalOf, workspaceOf } from './access.ts';
import { ListResponse, type listBody, type PageRequest, PaginationQuery, pageRequest } from './pagination.ts';
import type { Principal } from './principal.ts';
import { errorResponses, ref, WorkspaceIdParams } from './schemas.ts';

/**
 * The five routes of a plain workspace resource (list, create, get, update, delete), for
 * resources whose routes differ only in names, schemas, permissions and service calls.
 */
export interface WorkspaceCrudSpec<Id extends number | string> {
  /** The collection's path segment, e.g. `conditionals`. */
  path: string;
  tag: string;
  /** For operation ids and summaries: `Conditional` → listConditionals, createConditional… */
  name: { singular: string; plural: string; words: string };
  permissions: { create: PermissionKey; update: PermissionKey; delete: PermissionKey };
  schemas: { item: TSchema; create: TObject; update: TObject; itemParams: TObject };
  descriptions?: { create?: string; update?: string; delete?: string };
  service: {
    list(services: Services, workspaceId: number, page: PageRequest): Promise<ReturnType<typeof listBody>>;
    create(services: Services, principal: Principal, workspaceId: number, body: never): Promise<unknown>;
    get(services: Services, workspaceId: number, id: Id): Promise<unknown>;
    update(services: Services, workspaceId: number, id: Id, body: never): Promise<unknown>;
    delete(services: Services, workspaceId: number, id: Id): Promise<void>;
  };
}

export const WorkspaceParams = WorkspaceIdParams;

export function workspaceCrudRoutes<Id extends number | string>(
  spec: WorkspaceCrudSpec<Id>,
): FastifyPluginAsyncTypebox {
  const collection = `/api/v1/workspaces/:workspace_id/${spec.path}`;
  const tags = [spec.tag];
  const { singular, plural, words } = spec.name;
  const article = /^[aeiou]/i.test(words) ? 'an' : 'a';
  const withDescription = (description: string | undefined) => (description ? { description } : {});
  const idOf = (params: unknown) => (params as { id: Id }).id;
  return async (app) => {
    app.get(
      collection,
      {
        config: { permission: 'signed_in' },
        schema: {
          operationId: `list${plural}`,
          tags,
          summary: `List ${words}s`,
          params: WorkspaceParams,
          querystring: PaginationQuery,
          response: { 200: ListResponse(ref(spec.schemas.item)), ...errorResponses(401, 403, 404, 422) },
        },
      },
      async (request) => spec.service.list(app.services, workspaceOf(request).id, pageRequest(request.query)),
    );

    app.post(
      collection,
      {
        config: { permission: spec.permissions.create },
        schema: {
          operationId: `create${singular}`,
          tags,
          summary: `Create ${article} ${words}`,
          ...withDescription(spec.descriptions?.create),
          params: WorkspaceParams,
          body: spec.schemas.create,
          response: { 200: ref(spec.schemas.item), ...errorResponses(401, 403, 404, 422) },
        },
      },
      async (request) =>
        spec.service.create(
          app.services,
          principalOf(request),
          workspaceOf(request).id,
          request.body as never,
        ),
    );

    app.get(
      `${collection}/:id`,
      {
        config: { permission: 'signed_in' },
        schema: {
          operationId: `get${singular}`,
          tags,
          summary: `Get ${article} ${words}`,
          params: spec.schemas.itemParams,
          response: { 200: ref(spec.schemas.item), ...errorResponses(401, 403, 404, 422) },
        },
      },
      async (request) => spec.service.get(app.services, workspaceOf(request).id, idOf(request.params)),
    );

    app.patch(
      `${collection}/:id`,
      {
        config: { permission: spec.permissions.update },
        schema: {
          operationId: `update${singular}`,
          tags,
          summary: `Change ${article} ${words}`,
          ...withDescription(spec.descriptions?.update),
          params: spec.schemas.itemParams,
          body: spec.schemas.update,
          response: { 200: ref(spec.schemas.item), ...errorResponses(401, 403, 404, 422) },
        },
      },
      async (request) =>
        spec.service.update(
          app.services,
          workspaceOf(request).id,
          idOf(request.params),
          request.body as never,
        ),
    );

    app.delete(
      `${collection}/:id`,
      {
        config: { permission: spec.permissions.delete },
        schema: {
          operationId: `delete${singular}`,
          tags,
          summary: `Delete ${article} ${words}`,
          ...withDescription(spec.descriptions?.delete),
          params: spec.schemas.itemParams,
          response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(401, 403, 404, 422) },
        },
      },
      async (request, reply) => {
        await spec.service.delete(app.services, workspaceOf(request).id, idOf(request.params));
        return reply.code(204).send(null);
      },
    );
  };
}
