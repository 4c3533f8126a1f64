import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema.ts';
import {
  createTestOrganization,
  createTestUser,
  signInAs,
  type TestOrganization,
} from '../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../test/harness.ts';
import { startSmtpPeer } from '../../test/smtp-peer.ts';

describe('users and invitations', () => {
  let app: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpPeer>>;
  let organization: TestOrganization;
  let admin: Record<string, string>;

  beforeAll(async () => {
    smtp = await startSmtpPeer();
    app = await buildTestApp({ config: { smtpUrl: smtp.url, appUrl: 'http://app.letterset.test' } });
    organization = await createTestOrganization(app, 'Acme');
    admin = await signInAs(app, organization.admin);
  });
  afterAll(async () => {
    await app.close();
    await smtp.stop();
  });

  const createTeam = async (workspaceId: number, name = 'Lifecycle') =>
    (
      await app.inject({
        method: 'POST',
        url: '/api/v1/teams',
        headers: admin,
        payload: { name, workspace_id: workspaceId, badge_color: 'teal' },
      })
    ).json();

  it('invites a person by email through SMTP; the link sets their password and signs them in', async () => {
    const team = await createTeam(organization.workspaceId);
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/users',
      headers: admin,
      payload: {
        first_name: 'Grace',
        last_name: 'Hopper',
        email: 'grace@acme.example',
        role_id: organization.roleIds.Editor,
        workspace_ids: [organization.workspaceId],
        team_ids: [team.id],
      },
    });
    expect(response.statusCode).toBe(200);
    const invited = response.json();
    expect(invited).toMatchObject({
      first_name: 'Grace',
      email: 'grace@acme.example',
      role_id: organization.roleIds.Editor,
      workspace_ids: [organization.workspaceId],
      team_ids: [team.id],
      invitation_accepted_at: null,
    });
    expect(invited.invitation_sent_at).toMatch(/Z$/);

    const mail = smtp.received.find((message) => message.to.includes('grace@acme.example'));
    expect(mail?.raw).toContain('Subject: Ada Admin invited you to Acme on Letterset');
    const unfolded = (mail?.raw ?? '').replaceAll(/=\r?\n/g, '').replaceAll('=3D', '=');
    const link = unfolded.match(/http:\/\/app\.letterset\.test\/invitations\/([\w-]+)/);
    expect(link).not.toBeNull();
    const token = link?.[1] ?? '';

    const invitation = await app.inject({ method: 'GET', url: `/api/v1/invitations/${token}` });
    expect(invitation.json()).toEqual({
      email: 'grace@acme.example',
      first_name: 'Grace',
      last_name: 'Hopper',
      organization_name: 'Acme',
    });

    const accept = await app.inject({
      method: 'POST',
      url: `/api/v1/invitations/${token}/accept`,
      payload: { password: 'grace has a good password' },
    });
    expect(accept.statusCode).toBe(200);
    expect(accept.json().user.invitation_accepted_at).toMatch(/Z$/);
    expect(accept.cookies.some((cookie) => cookie.name === 'letterset_session')).toBe(true);

    expect((await app.inject({ method: 'GET', url: `/api/v1/invitations/${token}` })).statusCode).toBe(404);
    const signIn = await app.inject({
      method: 'POST',
      url: '/api/v1/session',
      payload: { email: 'grace@acme.example', password: 'grace has a good password' },
    });
    expect(signIn.statusCode).toBe(200);
  });

  it('refuses teams outside the selected workspaces, unknown roles and taken emails, all at once', async () => {
    const otherWorkspace = (
      await app.inject({
        method: 'POST',
        url: '/api/v1/workspaces',
        headers: admin,
        payload: { name: 'EMEA', auto_join: false },
      })
    ).json();
    const team = await createTeam(otherWorkspace.id, 'EMEA lifecycle');
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/users',
      headers: admin,
      payload: {
        first_name: 'Eve',
        last_name: 'Example',
        email: organization.admin.email.toUpperCase(),
        role_id: 999_999,
        workspace_ids: [organization.workspaceId],
        team_ids: [team.id],
      },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      code: 'validation_failed',
      message: 'Failed to save',
      errors: {
        role_id: ['does not exist'],
        email: ['is already taken'],
        team_ids: ['must belong to the selected workspaces'],
      },
    });
  });

  it('adds new users to every auto_join workspace', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/users',
      headers: admin,
      payload: {
        first_name: 'Alan',
        last_name: 'Turing',
        email: 'alan@acme.example',
        role_id: organization.roleIds.Viewer,
      },
    });
    expect(response.json().workspace_ids).toEqual([organization.workspaceId]);
  });

  it('lists people with search and pagination', async () => {
    const page = await app.inject({ method: 'GET', url: '/api/v1/users?search=grace&per=1', headers: admin });
    expect(page.json()).toMatchObject({
      results: [{ email: 'grace@acme.example' }],
      pagination: { per: 1, page: 1, total: 1 },
    });
    const byFullName = await app.inject({
      method: 'GET',
      url: '/api/v1/users?search=Grace%20Hop',
      headers: admin,
    });
    expect(byFullName.json().pagination.total).toBe(1);
    const wildcard = await app.inject({ method: 'GET', url: '/api/v1/users?search=%25', headers: admin });
    expect(wildcard.json().pagination.total).toBe(0);
  });

  it('lists each person with their role name and invitation state: active, invited, or invitation expired', async () => {
    const invite = async (first_name: string, email: string, role: 'Editor' | 'Viewer') =>
      (
        await app.inject({
          method: 'POST',
          url: '/api/v1/users',
          headers: admin,
          payload: { first_name, last_name: 'Pending', email, role_id: organization.roleIds[role] },
        })
      ).json();
    const pending = await invite('Katherine', 'katherine@acme.example', 'Editor');
    expect(pending).toMatchObject({ role_name: 'Editor', invitation_state: 'invited' });
    expect(Date.parse(pending.invitation_expires_at)).toBeGreaterThan(Date.now());
    const late = await invite('Dorothy', 'dorothy@acme.example', 'Viewer');
    await app.services.database.db
      .update(users)
      .set({ invitationExpiresAt: new Date(Date.now() - 60_000) })
      .where(eq(users.id, late.id));

    const list = await app.inject({ method: 'GET', url: '/api/v1/users?per=100', headers: admin });
    const byEmail = new Map(
      list.json().results.map((user: { email: string }) => [user.email, user] as const),
    );
    expect(byEmail.get(organization.admin.email)).toMatchObject({
      role_name: 'Admin',
      invitation_state: 'active',
    });
    expect(byEmail.get('grace@acme.example')).toMatchObject({
      role_name: 'Editor',
      invitation_state: 'active',
      invitation_expires_at: null,
    });
    expect(byEmail.get('katherine@acme.example')).toMatchObject({
      role_name: 'Editor',
      invitation_state: 'invited',
    });
    expect(byEmail.get('dorothy@acme.example')).toMatchObject({
      role_name: 'Viewer',
      invitation_state: 'invitation_expired',
    });
  });

  it('sends an expired invitation again, with a new link that works', async () => {
    const [dorothy] = await app.services.database.db
      .select()
      .from(users)
      .where(eq(users.email, 'dorothy@acme.example'));
    if (!dorothy) throw new Error('Dorothy was not invited');
    const before = smtp.received.filter((message) => message.to.includes('dorothy@acme.example')).length;
    const resent = await app.inject({
      method: 'POST',
      url: `/api/v1/users/${dorothy.id}/invitation`,
      headers: admin,
    });
    expect(resent.statusCode).toBe(200);
    expect(resent.json()).toMatchObject({ invitation_state: 'invited', role_name: 'Viewer' });
    const mails = smtp.received.filter((message) => message.to.includes('dorothy@acme.example'));
    expect(mails).toHaveLength(before + 1);
    const unfolded = (mails.at(-1)?.raw ?? '').replaceAll(/=\r?\n/g, '').replaceAll('=3D', '=');
    const token = unfolded.match(/http:\/\/app\.letterset\.test\/invitations\/([\w-]+)/)?.[1] ?? '';
    expect((await app.inject({ method: 'GET', url: `/api/v1/invitations/${token}` })).statusCode).toBe(200);

    // Someone who has joined has no invitation to send; another organization's person is not found.
    const joined = await app.inject({
      method: 'POST',
      url: `/api/v1/users/${organization.admin.id}/invitation`,
      headers: admin,
    });
    expect(joined.statusCode).toBe(422);
    expect(joined.json().errors.base[0]).toContain('has already joined');
    const other = await createTestOrganization(app, 'Elsewhere');
    const elsewhere = await app.inject({
      method: 'POST',
      url: `/api/v1/users/${other.admin.id}/invitation`,
      headers: admin,
    });
    expect(elsewhere.statusCode).toBe(404);
  });

  it('changes a role, but never away from the last person who can manage users and roles', async () => {
    const user = await createTestUser(app, organization, { role: 'Viewer' });
    const changed = await app.inject({
      method: 'PATCH',
      url: `/api/v1/users/${user.id}`,
      headers: admin,
      payload: { role_id: organization.roleIds.Developer },
    });
    expect(changed.json().role_id).toBe(organization.roleIds.Developer);
    const demoteLastAdmin = await app.inject({
      method: 'PATCH',
      url: `/api/v1/users/${organization.admin.id}`,
      headers: admin,
      payload: { role_id: organization.roleIds.Editor },
    });
    expect(demoteLastAdmin.statusCode).toBe(422);
    expect(demoteLastAdmin.json().errors).toEqual({
      role_id: [
        'cannot change: nobody else active would hold both update_roles and update_users; give both to someone else first',
      ],
    });
  });

  it('removes a user, who can then no longer sign in, but not yourself or someone above you', async () => {
    const user = await createTestUser(app, organization);
    const userSession = await signInAs(app, user);
    expect(
      (await app.inject({ method: 'DELETE', url: `/api/v1/users/${user.id}`, headers: admin })).statusCode,
    ).toBe(204);
    expect((await app.inject({ method: 'GET', url: '/api/v1/me', headers: userSession })).statusCode).toBe(
      401,
    );
    expect(
      (await app.inject({ method: 'GET', url: `/api/v1/users/${user.id}`, headers: admin })).statusCode,
    ).toBe(404);

    const self = await app.inject({
      method: 'DELETE',
      url: `/api/v1/users/${organization.admin.id}`,
      headers: admin,
    });
    expect(self.statusCode).toBe(400);
    expect(self.json()).toEqual({ code: 'bad_request', message: 'You cannot remove yourself' });

    // A user managing people through a custom role cannot remove someone holding keys they lack.
    const peopleManagers = await app.inject({
      method: 'POST',
      url: '/api/v1/roles',
      headers: admin,
      payload: { name: 'People managers', role_permissions: ['delete_users'] },
    });
    const manager = await createTestUser(app, organization, { roleId: peopleManagers.json().id });
    const removeLastAdmin = await app.inject({
      method: 'DELETE',
      url: `/api/v1/users/${organization.admin.id}`,
      headers: await signInAs(app, manager),
    });
    expect(removeLastAdmin.statusCode).toBe(403);
    expect(removeLastAdmin.json()).toMatchObject({
      message: expect.stringMatching(/^You cannot remove Ada Admin: it holds keys you do not hold \(/),
      code: 'grant_beyond_own_keys',
    });
  });
});

describe('mail without SMTP', () => {
  it('writes the invitation to the outbox folder', async () => {
    const { mkdtemp, readdir, readFile } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const path = await import('node:path');
    const outboxDir = await mkdtemp(path.join(tmpdir(), 'letterset-outbox-'));
    const app = await buildTestApp({ config: { smtpUrl: undefined, outboxDir } });
    try {
      const organization = await createTestOrganization(app);
      const admin = await signInAs(app, organization.admin);
      await app.inject({
        method: 'POST',
        url: '/api/v1/users',
        headers: admin,
        payload: {
          first_name: 'Mary',
          last_name: 'Jackson',
          email: 'mary@example.com',
          role_id: organization.roleIds.Editor,
        },
      });
      const [file] = await readdir(outboxDir);
      const message = JSON.parse(await readFile(path.join(outboxDir, file ?? ''), 'utf8'));
      expect(message).toMatchObject({
        to: 'mary@example.com',
        subject: expect.stringContaining('invited you to'),
      });
      expect(message.text).toMatch(/http:\/\/localhost:3000\/invitations\/[\w-]{43}/);
    } finally {
      await app.close();
    }
  });
});
