import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiKeyHeadersFor,
  createStarterProject,
  createTestOrganization,
  createTestUser,
  type StarterProject,
  signInAs,
  signInMemberWith,
  type TestOrganization,
} from '../test/factories.ts';
import { buildTestApp, type TestApp } from '../test/harness.ts';

type Headers = Record<string, string>;

/**
 * The reads every screen makes cost a fixed number of queries: none grows with the rows it
 * answers (no N+1), and GET /me, once read, is answered from memory until access changes.
 */
describe('queries per request on the hot read routes', () => {
  let app: TestApp;
  let organization: TestOrganization;
  let admin: Headers;
  let base: string;
  let starterProject: StarterProject;

  /** The statements one request sends to the database. */
  const queriesOf = async (url: string, headers: Headers) => {
    const queries: string[] = [];
    const stopObserving = app.services.database.observeQueries((query) => queries.push(query));
    try {
      const response = await app.inject({ method: 'GET', url, headers });
      expect(response.statusCode, response.body).toBe(200);
    } finally {
      stopObserving();
    }
    return queries;
  };
  /** Counted after a first request, so that who the caller is comes from memory for both counts compared. */
  const settledQueriesOf = async (url: string, headers: Headers) => {
    await queriesOf(url, headers);
    return queriesOf(url, headers);
  };

  const call = async (method: 'POST' | 'PATCH', url: string, payload: object, headers: Headers = admin) => {
    const response = await app.inject({ method, url, headers, payload });
    if (response.statusCode >= 300)
      throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
    return response.json();
  };
  const createEmail = async (instances: number) => {
    const email = await call('POST', `${base}/emails`, {
      name: `Email of ${instances}`,
      email_design_system_id: starterProject.starter.id,
      project_id: starterProject.projectId,
      locales: ['en-US', 'de-DE', 'fr-FR'],
    });
    const hero = () => ({
      id: randomUUID(),
      component_id: starterProject.starter.components.hero,
      field_values: { null_branch: { 'en-US': { headline: { value: 'Spring' } } } },
    });
    await call('PATCH', `${base}/emails/${email.id}`, {
      email_content: { ...email.email_content, component_instances: Array.from({ length: instances }, hero) },
    });
    return email.id as number;
  };

  beforeAll(async () => {
    app = await buildTestApp();
    organization = await createTestOrganization(app);
    admin = await signInAs(app, organization.admin);
    base = `/api/v1/workspaces/${organization.workspaceId}`;
    starterProject = await createStarterProject(app, organization, admin, {
      team: 'Query counters',
      project: 'Counted',
    });
  });
  afterAll(() => app?.close());

  it('GET /me: a few queries whatever the workspaces and teams, then none until access changes', async () => {
    const fewWorkspaces = await createTestUser(app, organization);
    const otherWorkspaces = [];
    for (const name of ['North', 'South', 'East']) {
      otherWorkspaces.push(
        (await call('POST', '/api/v1/workspaces', { name, auto_join: false })).id as number,
      );
    }
    const manyWorkspaces = await createTestUser(app, organization, {
      workspaceIds: [organization.workspaceId, ...otherWorkspaces],
    });
    await call('POST', `/api/v1/teams/${starterProject.teamId}/users`, { user_id: manyWorkspaces.id });
    const fewHeaders = await apiKeyHeadersFor(app, organization, fewWorkspaces);
    const manyHeaders = await apiKeyHeadersFor(app, organization, manyWorkspaces);

    // A new key: who it stands for, its last use (written at most once a minute), the person with
    // their memberships, and the organization's name, roles and workspaces.
    expect((await queriesOf('/api/v1/me', fewHeaders)).length).toBeLessThanOrEqual(6);
    // The organization's part is remembered: another person costs their key and themselves alone,
    // however many workspaces and teams they are in.
    expect((await queriesOf('/api/v1/me', manyHeaders)).length).toBeLessThanOrEqual(3);
    // And their answer is remembered until access changes.
    expect(await queriesOf('/api/v1/me', manyHeaders)).toEqual([]);

    // Leaving a team is an access change: the next answer is read again, and shows it.
    const left = await app.inject({
      method: 'DELETE',
      url: `/api/v1/teams/${starterProject.teamId}/users/${manyWorkspaces.id}`,
      headers: admin,
    });
    expect(left.statusCode, left.body).toBe(204);
    const me = await app.inject({ method: 'GET', url: '/api/v1/me', headers: manyHeaders });
    expect(me.json().user.team_ids).not.toContain(starterProject.teamId);
    expect(me.json().workspaces).toHaveLength(4);
  });

  it('GET /emails/{id}: the same queries for 1 component in 1 locale as for 12 in 3', async () => {
    const small = await createEmail(1);
    const large = await createEmail(12);
    const smallQueries = await settledQueriesOf(`${base}/emails/${small}`, admin);
    // Today one: the email, with what its reader may see of it.
    expect(smallQueries.length).toBeGreaterThan(0);
    expect(smallQueries.length).toBeLessThanOrEqual(2);
    expect((await settledQueriesOf(`${base}/emails/${large}`, admin)).length).toBe(smallQueries.length);
  });

  it('PATCH /emails/{id} (an autosave): the email read, then one statement writing it, its version and the announcement', async () => {
    const emailId = await createEmail(12);
    const url = `${base}/emails/${emailId}`;
    const email = (await app.inject({ method: 'GET', url, headers: admin })).json();
    const saveQueries = async (headline: string) => {
      const queries: string[] = [];
      const stopObserving = app.services.database.observeQueries((query) => queries.push(query));
      try {
        const instances = email.email_content.component_instances.map(
          (instance: { field_values: object }, index: number) => ({
            ...instance,
            field_values: { null_branch: { 'en-US': { headline: { value: `${headline} ${index}` } } } },
          }),
        );
        const response = await app.inject({
          method: 'PATCH',
          url,
          headers: admin,
          payload: { email_content: { ...email.email_content, component_instances: instances } },
        });
        expect(response.statusCode, response.body).toBe(200);
      } finally {
        stopObserving();
      }
      return queries;
    };
    await saveQueries('Warm');
    // The design system's components come from memory (PostgreSQL first checks they are current,
    // which another process may have changed); the audit entry was the session's first save's.
    const expected = app.services.database.driver === 'pglite' ? 2 : 3;
    expect(await saveQueries('Later')).toHaveLength(expected);
    expect(await saveQueries('Later still')).toHaveLength(expected);
  });

  it('GET /emails: the same queries for a page of 1 email as for a page of 8, for an Admin and a team member', async () => {
    const member = await signInMemberWith(app, organization, {
      adminHeaders: admin,
      teamId: starterProject.teamId,
      permissions: ['update_emails'],
    });
    const otherProject = await call('POST', `${base}/projects`, {
      name: 'Counted too',
      team_id: starterProject.teamId,
    });
    const listOf = (headers: Headers) =>
      settledQueriesOf(`${base}/emails?project_id=${otherProject.id}&per=50`, headers);
    const emailIn = (name: string) =>
      call('POST', `${base}/emails`, {
        name,
        email_design_system_id: starterProject.starter.id,
        project_id: otherProject.id,
      });

    await emailIn('Only one');
    const adminQueries = (await listOf(admin)).length;
    const memberQueries = (await listOf(member)).length;
    // Today two each: the page and the total.
    expect(Math.max(adminQueries, memberQueries)).toBeLessThanOrEqual(3);
    for (let number = 2; number <= 8; number++) await emailIn(`Email ${number}`);
    expect((await listOf(admin)).length).toBe(adminQueries);
    expect((await listOf(member)).length).toBe(memberQueries);
  });
});
