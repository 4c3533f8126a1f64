import type { components } from '@letterset/api-client';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../app/api.ts';
import { allResults } from '../../shared/all-results.ts';
import { unwrap } from '../../shared/api-error.ts';
import type { RequestBody } from '../../shared/request-body.ts';

export type User = components['schemas']['User'];
export type Role = components['schemas']['Role'];
export type Workspace = components['schemas']['Workspace'];
export type Team = components['schemas']['Team'];
export type TeamColor = Team['badge_color'];
export type ApiKey = components['schemas']['ApiKey'];
export type AuditLogEntry = components['schemas']['AuditLogEntry'];

export interface ListParams {
  page: number;
  per: number;
  search?: string;
}

function searchParam(search: string | undefined) {
  return search ? { search } : {};
}

export const usersQuery = ({ page, per, search }: ListParams) =>
  queryOptions({
    queryKey: ['users', { page, per, search }],
    queryFn: () =>
      unwrap(api.GET('/api/v1/users', { params: { query: { page, per, ...searchParam(search) } } })),
    placeholderData: keepPreviousData,
  });

/** Organizations have a handful of roles; one page of 100 holds them all. */
export const allRolesQuery = queryOptions({
  queryKey: ['roles', 'all'],
  queryFn: async () => (await unwrap(api.GET('/api/v1/roles', { params: { query: { per: 100 } } }))).results,
});

export const workspacesQuery = ({ page, per }: ListParams) =>
  queryOptions({
    queryKey: ['workspaces', 'list', { page, per }],
    queryFn: () => unwrap(api.GET('/api/v1/workspaces', { params: { query: { page, per } } })),
    placeholderData: keepPreviousData,
  });

/** Every workspace of the organization, for pickers. */
export const allWorkspacesQuery = queryOptions({
  queryKey: ['workspaces', 'all'],
  queryFn: () => allResults((page) => unwrap(api.GET('/api/v1/workspaces', { params: { query: page } }))),
});

export const workspaceMembersQuery = (workspaceId: number, { page, per }: ListParams) =>
  queryOptions({
    queryKey: ['workspaces', workspaceId, 'members', { page, per }],
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/workspaces/{workspace_id}/users', {
          params: { path: { workspace_id: workspaceId }, query: { page, per } },
        }),
      ),
    placeholderData: keepPreviousData,
  });

/** Every member of a workspace, all pages: the people who can be picked as reviewers or mentioned. */
export const allWorkspaceMembersQuery = (workspaceId: number) =>
  queryOptions({
    queryKey: ['workspaces', workspaceId, 'members', 'all'],
    queryFn: () =>
      allResults((page) =>
        unwrap(
          api.GET('/api/v1/workspaces/{workspace_id}/users', {
            params: { path: { workspace_id: workspaceId }, query: page },
          }),
        ),
      ),
    staleTime: 60_000,
  });

export const teamsQuery = (workspaceId: number | null, { page, per }: ListParams) =>
  queryOptions({
    queryKey: ['teams', 'list', { workspaceId, page, per }],
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/teams', {
          params: { query: { page, per, ...(workspaceId ? { workspace_id: workspaceId } : {}) } },
        }),
      ),
    placeholderData: keepPreviousData,
  });

/** Every team of the organization, for pickers. */
export const allTeamsQuery = queryOptions({
  queryKey: ['teams', 'all'],
  queryFn: () => allResults((page) => unwrap(api.GET('/api/v1/teams', { params: { query: page } }))),
});

export const teamMembersQuery = (teamId: number, { page, per }: ListParams) =>
  queryOptions({
    queryKey: ['teams', teamId, 'members', { page, per }],
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/teams/{team_id}/users', {
          params: { path: { team_id: teamId }, query: { page, per } },
        }),
      ),
    placeholderData: keepPreviousData,
  });

export const apiKeysQuery = ({ page, per }: ListParams) =>
  queryOptions({
    queryKey: ['api-keys', { page, per }],
    queryFn: () => unwrap(api.GET('/api/v1/api_keys', { params: { query: { page, per } } })),
    placeholderData: keepPreviousData,
  });

export interface AuditLogFilters {
  userId: number | null;
  resourceType: string;
  /** ISO timestamps. */
  from: string | null;
  to: string | null;
}

export const auditLogsQuery = (filters: AuditLogFilters, { page, per }: ListParams) =>
  queryOptions({
    queryKey: ['audit-logs', filters, { page, per }],
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/audit_logs', {
          params: {
            query: {
              page,
              per,
              ...(filters.userId ? { user_id: filters.userId } : {}),
              ...(filters.resourceType ? { resource_type: filters.resourceType } : {}),
              ...(filters.from ? { from: filters.from } : {}),
              ...(filters.to ? { to: filters.to } : {}),
            },
          },
        }),
      ),
    placeholderData: keepPreviousData,
  });

export function fullName(user: { first_name: string; last_name: string }): string {
  return `${user.first_name} ${user.last_name}`;
}

/** A date and time in the reader's locale. */
export function formatDateTime(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

// Writes. Each caller invalidates what it changed: ['users'], ['roles'], ['workspaces'], ['teams'], ['api-keys'].

export type RoleBody = RequestBody<'/api/v1/roles', 'post'>;
export type NewUserBody = RequestBody<'/api/v1/users', 'post'>;
export type WorkspaceBody = RequestBody<'/api/v1/workspaces', 'post'>;
export type NewTeamBody = RequestBody<'/api/v1/teams', 'post'>;
export type TeamChange = RequestBody<'/api/v1/teams/{id}', 'patch'>;

/** Creates a role, or changes it when `id` is given. */
export const saveRole = (id: number | null, body: RoleBody) =>
  unwrap(
    id
      ? api.PATCH('/api/v1/roles/{id}', { params: { path: { id } }, body })
      : api.POST('/api/v1/roles', { body }),
  );

export const deleteRole = (id: number) =>
  unwrap(api.DELETE('/api/v1/roles/{id}', { params: { path: { id } } }));

export const inviteUser = (body: NewUserBody) => unwrap(api.POST('/api/v1/users', { body }));

export const changeUserRole = (id: number, roleId: number) =>
  unwrap(api.PATCH('/api/v1/users/{id}', { params: { path: { id } }, body: { role_id: roleId } }));

export const resendInvitation = (id: number) =>
  unwrap(api.POST('/api/v1/users/{id}/invitation', { params: { path: { id } } }));

export const removeUser = (id: number) =>
  unwrap(api.DELETE('/api/v1/users/{id}', { params: { path: { id } } }));

/** Creates a workspace, or changes it when `id` is given. */
export const saveWorkspace = (id: number | null, body: WorkspaceBody) =>
  unwrap(
    id
      ? api.PATCH('/api/v1/workspaces/{id}', { params: { path: { id } }, body })
      : api.POST('/api/v1/workspaces', { body }),
  );

export const deleteWorkspace = (id: number) =>
  unwrap(api.DELETE('/api/v1/workspaces/{id}', { params: { path: { id } } }));

export const addWorkspaceMember = (workspaceId: number, userId: number) =>
  unwrap(
    api.POST('/api/v1/workspaces/{workspace_id}/users', {
      params: { path: { workspace_id: workspaceId } },
      body: { user_id: userId },
    }),
  );

export const removeWorkspaceMember = (workspaceId: number, userId: number) =>
  unwrap(
    api.DELETE('/api/v1/workspaces/{workspace_id}/users/{user_id}', {
      params: { path: { workspace_id: workspaceId, user_id: userId } },
    }),
  );

export const createTeam = (body: NewTeamBody) => unwrap(api.POST('/api/v1/teams', { body }));

export const updateTeam = (id: number, body: TeamChange) =>
  unwrap(api.PATCH('/api/v1/teams/{id}', { params: { path: { id } }, body }));

export const deleteTeam = (id: number) =>
  unwrap(api.DELETE('/api/v1/teams/{id}', { params: { path: { id } } }));

export const addTeamMember = (teamId: number, userId: number) =>
  unwrap(
    api.POST('/api/v1/teams/{team_id}/users', {
      params: { path: { team_id: teamId } },
      body: { user_id: userId },
    }),
  );

export const removeTeamMember = (teamId: number, userId: number) =>
  unwrap(
    api.DELETE('/api/v1/teams/{team_id}/users/{user_id}', {
      params: { path: { team_id: teamId, user_id: userId } },
    }),
  );

export const createApiKey = (name: string) => unwrap(api.POST('/api/v1/api_keys', { body: { name } }));

export const revokeApiKey = (id: number) =>
  unwrap(api.DELETE('/api/v1/api_keys/{id}', { params: { path: { id } } }));
