import { Type } from 'typebox';
import { PaginationQuery } from '../../http/pagination.ts';
import { Description, Id, Name, RequestBody, ref, SearchText, Timestamp } from '../../http/schemas.ts';
import { Team } from '../teams/teams.schemas.ts';

export const Project = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    description: Type.Union([Type.String(), Type.Null()]),
    organization_id: Type.Integer(),
    team_id: Type.Integer(),
    team: ref(Team),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Project' },
);

const NullableDescription = Type.Union([Description(), Type.Null()]);

export const CreateProjectBody = RequestBody({
  name: Name(),
  description: Type.Optional(NullableDescription),
  team_id: Id({ description: 'The owning team, in this workspace' }),
});

export const UpdateProjectBody = RequestBody({
  name: Type.Optional(Name()),
  description: Type.Optional(NullableDescription),
  team_id: Type.Optional(Id({ description: 'Hand the project to another team' })),
});

export const ListProjectsQuery = Type.Object({
  ...PaginationQuery.properties,
  team_id: Type.Optional(Id({ description: 'Only this team’s projects' })),
  search: Type.Optional(SearchText({ description: 'Part of the name, any case' })),
});

export const DeleteProjectQuery = Type.Object({
  delete_emails: Type.Optional(
    Type.Boolean({
      default: false,
      description: 'Confirms that the project’s emails are deleted with it (422 otherwise when it has any)',
    }),
  ),
});

export const ProjectParams = Type.Object({ workspace_id: Id(), id: Id() });
