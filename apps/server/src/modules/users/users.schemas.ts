import { Type } from 'typebox';
import { notificationKinds } from '../../db/schema.ts';
import { PaginationQuery } from '../../http/pagination.ts';
import { Id, IdParams, PersonName, RequestBody, SearchText, Timestamp } from '../../http/schemas.ts';

export const Email = Type.String({ format: 'email', maxLength: 254, examples: ['ada@example.com'] });

export const UserReference = Type.Object(
  {
    id: Type.Integer(),
    first_name: Type.String(),
    last_name: Type.String(),
    profile_image_url: Type.Union([Type.String(), Type.Null()]),
  },
  { $id: 'UserReference', description: 'A user as other records name them (authors, creators, members)' },
);

export const User = Type.Object(
  {
    id: Type.Integer(),
    first_name: Type.String(),
    last_name: Type.String(),
    email: Type.String(),
    profile_image_url: Type.Union([Type.String(), Type.Null()]),
    wants_marketing_emails: Type.Boolean(),
    two_factor_enabled: Type.Boolean(),
    disabled_email_notifications: Type.Array(Type.Enum([...notificationKinds])),
    role_id: Type.Integer(),
    role_name: Type.String({
      description: 'The name of the role, so lists can show it without a second request',
    }),
    workspace_ids: Type.Array(Type.Integer(), { description: 'Workspaces the user is a member of' }),
    team_ids: Type.Array(Type.Integer(), { description: 'Teams the user is a member of' }),
    invitation_sent_at: Type.Union([Timestamp, Type.Null()]),
    invitation_accepted_at: Type.Union([Timestamp, Type.Null()], {
      description: 'Null until the invited user has set a password',
    }),
    invitation_expires_at: Type.Union([Timestamp, Type.Null()], {
      description: 'When the invitation link stops working; null once accepted or for users never invited',
    }),
    invitation_state: Type.Union(
      [Type.Literal('active'), Type.Literal('invited'), Type.Literal('invitation_expired')],
      {
        description:
          'active: can sign in (set a password or never needed an invitation); invited: the invitation is pending; invitation_expired: the link ran out before it was accepted',
      },
    ),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'User' },
);

export const ListUsersQuery = Type.Object({
  ...PaginationQuery.properties,
  search: Type.Optional(SearchText({ description: 'Matches first name, last name or email' })),
});

export const CreateUserBody = RequestBody(
  {
    first_name: PersonName(),
    last_name: PersonName(),
    email: Email,
    role_id: Id(),
    workspace_ids: Type.Optional(Type.Array(Id(), { uniqueItems: true, maxItems: 100 })),
    team_ids: Type.Optional(
      Type.Array(Id(), {
        uniqueItems: true,
        maxItems: 100,
        description: 'Teams must belong to the selected workspaces',
      }),
    ),
  },
  'Invites a person: they receive an email with a link to set their password',
);

export const UpdateUserBody = RequestBody({ role_id: Id() }, 'Only the role can be changed');

export const UserParams = IdParams;
