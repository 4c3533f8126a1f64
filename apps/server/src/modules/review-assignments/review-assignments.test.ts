import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emails, projects, teamMemberships, users } from '../../db/schema.ts';
import {
  createTestEmail,
  createTestOrganization,
  createTestUser,
  signInAs,
  type TestOrganization,
  type TestUser,
} from '../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../test/harness.ts';
import { startSmtpPeer } from '../../test/smtp-peer.ts';

describe('review assignments', () => {
  let app: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpPeer>>;
  let organization: TestOrganization;
  let admin: Record<string, string>;
  let emailId: number;
  let teamId: number;
  let base: string;

  const request = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object, headers = admin) =>
    app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  const ask = (payload: object, headers = admin) => request('POST', base, payload, headers);
  const joinTeam = (user: TestUser) =>
    app.services.database.db.insert(teamMemberships).values({ teamId, userId: user.id });
  /** A user who can see the email: a workspace member on the team of its project. */
  const colleague = async (options: Parameters<typeof createTestUser>[2] = {}) => {
    const user = await createTestUser(app, organization, options);
    await joinTeam(user);
    return user;
  };
  const notificationsOf = async (user: TestUser) =>
    (await request('GET', '/api/v1/notifications', undefined, await signInAs(app, user))).json().results;
  const errorOf = async (payload: object) => {
    const response = await ask(payload);
    expect(response.statusCode, response.body).toBe(422);
    return response.json().errors;
  };

  beforeAll(async () => {
    smtp = await startSmtpPeer();
    app = await buildTestApp({ config: { smtpUrl: smtp.url, appUrl: 'https://app.example.com' } });
    organization = await createTestOrganization(app);
    admin = await signInAs(app, organization.admin);
    emailId = await createTestEmail(app, organization, { name: 'Spring sale', content: {} });
    const [row] = await app.services.database.db
      .select({ teamId: projects.teamId })
      .from(emails)
      .innerJoin(projects, eq(projects.id, emails.projectId))
      .where(eq(emails.id, emailId));
    if (!row) throw new Error('the email has no project');
    teamId = row.teamId;
    base = `/api/v1/workspaces/${organization.workspaceId}/emails/${emailId}/review_assignments`;
  });
  afterAll(async () => {
    await app.close();
    await smtp.stop();
  });

  it('asks a person, who is notified in the app and by mail, and lists the request', async () => {
    const rita = await colleague({ firstName: 'Rita' });
    const response = await ask({ assignee_type: 'User', assignee_id: rita.id });
    expect(response.statusCode, response.body).toBe(200);
    const assignment = response.json();
    expect(assignment).toEqual({
      id: expect.any(Number),
      email_id: emailId,
      assignee_id: rita.id,
      assignee_type: 'User',
      assignee: {
        id: rita.id,
        name: 'Rita Tester',
        first_name: 'Rita',
        last_name: 'Tester',
        profile_image_url: null,
      },
      assigned_by_id: organization.admin.id,
      assigned_by: {
        id: organization.admin.id,
        first_name: 'Ada',
        last_name: 'Admin',
        profile_image_url: null,
      },
      ai_review_status: null,
      ai_review_error: null,
      created_at: expect.any(String),
    });

    const [notification] = await notificationsOf(rita);
    expect(notification).toMatchObject({
      kind: 'requested_review',
      message: 'Ada Admin asked you to review “Spring sale”',
      email: { id: emailId, name: 'Spring sale' },
    });
    const mail = smtp.received.find((received) => received.to.includes(rita.email));
    expect(mail?.readable).toContain('Subject: Ada Admin asked you to review “Spring sale”');
    expect(mail?.readable).toContain(
      `https://app.example.com/workspaces/${organization.workspaceId}/emails/${emailId}/edit`,
    );

    const list = (await request('GET', base)).json();
    expect(list.results).toContainEqual(assignment);
  });

  it('asks everyone of a role who can see the email, never the asker', async () => {
    const role = (
      await request('POST', '/api/v1/roles', { name: 'Reviewers', role_permissions: ['email_commenting'] })
    ).json();
    const onTeam = await colleague({ roleId: role.id, firstName: 'Olga' });
    const offTeam = await createTestUser(app, organization, { roleId: role.id });
    const outsideWorkspace = await createTestUser(app, organization, { roleId: role.id, workspaceIds: [] });
    const response = await ask({ assignee_type: 'Role', assignee_id: role.id });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      assignee_type: 'Role',
      assignee: { id: role.id, name: 'Reviewers' },
    });
    expect((await notificationsOf(onTeam)).map((n: { message: string }) => n.message)).toEqual([
      'Ada Admin asked everyone with the Reviewers role to review “Spring sale”',
    ]);
    expect(await notificationsOf(offTeam)).toEqual([]);
    expect(await notificationsOf(outsideWorkspace)).toEqual([]);

    // The Admin role: another Admin (who sees every project) is told; the asking Admin is not.
    const otherAdmin = await createTestUser(app, organization, { role: 'Admin' });
    const unreadBefore = (await request('GET', '/api/v1/notifications/unread_count', undefined, admin)).json()
      .unread_count;
    const admins = await ask({ assignee_type: 'Role', assignee_id: organization.roleIds.Admin });
    expect(admins.statusCode, admins.body).toBe(200);
    expect(await notificationsOf(otherAdmin)).toHaveLength(1);
    expect((await request('GET', '/api/v1/notifications/unread_count')).json().unread_count).toBe(
      unreadBefore,
    );
  });

  it('asks an AI reviewer of the workspace: stored and listed, nobody notified', async () => {
    const reviewer = (
      await request('POST', `/api/v1/workspaces/${organization.workspaceId}/ai_reviewers`, {
        name: 'Brand voice',
        review_instructions: 'Check the brand voice.',
      })
    ).json();
    const response = await ask({ assignee_type: 'AiReviewer', assignee_id: reviewer.id });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      assignee_type: 'AiReviewer',
      assignee: { id: reviewer.id, name: 'Brand voice' },
    });
    expect(response.json().assignee).toEqual({ id: reviewer.id, name: 'Brand voice' });
  });

  it('refuses assignees outside the organization or workspace, and users who cannot see the email', async () => {
    const other = await createTestOrganization(app);
    const removed = await colleague();
    await app.services.database.db
      .update(users)
      .set({ deletedAt: new Date() })
      .where(eq(users.id, removed.id));
    const outsideWorkspace = await createTestUser(app, organization, {
      workspaceIds: [],
      firstName: 'Wanda',
    });
    const offTeam = await createTestUser(app, organization, { firstName: 'Otto' });
    const otherWorkspace = (
      await request('POST', '/api/v1/workspaces', { name: 'Elsewhere', auto_join: false })
    ).json();
    const foreignReviewer = (
      await request('POST', `/api/v1/workspaces/${otherWorkspace.id}/ai_reviewers`, {
        name: 'Elsewhere',
        review_instructions: 'x',
      })
    ).json();
    const otherRole = (
      await request('GET', '/api/v1/roles', undefined, await signInAs(app, other.admin))
    ).json().results[0];

    expect(await errorOf({ assignee_type: 'User', assignee_id: other.admin.id })).toEqual({
      assignee_id: ['is not a user of this organization'],
    });
    expect(await errorOf({ assignee_type: 'User', assignee_id: removed.id })).toEqual({
      assignee_id: ['is not a user of this organization'],
    });
    expect(await errorOf({ assignee_type: 'User', assignee_id: outsideWorkspace.id })).toEqual({
      assignee_id: ['Wanda Tester cannot see this email: they are not a member of its workspace'],
    });
    expect(await errorOf({ assignee_type: 'User', assignee_id: offTeam.id })).toEqual({
      assignee_id: ['Otto Tester cannot see this email: they are not on the team that owns its project'],
    });
    expect(await errorOf({ assignee_type: 'Role', assignee_id: otherRole.id })).toEqual({
      assignee_id: ['is not a role of this organization'],
    });
    expect(await errorOf({ assignee_type: 'AiReviewer', assignee_id: foreignReviewer.id })).toEqual({
      assignee_id: ['is not an AI reviewer of this workspace'],
    });
    expect(await errorOf({ assignee_type: 'Team', assignee_id: 1 })).toEqual({
      assignee_type: ['must be one of: User, Role, AiReviewer'],
    });
  });

  it('refuses asking the same assignee twice', async () => {
    const sam = await colleague();
    expect((await ask({ assignee_type: 'User', assignee_id: sam.id })).statusCode).toBe(200);
    expect(await errorOf({ assignee_type: 'User', assignee_id: sam.id })).toEqual({
      assignee_id: ['is already asked to review this email'],
    });
  });

  it('lets anyone who may ask withdraw a request, and only on the email it belongs to', async () => {
    const tom = await colleague();
    const assignment = (await ask({ assignee_type: 'User', assignee_id: tom.id })).json();
    const otherEmail = await createTestEmail(app, organization, { name: 'Other', content: {} });
    const wrongEmail = `/api/v1/workspaces/${organization.workspaceId}/emails/${otherEmail}/review_assignments/${assignment.id}`;
    expect((await request('DELETE', wrongEmail)).statusCode).toBe(404);

    // An Editor on the team, not the one who asked, may withdraw it.
    const editor = await signInAs(app, await colleague({ role: 'Editor' }));
    expect((await request('DELETE', `${base}/${assignment.id}`, undefined, editor)).statusCode).toBe(204);
    const ids = (await request('GET', `${base}?per=100`)).json().results.map((a: { id: number }) => a.id);
    expect(ids).not.toContain(assignment.id);
    expect((await request('DELETE', `${base}/${assignment.id}`)).statusCode).toBe(404);
  });

  it('needs submit_for_approval to ask and withdraw; reading needs only sight of the email', async () => {
    const viewer = await signInAs(app, await colleague({ role: 'Viewer' }));
    const target = await colleague();
    const asked = (await ask({ assignee_type: 'User', assignee_id: target.id })).json();
    expect((await request('GET', base, undefined, viewer)).statusCode).toBe(200);
    for (const [method, url, body] of [
      ['POST', base, { assignee_type: 'User', assignee_id: target.id }],
      ['DELETE', `${base}/${asked.id}`, undefined],
    ] as const) {
      const response = await request(method, url, body, viewer);
      expect(response.statusCode, method).toBe(403);
      expect(response.json().message).toBe('You need the submit_for_approval permission to do this');
    }
  });

  it('answers 404 to those who cannot see the email, and to another organization', async () => {
    const asked = (await ask({ assignee_type: 'User', assignee_id: (await colleague()).id })).json();
    // An Editor of the workspace who is not on the project's team does not see the email.
    const offTeam = await signInAs(app, await createTestUser(app, organization, { role: 'Editor' }));
    expect((await request('GET', base, undefined, offTeam)).statusCode).toBe(404);
    expect(
      (await ask({ assignee_type: 'User', assignee_id: organization.admin.id }, offTeam)).statusCode,
    ).toBe(404);
    expect((await request('DELETE', `${base}/${asked.id}`, undefined, offTeam)).statusCode).toBe(404);

    const other = await createTestOrganization(app);
    const outsider = await signInAs(app, other.admin);
    const foreignBase = `/api/v1/workspaces/${other.workspaceId}/emails/${emailId}/review_assignments`;
    expect((await request('GET', foreignBase, undefined, outsider)).statusCode).toBe(404);
    expect((await request('DELETE', `${foreignBase}/${asked.id}`, undefined, outsider)).statusCode).toBe(404);
  });
});
