import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../../http/access.ts';
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

export const teamsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/api/v1/teams',
    {
      config: { permission: 'signed_in' },
      schema: {
        operationId: 'listTeams',
        tags: ['Teams'],
        summary: 'List the teams of the workspaces you can enter',
        querystring: ListTeamsQuery,
        response: { 200: ListResponse(ref(Team)), ...errorResponses(401, 403, 422) },
      },
    },
    async (request) =>
      listTeams(app.services, principalOf(request), request.query.workspace_id, pageRequest(request.query)),
  );

  app.post(
    '/api/v1/teams',
    {
      config: { permission: 'create_teams' },
      schema: {
        operationId: 'createTeam',
        tags: ['Teams'],
        summary: 'Create a team in a workspace',
        body: CreateTeamBody,
        response: { 200: ref(Team), ...errorResponses(401, 403, 422) },
      },
    },
    async (request) => createTeam(app.services, principalOf(request), request.body),
  );

  app.get(
    '/api/v1/teams/:id',
    {
      config: { permission: 'signed_in' },
      schema: {
        operationId: 'getTeam',
        tags: ['Teams'],
        summary: 'Get a team',
        params: TeamParams,
        response: { 200: ref(Team), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => getTeam(app.services, principalOf(request), request.params.id),
  );

  app.patch(
    '/api/v1/teams/:id',
    {
      config: { permission: 'update_teams' },
      schema: {
        operationId: 'updateTeam',
        tags: ['Teams'],
        summary: 'Rename a team or change its badge colour',
        params: TeamParams,
        body: UpdateTeamBody,
        response: { 200: ref(Team), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => updateTeam(app.services, principalOf(request), request.params.id, request.body),
  );

  app.delete(
    '/api/v1/teams/:id',
    {
      config: { permission: 'delete_teams' },
      schema: {
        operationId: 'deleteTeam',
        tags: ['Teams'],
        summary: 'Delete a team',
        params: TeamParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request, reply) => {
      await deleteTeam(app.services, principalOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

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
