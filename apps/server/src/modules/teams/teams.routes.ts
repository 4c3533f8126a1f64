import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../../http/access.ts';
import { organizationCrudRoutes } from '../../http/organization-crud-routes.ts';
import { ListResponse, PaginationQuery, pageRequest } from '../../http/pagination.ts';
import { errorResponses, ref } from '../../http/schemas.ts';
import { AddMemberBody } from '../workspaces/workspaces.schemas.ts';
import {
  CreateTeamBody,
  ListTeamsQuery,
  Team,
  TeamMember,
  TeamMemberItemParams,
  TeamMemberParams,
  TeamParams,
  UpdateTeamBody,
} from './teams.schemas.ts';
import {
  addTeamMember,
  createTeam,
  deleteTeam,
  getTeam,
  listTeamMembers,
  listTeams,
  removeTeamMember,
  updateTeam,
} from './teams.service.ts';

const teamCrud = organizationCrudRoutes({
  path: 'teams',
  tag: 'Teams',
  name: { singular: 'Team', plural: 'Teams', words: 'team' },
  permissions: { create: 'create_teams', update: 'update_teams', delete: 'delete_teams' },
  schemas: {
    item: Team,
    create: CreateTeamBody,
    update: UpdateTeamBody,
    itemParams: TeamParams,
    listQuery: ListTeamsQuery,
  },
  summaries: {
    list: 'List the teams of the workspaces you can enter',
    create: 'Create a team in a workspace',
    update: 'Rename a team or change its badge colour',
  },
  service: {
    list: (services, principal, query, page) => listTeams(services, principal, query.workspace_id, page),
    create: createTeam,
    get: getTeam,
    update: updateTeam,
    delete: deleteTeam,
  },
});

export const teamsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(teamCrud);

  app.get(
    '/api/v1/teams/:team_id/users',
    {
      config: { permission: 'signed_in' },
      schema: {
        operationId: 'listTeamUsers',
        tags: ['Teams'],
        summary: 'List the members of a team',
        params: TeamMemberParams,
        querystring: PaginationQuery,
        response: { 200: ListResponse(ref(TeamMember)), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) =>
      listTeamMembers(app.services, principalOf(request), request.params.team_id, pageRequest(request.query)),
  );

  app.post(
    '/api/v1/teams/:team_id/users',
    {
      config: { permission: 'update_teams' },
      schema: {
        operationId: 'addTeamUser',
        tags: ['Teams'],
        summary: 'Add a user to a team',
        description: 'The user must already be a member of the team’s workspace (422 otherwise).',
        params: TeamMemberParams,
        body: AddMemberBody,
        response: { 200: ref(TeamMember), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) =>
      addTeamMember(app.services, principalOf(request), request.params.team_id, request.body.user_id),
  );

  app.delete(
    '/api/v1/teams/:team_id/users/:user_id',
    {
      config: { permission: 'update_teams' },
      schema: {
        operationId: 'removeTeamUser',
        tags: ['Teams'],
        summary: 'Remove a user from a team',
        params: TeamMemberItemParams,
        response: { 204: Type.Null({ description: 'Removed' }), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request, reply) => {
      await removeTeamMember(
        app.services,
        principalOf(request),
        request.params.team_id,
        request.params.user_id,
      );
      return reply.code(204).send(null);
    },
  );
};
