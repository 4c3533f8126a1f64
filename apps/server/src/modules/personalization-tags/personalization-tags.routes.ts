import { workspaceCrudRoutes } from '../../http/workspace-crud-routes.ts';
import {
  CreatePersonalizationTagBody,
  PersonalizationTag,
  PersonalizationTagParams,
  UpdatePersonalizationTagBody,
} from './personalization-tags.schemas.ts';
import {
  createPersonalizationTag,
  deletePersonalizationTag,
  getPersonalizationTag,
  listPersonalizationTags,
  updatePersonalizationTag,
} from './personalization-tags.service.ts';

export const personalizationTagsRoutes = workspaceCrudRoutes<number>({
  path: 'personalization_tags',
  tag: 'Personalization tags',
  name: { singular: 'PersonalizationTag', plural: 'PersonalizationTags', words: 'personalization tag' },
  permissions: {
    create: 'create_personalization_tags',
    update: 'update_personalization_tags',
    delete: 'delete_personalization_tags',
  },
  schemas: {
    item: PersonalizationTag,
    create: CreatePersonalizationTagBody,
    update: UpdatePersonalizationTagBody,
    itemParams: PersonalizationTagParams,
  },
  descriptions: {
    create: 'Content refers to the tag with its token, `{tag:ID}` (the response’s `token`).',
    delete: 'Refused with 422, naming the emails, while emails of the workspace hold the tag’s token.',
  },
  service: {
    list: listPersonalizationTags,
    create: createPersonalizationTag,
    get: getPersonalizationTag,
    update: updatePersonalizationTag,
    delete: deletePersonalizationTag,
  },
});
