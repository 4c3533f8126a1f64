import { Type } from 'typebox';
import { RequestBody } from '../../http/schemas.ts';
import { Password } from '../me/me.schemas.ts';
import { Email } from '../users/users.schemas.ts';

export const SetupStatus = Type.Object({
  setup_required: Type.Boolean({ description: 'True until the first organization exists' }),
});

export const SetupBody = RequestBody(
  {
    organization_name: Type.String({ minLength: 1, maxLength: 100 }),
    workspace_name: Type.Optional(Type.String({ minLength: 1, maxLength: 100, default: 'Main workspace' })),
    first_name: Type.String({ minLength: 1, maxLength: 100 }),
    last_name: Type.String({ minLength: 1, maxLength: 100 }),
    email: Email,
    password: Password,
  },
  'Creates the organization, its first workspace and its first user (Admin), and signs that user in',
);
