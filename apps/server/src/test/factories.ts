import { randomBytes } from 'node:crypto';
import type { BuiltInRoleName } from '@letterset/core';
import type { App } from '../app.ts';
import {
  apiKeys,
  emailDesignSystems,
  emails,
  projects,
  teams,
  users,
  workspaceMemberships,
} from '../db/schema.ts';
import { sessionCookieName } from '../http/openapi.ts';
import { createOrganization } from '../modules/organizations/organizations.service.ts';
import { hashPassword } from '../security/passwords.ts';
import { randomToken, tokenDigest } from '../security/tokens.ts';
import type { Services } from '../services.ts';

/** Test data for one organization. Every test makes its own, so tests sharing a database never collide. */
export interface TestOrganization {
  organizationId: number;
  workspaceId: number;
  roleIds: Record<BuiltInRoleName, number>;
  admin: TestUser;
}

export interface TestUser {
  id: number;
  email: string;
  password: string;
}

const unique = () => randomBytes(4).toString('hex');
export const testPassword = 'correct horse battery staple';
/** argon2id costs ~50 ms a hash: test users share one. */
let testPasswordHash: Promise<string> | undefined;
function sharedTestPasswordHash(): Promise<string> {
  testPasswordHash ??= hashPassword(testPassword);
  return testPasswordHash;
}

/** What creating organizations and users needs: the real app, or a process test's own database and storage. */
export interface TestRecordServices {
  services: Pick<Services, 'database' | 'storage'>;
}

export async function createTestOrganization(
  app: TestRecordServices,
  name = `Org ${unique()}`,
): Promise<TestOrganization> {
  const email = `admin-${unique()}@example.com`;
  const created = await createOrganization(app.services.database.db, app.services.storage, {
    name,
    workspaceName: 'Main workspace',
    admin: { firstName: 'Ada', lastName: 'Admin', email, password: testPassword },
  });
  return {
    organizationId: created.organizationId,
    workspaceId: created.workspaceId,
    roleIds: created.roleIds,
    admin: { id: created.adminUserId, email, password: testPassword },
  };
}

/** A user who has accepted their invitation, with a password, member of the given workspaces. */
export async function createTestUser(
  app: TestRecordServices,
  organization: TestOrganization,
  options: { role?: BuiltInRoleName; roleId?: number; workspaceIds?: number[]; firstName?: string } = {},
): Promise<TestUser> {
  const email = `user-${unique()}@example.com`;
  const [user] = await app.services.database.db
    .insert(users)
    .values({
      organizationId: organization.organizationId,
      roleId: options.roleId ?? organization.roleIds[options.role ?? 'Editor'],
      firstName: options.firstName ?? 'Grace',
      lastName: 'Tester',
      email,
      passwordHash: await sharedTestPasswordHash(),
      invitationAcceptedAt: new Date(),
    })
    .returning();
  if (!user) throw new Error('user insert returned nothing');
  const workspaceIds = options.workspaceIds ?? [organization.workspaceId];
  if (workspaceIds.length > 0) {
    await app.services.database.db
      .insert(workspaceMemberships)
      .values(workspaceIds.map((workspaceId) => ({ workspaceId, userId: user.id })));
  }
  return { id: user.id, email, password: testPassword };
}

/** Headers of a browser signed in as the user: the session cookie and its own Origin. */
export async function signInAs(app: App, user: TestUser): Promise<Record<string, string>> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/v1/session',
    payload: { email: user.email, password: user.password },
  });
  if (response.statusCode !== 200) throw new Error(`sign-in failed: ${response.statusCode} ${response.body}`);
  const cookie = response.cookies.find((candidate) => candidate.name === sessionCookieName);
  if (!cookie) throw new Error('sign-in set no session cookie');
  return { cookie: `${sessionCookieName}=${cookie.value}`, origin: 'http://localhost:80' };
}

/**
 * Headers of a signed-in user whose role holds exactly `permissions`, made a member of the team
 * (so of its projects) by the organization's Admin.
 */
export async function signInMemberWith(
  app: App,
  organization: TestOrganization,
  {
    adminHeaders,
    teamId,
    permissions,
  }: { adminHeaders: Record<string, string>; teamId: number; permissions: string[] },
): Promise<Record<string, string>> {
  const role = await app.inject({
    method: 'POST',
    url: '/api/v1/roles',
    headers: adminHeaders,
    payload: { name: `Role ${unique()}`, role_permissions: permissions },
  });
  if (role.statusCode !== 200) throw new Error(`role creation failed: ${role.statusCode} ${role.body}`);
  const user = await createTestUser(app, organization, { roleId: role.json().id });
  const membership = await app.inject({
    method: 'POST',
    url: `/api/v1/teams/${teamId}/users`,
    headers: adminHeaders,
    payload: { user_id: user.id },
  });
  if (membership.statusCode >= 300) throw new Error(`team membership failed: ${membership.statusCode}`);
  return signInAs(app, user);
}

/** Headers of an API client using a fresh key of the user's. */
export async function apiKeyHeadersFor(
  app: App,
  organization: TestOrganization,
  user: TestUser,
): Promise<Record<string, string>> {
  const key = `ls_${randomToken()}`;
  await app.services.database.db.insert(apiKeys).values({
    organizationId: organization.organizationId,
    userId: user.id,
    name: 'test key',
    prefix: key.slice(0, 9),
    tokenHash: tokenDigest(key),
  });
  return { authorization: `Bearer ${key}` };
}

/**
 * An email of the organization's workspace with the given content, inserted directly (for
 * checks that read emails: what uses a conditional, a tag or a link tracking profile).
 */
export async function createTestEmail(
  app: App,
  organization: TestOrganization,
  options: { name: string; content: Record<string, unknown>; linkTrackingProfileId?: number },
): Promise<number> {
  const db = app.services.database.db;
  const [system] = await db.select({ id: emailDesignSystems.id }).from(emailDesignSystems).limit(1);
  if (!system) throw new Error('no design system to write the email with');
  const [team] = await db
    .insert(teams)
    .values({
      organizationId: organization.organizationId,
      workspaceId: organization.workspaceId,
      name: `Team ${unique()}`,
      badgeColor: 'blue',
    })
    .returning();
  if (!team) throw new Error('team insert returned nothing');
  const [project] = await db
    .insert(projects)
    .values({
      organizationId: organization.organizationId,
      workspaceId: organization.workspaceId,
      teamId: team.id,
      name: `Project ${unique()}`,
    })
    .returning();
  if (!project) throw new Error('project insert returned nothing');
  const [email] = await db
    .insert(emails)
    .values({
      organizationId: organization.organizationId,
      workspaceId: organization.workspaceId,
      projectId: project.id,
      emailDesignSystemId: system.id,
      linkTrackingProfileId: options.linkTrackingProfileId ?? null,
      name: options.name,
      defaultLocale: 'en-US',
      locales: ['en-US'],
      content: options.content,
    })
    .returning();
  if (!email) throw new Error('email insert returned nothing');
  return email.id;
}

/** Where tests that write emails through the API start: the Letterset Starter and a project. */
export interface StarterProject {
  /** The Letterset Starter's id and its components' ids by name. */
  starter: { id: number; components: Record<string, number> };
  /** A new team with the Admin in it, owning the project. */
  teamId: number;
  projectId: number;
}

export async function createStarterProject(
  app: App,
  organization: TestOrganization,
  admin: Record<string, string>,
  names: { team: string; project: string },
): Promise<StarterProject> {
  const call = async (method: 'GET' | 'POST', url: string, payload?: object) => {
    const response = await app.inject({ method, url, headers: admin, ...(payload ? { payload } : {}) });
    if (response.statusCode >= 300)
      throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
    return response.json();
  };
  const base = `/api/v1/workspaces/${organization.workspaceId}`;
  const systems: { results: { id: number; name: string }[] } = await call(
    'GET',
    `${base}/email_design_systems`,
  );
  const starterId = systems.results.find((system) => system.name === 'Letterset Starter')?.id;
  if (starterId === undefined) throw new Error('the organization has no Letterset Starter');
  const components: { results: { id: number; name: string }[] } = await call(
    'GET',
    `${base}/email_design_systems/${starterId}/components?per=100`,
  );
  const team = await call('POST', '/api/v1/teams', {
    name: names.team,
    workspace_id: organization.workspaceId,
    badge_color: 'blue',
  });
  await call('POST', `/api/v1/teams/${team.id}/users`, { user_id: organization.admin.id });
  const project = await call('POST', `${base}/projects`, { name: names.project, team_id: team.id });
  return {
    starter: {
      id: starterId,
      components: Object.fromEntries(components.results.map((component) => [component.name, component.id])),
    },
    teamId: team.id,
    projectId: project.id,
  };
}
