import { workspaceCrudRoutes } from '../../http/workspace-crud-routes.ts';
import {
  Conditional,
  ConditionalParams,
  CreateConditionalBody,
  UpdateConditionalBody,
} from './conditionals.schemas.ts';
import {
  createConditional,
  deleteConditional,
  getConditional,
  listConditionals,
  updateConditional,
} from './conditionals.service.ts';

export const conditionalsRoutes = workspaceCrudRoutes<number>({
  path: 'conditionals',
  tag: 'Conditionals',
  name: { singular: 'Conditional', plural: 'Conditionals', words: 'conditional' },
  permissions: {
    create: 'create_conditionals',
    update: 'update_conditionals',
    delete: 'delete_conditionals',
  },
  schemas: {
    item: Conditional,
    create: CreateConditionalBody,
    update: UpdateConditionalBody,
    itemParams: ConditionalParams,
  },
  descriptions: {
    create:
      'Request default_value and dynamic_content_profile_values; the response names them default_syntax and dynamic_content_profile_syntaxes (picker states compiled by the profile’s preset).',
    update:
      'Removing or renaming a branch key that emails still hold content under, or disallowing the subject and preheader while emails use the conditional there, is refused with 422 naming the emails.',
    delete: 'Refused with 422, naming the emails, while emails use the conditional.',
  },
  service: {
    list: listConditionals,
    create: createConditional,
    get: getConditional,
    update: updateConditional,
    delete: deleteConditional,
  },
});
