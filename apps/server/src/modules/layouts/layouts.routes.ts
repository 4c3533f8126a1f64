import { ref } from '../../http/schemas.ts';
import { workspaceCrudRoutes } from '../../http/workspace-crud-routes.ts';
import {
  CreateLayoutBody,
  Layout,
  LayoutConflict,
  LayoutParams,
  ListLayoutsQuery,
  UpdateLayoutBody,
} from './layouts.schemas.ts';
import { createLayout, deleteLayout, getLayout, listLayouts, updateLayout } from './layouts.service.ts';

export const layoutsRoutes = workspaceCrudRoutes({
  path: 'layouts',
  tag: 'Layouts',
  name: { singular: 'Layout', plural: 'Layouts', words: 'layout' },
  permissions: { create: 'create_layouts', update: 'update_layouts', delete: 'delete_layouts' },
  schemas: {
    item: Layout,
    create: CreateLayoutBody,
    update: UpdateLayoutBody,
    itemParams: LayoutParams,
    listQuery: ListLayoutsQuery,
  },
  summaries: { create: 'Save a layout' },
  descriptions: {
    list: 'Filter by email_design_system_id, and by brand_profile_id (an id, or null for layouts without one).',
    create:
      'The brand profile and every instance’s component must belong to the design system; the container ' +
      'instance must use its container (422 otherwise).',
  },
  responses: { update: { 409: ref(LayoutConflict) } },
  service: {
    list: (services, workspaceId, page, { query }) => listLayouts(services, workspaceId, query, page),
    create: createLayout,
    get: getLayout,
    update: updateLayout,
    delete: deleteLayout,
  },
});
