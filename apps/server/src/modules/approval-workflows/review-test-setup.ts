import type { BuiltInRoleName } from '@letterset/core';
import { eq } from 'drizzle-orm';
import { users } from '../../db/schema.ts';
import {
  createTestOrganization,
  createTestUser,
  signInAs,
  type TestOrganization,
  type TestUser,
} from '../../test/factories.ts';
import type { TestApp } from '../../test/harness.ts';

type Headers = Record<string, string>;
type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface Person {
  user: TestUser;
  headers: Headers;
  name: string;
}

/**
 * An organization with one team and project, and a way to make people of it: what the review
 * tests (plain and model-based) start from.
 */
export async function setUpReviewOrganization(app: TestApp) {
  const organization: TestOrganization = await createTestOrganization(app);
  const admin = await signInAs(app, organization.admin);
  const base = `/api/v1/workspaces/${organization.workspaceId}`;
  const call = async (method: Method, url: string, headers: Headers = admin, payload?: object) =>
    app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  const systems = (await call('GET', `${base}/email_design_systems`)).json();
  const starterId: number = systems.results.find(
    (system: { name: string }) => system.name === 'Letterset Starter',
  ).id;
  const teamId: number = (
    await call('POST', '/api/v1/teams', admin, {
      name: 'Newsletter team',
      workspace_id: organization.workspaceId,
      badge_color: 'blue',
    })
  ).json().id;
  await call('POST', `/api/v1/teams/${teamId}/users`, admin, { user_id: organization.admin.id });
  const projectId: number = (
    await call('POST', `${base}/projects`, admin, { name: 'Newsletters', team_id: teamId })
  ).json().id;

  /** A person with a built-in role; a member of the project's team unless `inTeam: false`. */
  const person = async (
    firstName: string,
    lastName: string,
    role: BuiltInRoleName,
    { inTeam = true }: { inTeam?: boolean } = {},
  ): Promise<Person> => {
    const user = await createTestUser(app, organization, { role, firstName });
    await app.services.database.db.update(users).set({ lastName }).where(eq(users.id, user.id));
    if (inTeam) await call('POST', `/api/v1/teams/${teamId}/users`, admin, { user_id: user.id });
    return { user, headers: await signInAs(app, user), name: `${firstName} ${lastName}` };
  };

  const createEmail = async (name = 'Spring sale', headers: Headers = admin): Promise<{ id: number }> => {
    const response = await call('POST', `${base}/emails`, headers, {
      name,
      email_design_system_id: starterId,
      project_id: projectId,
    });
    if (response.statusCode !== 200) throw new Error(`email create failed: ${response.body}`);
    return response.json();
  };

  return { organization, admin, base, call, teamId, projectId, person, createEmail };
}

export type ReviewOrganization = Awaited<ReturnType<typeof setUpReviewOrganization>>;

/** The stages body of a submission. */
export function stagesOf(...stages: { type: 'one_of' | 'all_of'; members: Person[] }[]) {
  return stages.map((stage) => ({
    approval_type: stage.type,
    members: stage.members.map((member) => ({ user_id: member.user.id })),
  }));
}
