import { Type } from 'typebox';
import { badgeColors } from '../../db/schema.ts';
import { PaginationQuery } from '../../http/pagination.ts';
import { Id, IdParams, Name, RequestBody, Timestamp } from '../../http/schemas.ts';
import { User } from '../users/users.schemas.ts';

export const BadgeColor = Type.Enum([...badgeColors], { description: 'The colour of the team badge' });

export const Team = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    badge_color: BadgeColor,
    workspace_id: Type.Integer(),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Team' },
);

export const TeamMember = Type.Object(
  {
    ...User.properties,
    organization_membership: Type.Object({
      role_id: Type.Integer(),
      invitation_sent_at: Type.Union([Timestamp, Type.Null()]),
      invitation_accepted_at: Type.Union([Timestamp, Type.Null()]),
    }),
  },
  { $id: 'TeamMember' },
);

const TeamName = Name();

export const ListTeamsQuery = Type.Object({
  ...PaginationQuery.properties,
  workspace_id: Type.Optional(Id({ description: 'Only the teams of this workspace' })),
});
export const CreateTeamBody = RequestBody({
  name: TeamName,
  workspace_id: Id(),
  badge_color: BadgeColor,
});
export const UpdateTeamBody = RequestBody({
  name: Type.Optional(TeamName),
  badge_color: Type.Optional(BadgeColor),
});
export const TeamParams = IdParams;
export const TeamMemberParams = Type.Object({ team_id: Id() });
export const TeamMemberItemParams = Type.Object({ team_id: Id(), user_id: Id() });
