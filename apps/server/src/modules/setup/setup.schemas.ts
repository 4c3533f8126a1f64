import { Type } from 'typebox';
import { Name, PersonName, RequestBody } from '../../http/schemas.ts';
import { Password } from '../me/me.schemas.ts';
import { Email } from '../users/users.schemas.ts';

export const SetupStatus = Type.Object({
  setup_required: Type.Boolean({ description: 'True until the first organization exists' }),
});

export const SetupBody = RequestBody(
  {
    organization_name: Name(),
    workspace_name: Type.Optional(Name({ default: 'Main workspace' })),
    first_name: PersonName(),
    last_name: PersonName(),
    email: Email,
    password: Password,
  },
  'Creates the organization, its first workspace and its first user (Admin), and signs that user in',
);
