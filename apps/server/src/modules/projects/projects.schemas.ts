import { Type } from 'typebox';
import { PaginationQuery } from '../../http/pagination.ts';
import { RequestBody, ref, Timestamp } from '../../http/schemas.ts';
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

const Name = Type.String({ minLength: 1, maxLength: 200 });
const Description = Type.Union([Type.String({ maxLength: 2000 }), Type.Null()]);

export const CreateProjectBody = RequestBody({
  name: Name,
  description: Type.Optional(Description),
  team_id: Type.Integer({ minimum: 1, description: 'The owning team, in this workspace' }),
});

export const UpdateProjectBody = RequestBody({
  name: Type.Optional(Name),
  description: Type.Optional(Description),
  team_id: Type.Optional(Type.Integer({ minimum: 1, description: 'Hand the project to another team' })),
});

export const ListProjectsQuery = Type.Object({
  ...PaginationQuery.properties,
  team_id: Type.Optional(Type.Integer({ minimum: 1, description: 'Only this team’s projects' })),
  search: Type.Optional(Type.String({ maxLength: 200, description: 'Part of the name, any case' })),
});

export const DeleteProjectQuery = Type.Object({
  delete_emails: Type.Optional(
    Type.Boolean({
      default: false,
      description: 'Confirms that the project’s emails are deleted with it (422 otherwise when it has any)',
    }),
  ),
});

export const ProjectsParams = Type.Object({ workspace_id: Type.Integer({ minimum: 1 }) });
export const ProjectParams = Type.Object({
  workspace_id: Type.Integer({ minimum: 1 }),
  id: Type.Integer({ minimum: 1 }),
});
