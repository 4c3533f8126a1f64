import { and, asc, count, eq, inArray, isNull, type SQL } from 'drizzle-orm';
import type { Static } from 'typebox';
import type { Database } from '../../db/client.ts';
import { roles, teamMemberships, teams, users, workspaceMemberships } from '../../db/schema.ts';
import type { PageRequest } from '../../http/pagination.ts';
import type { User, UserReference } from './users.schemas.ts';

type UserRow = typeof users.$inferSelect;

/** The columns `toUserReference` reads, to select with a query that ends in a user reference. */
export const userReferenceColumns = {
  id: users.id,
  firstName: users.firstName,
  lastName: users.lastName,
  profileImageUrl: users.profileImageUrl,
};

export function toUserReference(
  user: Pick<UserRow, 'id' | 'firstName' | 'lastName' | 'profileImageUrl'>,
): Static<typeof UserReference> {
  return {
    id: user.id,
    first_name: user.firstName,
    last_name: user.lastName,
    profile_image_url: user.profileImageUrl,
  };
}

/**
 * Whether a person can sign in, or is still invited: a user with an accepted invitation, or who
 * was never invited (the first Admin), is active; an invitation past its expiry is expired.
 */
export function invitationState(
  row: Pick<UserRow, 'invitationSentAt' | 'invitationAcceptedAt' | 'invitationExpiresAt'>,
  now: Date,
): Static<typeof User>['invitation_state'] {
  if (row.invitationAcceptedAt || !row.invitationSentAt) return 'active';
  if (row.invitationExpiresAt && row.invitationExpiresAt.getTime() <= now.getTime())
    return 'invitation_expired';
  return 'invited';
}

/** Users as the API shows them, with their memberships and role names, in three queries whatever the count. */
export async function toUserResponses(db: Database, rows: UserRow[]): Promise<Static<typeof User>[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const now = new Date();
  const [workspaceRows, teamRows, roleRows] = await Promise.all([
    db
      .select({ userId: workspaceMemberships.userId, workspaceId: workspaceMemberships.workspaceId })
      .from(workspaceMemberships)
      .where(inArray(workspaceMemberships.userId, ids)),
    db
      .select({ userId: teamMemberships.userId, teamId: teamMemberships.teamId })
      .from(teamMemberships)
      .innerJoin(teams, eq(teams.id, teamMemberships.teamId))
      .where(inArray(teamMemberships.userId, ids)),
    db
      .select({ id: roles.id, name: roles.name })
      .from(roles)
      .where(inArray(roles.id, [...new Set(rows.map((row) => row.roleId))])),
  ]);
  const roleNames = new Map(roleRows.map((role) => [role.id, role.name]));
  const grouped = <T extends { userId: number }>(list: T[], pick: (item: T) => number) => {
    const byUser = new Map<number, number[]>();
    for (const item of list) byUser.set(item.userId, [...(byUser.get(item.userId) ?? []), pick(item)]);
    return byUser;
  };
  const workspaceIds = grouped(workspaceRows, (row) => row.workspaceId);
  const teamIds = grouped(teamRows, (row) => row.teamId);
  return rows.map((row) =>
    toUserResponseOf(row, {
      roleName: roleNames.get(row.roleId) ?? '',
      workspaceIds: workspaceIds.get(row.id) ?? [],
      teamIds: teamIds.get(row.id) ?? [],
      now,
    }),
  );
}

/** A user as the API shows them, from the row and what was read beside it (memberships, role name). */
export function toUserResponseOf(
  row: UserRow,
  beside: { roleName: string; workspaceIds: number[]; teamIds: number[]; now: Date },
): Static<typeof User> {
  return {
    id: row.id,
    first_name: row.firstName,
    last_name: row.lastName,
    email: row.email,
    profile_image_url: row.profileImageUrl,
    wants_marketing_emails: row.wantsMarketingEmails,
    two_factor_enabled: row.twoFactorEnabled,
    disabled_email_notifications: row.disabledEmailNotifications,
    role_id: row.roleId,
    role_name: beside.roleName,
    workspace_ids: [...beside.workspaceIds].sort((a, b) => a - b),
    team_ids: [...beside.teamIds].sort((a, b) => a - b),
    invitation_sent_at: row.invitationSentAt,
    invitation_accepted_at: row.invitationAcceptedAt,
    invitation_expires_at: row.invitationAcceptedAt ? null : row.invitationExpiresAt,
    invitation_state: invitationState(row, beside.now),
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

export async function toUserResponse(db: Database, row: UserRow): Promise<Static<typeof User>> {
  const [response] = await toUserResponses(db, [row]);
  if (!response) throw new Error('toUserResponses dropped a row');
  return response;
}

/** A live (not removed) user of the organization, or undefined. */
export async function findUser(
  db: Database,
  organizationId: number,
  id: number,
): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.id, id), eq(users.organizationId, organizationId), isNull(users.deletedAt)));
  return row;
}

/**
 * A page of the organization's live (not removed) users matching `condition`, by name, with the
 * total: the people list, and workspace and team members (a membership subquery as condition).
 */
export async function pageOfLiveUsers(db: Database, condition: SQL | undefined, page: PageRequest) {
  const where = and(condition, isNull(users.deletedAt));
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(users)
      .where(where)
      .orderBy(asc(users.firstName), asc(users.lastName), asc(users.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ value: count() }).from(users).where(where),
  ]);
  return { rows, total: total?.value ?? 0 };
}
