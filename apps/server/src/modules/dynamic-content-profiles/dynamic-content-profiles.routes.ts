import { workspaceCrudRoutes } from '../../http/workspace-crud-routes.ts';
import {
  CreateDynamicContentProfileBody,
  DynamicContentProfile,
  DynamicContentProfileParams,
  UpdateDynamicContentProfileBody,
} from './dynamic-content-profiles.schemas.ts';
import {
  createDynamicContentProfile,
  deleteDynamicContentProfile,
  getDynamicContentProfile,
  listDynamicContentProfiles,
  updateDynamicContentProfile,
} from './dynamic-content-profiles.service.ts';

export const dynamicContentProfilesRoutes = workspaceCrudRoutes<string>({
  path: 'dynamic_content_profiles',
  tag: 'Dynamic content profiles',
  name: {
    singular: 'DynamicContentProfile',
    plural: 'DynamicContentProfiles',
    words: 'dynamic content profile',
  },
  permissions: {
    create: 'create_dynamic_content_profiles',
    update: 'update_dynamic_content_profiles',
    delete: 'delete_dynamic_content_profiles',
  },
  schemas: {
    item: DynamicContentProfile,
    create: CreateDynamicContentProfileBody,
    update: UpdateDynamicContentProfileBody,
    itemParams: DynamicContentProfileParams,
  },
  descriptions: {
    create: 'One profile per sending platform dialect; its id is a string (a UUID).',
    update:
      'Removing the preset (null) is refused with 422 while conditionals build this profile’s syntax with the preset picker.',
    delete: 'Conditionals and personalization tags lose their values for this profile.',
  },
  service: {
    list: listDynamicContentProfiles,
    create: createDynamicContentProfile,
    get: getDynamicContentProfile,
    update: updateDynamicContentProfile,
    delete: deleteDynamicContentProfile,
  },
});
