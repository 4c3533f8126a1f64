import { Type } from 'typebox';
import { notificationKinds } from '../../db/schema.ts';
import { limits, PersonName, RequestBody, ref, Token } from '../../http/schemas.ts';
import { minimumPasswordLength } from '../../security/passwords.ts';
import { PermissionKeySchema, Role } from '../roles/roles.schemas.ts';
import { User } from '../users/users.schemas.ts';
import { Workspace } from '../workspaces/workspaces.schemas.ts';

export const Password = Type.String({ minLength: minimumPasswordLength, maxLength: limits.password });

export const Me = Type.Object(
  {
    user: ref(User),
    organization: Type.Object({ id: Type.Integer(), name: Type.String() }),
    role: ref(Role),
    permissions: Type.Array(PermissionKeySchema, { description: 'What your role grants' }),
    workspaces: Type.Array(ref(Workspace), { description: 'The workspaces you can enter' }),
  },
  { $id: 'Me', description: 'The signed-in user, their organization, role, permissions and workspaces' },
);

export const UpdateMeBody = RequestBody(
  {
    first_name: Type.Optional(PersonName()),
    last_name: Type.Optional(PersonName()),
    wants_marketing_emails: Type.Optional(Type.Boolean()),
    disabled_email_notifications: Type.Optional(
      Type.Array(Type.Enum([...notificationKinds]), { uniqueItems: true }),
    ),
    current_password: Type.Optional(
      Type.String({ maxLength: limits.password, description: 'Required with new_password' }),
    ),
    new_password: Type.Optional(Password),
  },
  'Edits your own profile; to change your password send current_password and new_password',
);

export const TwoFactorEnrolment = Type.Object({
  secret: Type.String({ description: 'Base32 secret for authenticator apps that take it typed in' }),
  otpauth_uri: Type.String({ description: 'otpauth:// URI to show as a QR code' }),
});

export const TwoFactorCodeBody = RequestBody({
  code: Token({ minLength: 6, maxLength: 8, description: 'The current 6-digit code' }),
});
