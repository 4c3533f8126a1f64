import type { PermissionKey } from '@letterset/core';
import { and, asc, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import {
  type emails,
  projects,
  roles,
  teamMemberships,
  users,
  workspaceMemberships,
} from '../../db/schema.ts';
import { userReferenceColumns } from '../users/users.serializers.ts';

/*
 * Who can see an email, asked about other users than the caller (reviewers, mentioned people,
 * publishers to tell): live users of its organization who are in its workspace and see its
 * project, as `findVisibleEmail` decides for the caller. The building blocks below read `users`
 * and its role (`roles`), so the queries that use them select from users joined to roles.
 */

/** Where an email is: what seeing it depends on. */
export type EmailPlace = Pick<typeof emails.$inferSelect, 'organizationId' | 'workspaceId' | 'projectId'>;

function roleGrants(permission: PermissionKey): SQL<boolean> {
  return sql<boolean>`${roles.permissions} @> ${JSON.stringify([permission])}::jsonb`;
}

/** The user is in the email's workspace: a member of it, or allowed into every workspace. */
export function inEmailWorkspace(email: EmailPlace): SQL<boolean> {
  return sql<boolean>`(${roleGrants('access_all_workspaces')} or exists (
    select 1 from ${workspaceMemberships}
    where ${workspaceMemberships.workspaceId} = ${email.workspaceId} and ${workspaceMemberships.userId} = ${users.id}))`;
}

/** The user sees the email's project: on the team that owns it, or allowed into every project. */
export function seesEmailProject(email: EmailPlace): SQL<boolean> {
  return sql<boolean>`(${roleGrants('access_all_projects')} or exists (
    select 1 from ${teamMemberships} inner join ${projects} on ${projects.teamId} = ${teamMemberships.teamId}
    where ${projects.id} = ${email.projectId} and ${teamMemberships.userId} = ${users.id}))`;
}

function liveUserOf(email: EmailPlace): SQL | undefined {
  return and(eq(users.organizationId, email.organizationId), isNull(users.deletedAt));
}

/** An id PostgreSQL's integer holds: ids read from text (mentions) may be anything. */
const isStoredId = (id: number) => Number.isSafeInteger(id) && id >= 1 && id <= 2_147_483_647;

export type AudienceMember = {
  id: number;
  firstName: string;
  lastName: string;
  profileImageUrl: string | null;
};

/**
 * The users who can see the email, by id; optionally only those among `userIds`, or whose role
 * grants `permission`.
 */
export async function usersWhoCanSee(
  db: Database,
  email: EmailPlace,
  filter: { userIds?: readonly number[]; permission?: PermissionKey } = {},
): Promise<AudienceMember[]> {
  const userIds = filter.userIds?.filter(isStoredId);
  if (userIds && userIds.length === 0) return [];
  return db
    .select(userReferenceColumns)
    .from(users)
    .innerJoin(roles, eq(roles.id, users.roleId))
    .where(
      and(
        liveUserOf(email),
        userIds ? inArray(users.id, [...new Set(userIds)]) : undefined,
        filter.permission ? roleGrants(filter.permission) : undefined,
        inEmailWorkspace(email),
        seesEmailProject(email),
      ),
    )
    .orderBy(asc(users.id));
}

/**
 * The live users of the email's organization that `condition` selects, each with whether they
 * are in its workspace and whether they see its project: for a refusal that says which is
 * missing.
 */
export async function emailVisibilityOf(db: Database, email: EmailPlace, condition: SQL) {
  return db
    .select({ user: users, inWorkspace: inEmailWorkspace(email), seesProject: seesEmailProject(email) })
    .from(users)
    .innerJoin(roles, eq(roles.id, users.roleId))
    .where(and(condition, liveUserOf(email)))
    .orderBy(asc(users.id));
}
