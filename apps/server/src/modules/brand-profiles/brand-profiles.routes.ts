import { workspaceCrudRoutes } from '../../http/workspace-crud-routes.ts';
import {
  BrandProfile,
  BrandProfileParams,
  BrandProfilesParams,
  CreateBrandProfileBody,
  UpdateBrandProfileBody,
} from './brand-profiles.schemas.ts';
import {
  createBrandProfile,
  deleteBrandProfile,
  getBrandProfile,
  listBrandProfiles,
  updateBrandProfile,
} from './brand-profiles.service.ts';

export const brandProfilesRoutes = workspaceCrudRoutes({
  path: 'email_design_systems/:email_design_system_id/brand_profiles',
  tag: 'Brand profiles',
  name: { singular: 'BrandProfile', plural: 'BrandProfiles', words: 'brand profile' },
  permissions: {
    create: 'create_brand_profiles',
    update: 'update_brand_profiles',
    delete: 'delete_brand_profiles',
  },
  schemas: {
    item: BrandProfile,
    create: CreateBrandProfileBody,
    update: UpdateBrandProfileBody,
    collectionParams: BrandProfilesParams,
    itemParams: BrandProfileParams,
  },
  summaries: { list: 'List a design system’s brand profiles' },
  descriptions: {
    create:
      'Overrides may only name the system’s components and their fields, with defaults of the field’s type ' +
      '(422 otherwise). Only from the workspace that owns the design system.',
  },
  service: {
    list: (services, workspaceId, page, { principal, params }) =>
      listBrandProfiles(services, principal, workspaceId, params.email_design_system_id, page),
    create: (services, principal, workspaceId, body, { params }) =>
      createBrandProfile(services, principal, workspaceId, params.email_design_system_id, body),
    get: (services, workspaceId, id: number, { principal, params }) =>
      getBrandProfile(services, principal, workspaceId, params.email_design_system_id, id),
    update: (services, workspaceId, id: number, body, { principal, params }) =>
      updateBrandProfile(services, principal, workspaceId, params.email_design_system_id, id, body),
    delete: (services, workspaceId, id: number, { principal, params }) =>
      deleteBrandProfile(services, principal, workspaceId, params.email_design_system_id, id),
  },
});
