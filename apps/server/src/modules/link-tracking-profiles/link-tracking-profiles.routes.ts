import { workspaceCrudRoutes } from '../../http/workspace-crud-routes.ts';
import {
  CreateLinkTrackingProfileBody,
  LinkTrackingProfile,
  LinkTrackingProfileParams,
  UpdateLinkTrackingProfileBody,
} from './link-tracking-profiles.schemas.ts';
import {
  createLinkTrackingProfile,
  deleteLinkTrackingProfile,
  getLinkTrackingProfile,
  listLinkTrackingProfiles,
  updateLinkTrackingProfile,
} from './link-tracking-profiles.service.ts';

export const linkTrackingProfilesRoutes = workspaceCrudRoutes<number>({
  path: 'link_tracking_profiles',
  tag: 'Link tracking profiles',
  name: { singular: 'LinkTrackingProfile', plural: 'LinkTrackingProfiles', words: 'link tracking profile' },
  permissions: {
    create: 'create_link_tracking_profiles',
    update: 'update_link_tracking_profiles',
    delete: 'delete_link_tracking_profiles',
  },
  schemas: {
    item: LinkTrackingProfile,
    create: CreateLinkTrackingProfileBody,
    update: UpdateLinkTrackingProfileBody,
    itemParams: LinkTrackingProfileParams,
  },
  descriptions: {
    create:
      'Parameters are added to every http(s) link of url fields and rich text of emails using the profile; a custom_template (Liquid) builds the final URL instead.',
    delete: 'Refused with 422, naming the emails, while emails use the profile.',
  },
  service: {
    list: listLinkTrackingProfiles,
    create: createLinkTrackingProfile,
    get: getLinkTrackingProfile,
    update: updateLinkTrackingProfile,
    delete: deleteLinkTrackingProfile,
  },
});
