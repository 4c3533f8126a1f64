import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf, workspaceOf } from '../../http/access.ts';
import { ListResponse, PaginationQuery, pageRequest } from '../../http/pagination.ts';
import { errorResponses, ref } from '../../http/schemas.ts';
import { workspaceCrudRoutes } from '../../http/workspace-crud-routes.ts';
import {
  Component,
  ComponentParams,
  ComponentVersion,
  CreateComponentBody,
  ListComponentsQuery,
  ReorderComponentsBody,
  SystemParams,
  UpdateComponentBody,
} from './components.schemas.ts';
import {
  createComponent,
  deleteComponent,
  getComponent,
  listComponents,
  listComponentVersions,
  reorderComponents,
  updateComponent,
} from './components.service.ts';

const system = '/api/v1/workspaces/:workspace_id/email_design_systems/:email_design_system_id';
const ComponentList = Type.Object({ results: Type.Array(ref(Component)) });

const crudRoutes = workspaceCrudRoutes({
  path: 'email_design_systems/:email_design_system_id/components',
  tag: 'Email design systems',
  name: { singular: 'Component', plural: 'Components', words: 'component' },
  permissions: {
    create: 'update_email_design_systems',
    update: 'update_email_design_systems',
    delete: 'update_email_design_systems',
  },
  schemas: {
    item: Component,
    create: CreateComponentBody,
    update: UpdateComponentBody,
    collectionParams: SystemParams,
    itemParams: ComponentParams,
    listQuery: ListComponentsQuery,
  },
  summaries: {
    list: 'List a design system’s components, container first, then in palette order',
    create: 'Add a component',
    update: 'Change a component (records a version)',
    delete: 'Delete a component (never the container)',
  },
  descriptions: {
    list:
      'Paginated like every list (per, at most 100, and page; pagination.total counts them all): page on ' +
      'to see every component. With brand_profile_id: that brand’s hidden components are left out (and ' +
      'not counted) and its field overrides applied.',
    create:
      'Refused (422, naming the field) when the template does not parse (with line and column), a ' +
      'liquid_variable is not an identifier or is repeated, a default value has the wrong type or is not one ' +
      'of the options, a visible_if does not parse, the name is taken, or a second container is added. ' +
      'A container’s template must contain {{children}}.',
  },
  service: {
    list: (services, workspaceId, page, { principal, params, query }) =>
      listComponents(
        services,
        principal,
        workspaceId,
        params.email_design_system_id,
        query.brand_profile_id,
        page,
      ),
    create: (services, principal, workspaceId, body, { params }) =>
      createComponent(services, principal, workspaceId, params.email_design_system_id, body),
    get: (services, workspaceId, id: number, { principal, params }) =>
      getComponent(services, principal, workspaceId, params.email_design_system_id, id),
    update: (services, workspaceId, id: number, body, { principal, params }) =>
      updateComponent(services, principal, workspaceId, params.email_design_system_id, id, body),
    delete: (services, workspaceId, id: number, { principal, params }) =>
      deleteComponent(services, principal, workspaceId, params.email_design_system_id, id),
  },
});

export const componentsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(crudRoutes);
  app.get(
    `${system}/components/:id/versions`,
    {
      config: { permission: 'signed_in' },
      schema: {
        operationId: 'listComponentVersions',
        tags: ['Email design systems'],
        summary: 'A component’s saved versions, newest first',
        params: ComponentParams,
        querystring: PaginationQuery,
        response: { 200: ListResponse(ref(ComponentVersion)), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) =>
      listComponentVersions(
        app.services,
        principalOf(request),
        workspaceOf(request).id,
        request.params.email_design_system_id,
        request.params.id,
        pageRequest(request.query),
      ),
  );

  app.post(
    `${system}/reorder_components`,
    {
      config: { permission: 'update_email_design_systems' },
      schema: {
        operationId: 'reorderComponents',
        tags: ['Email design systems'],
        summary: 'Set the palette order of the components',
        params: SystemParams,
        body: ReorderComponentsBody,
        response: { 200: ComponentList, ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) =>
      reorderComponents(
        app.services,
        principalOf(request),
        workspaceOf(request).id,
        request.params.email_design_system_id,
        request.body.component_ids,
      ),
  );
};
