import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema.ts';
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
import { type EmailNotice, notify } from './notifications.service.ts';

describe('notifications', () => {
  let app: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpPeer>>;
  let organization: TestOrganization;
  let email: EmailNotice['email'];

  const services = () => app.services;
  const notice = (recipientIds: number[], extra: Partial<EmailNotice> = {}): EmailNotice => ({
    kind: 'requested_review',
    recipientIds,
    actor: { id: organization.admin.id, firstName: 'Ada', lastName: 'Admin' },
    email,
    message: 'Ada Admin asked you to review “Spring sale”',
    ...extra,
  });
  const mailsTo = (user: TestUser) => smtp.received.filter((mail) => mail.to.includes(user.email));
  const get = async (headers: Record<string, string>, url: string) =>
    app.inject({ method: 'GET', url, headers });

  beforeAll(async () => {
    smtp = await startSmtpPeer();
    app = await buildTestApp({ config: { smtpUrl: smtp.url, appUrl: 'https://app.example.com' } });
    organization = await createTestOrganization(app);
    const id = await createTestEmail(app, organization, { name: 'Spring sale', content: {} });
    email = {
      id,
      organizationId: organization.organizationId,
      workspaceId: organization.workspaceId,
      name: 'Spring sale',
    };
  });

  afterAll(async () => {
    await app.close();
    await smtp.stop();
  });

  it('records an in-app notification and mails it through SMTP, with a link to the email', async () => {
    const reviewer = await createTestUser(app, organization, { firstName: 'Rita' });
    await notify(services(), [notice([reviewer.id], { quote: 'Please look at the hero' })]);

    const headers = await signInAs(app, reviewer);
    const list = (await get(headers, '/api/v1/notifications')).json();
    expect(list.pagination.total).toBe(1);
    expect(list.results[0]).toMatchObject({
      kind: 'requested_review',
      message: 'Ada Admin asked you to review “Spring sale”',
      actor: { id: organization.admin.id, first_name: 'Ada' },
      email: { id: email.id, workspace_id: organization.workspaceId, name: 'Spring sale' },
      read: false,
      read_at: null,
    });
    const [mail] = mailsTo(reviewer);
    expect(mail?.readable).toContain('Subject: Ada Admin asked you to review “Spring sale”');
    expect(mail?.readable).toContain(
      `https://app.example.com/workspaces/${organization.workspaceId}/emails/${email.id}/edit`,
    );
    expect(mail?.readable).toContain('> Please look at the hero');
  });

  it('never tells the actor about their own action, and tells each recipient once', async () => {
    const reviewer = await createTestUser(app, organization);
    await notify(services(), [notice([reviewer.id, reviewer.id, organization.admin.id])]);
    const admin = await signInAs(app, organization.admin);
    expect((await get(admin, '/api/v1/notifications/unread_count')).json()).toEqual({ unread_count: 0 });
    const headers = await signInAs(app, reviewer);
    expect((await get(headers, '/api/v1/notifications/unread_count')).json()).toEqual({ unread_count: 1 });
    expect(mailsTo(reviewer)).toHaveLength(1);
  });

  it('keeps the in-app notification but sends no mail of a kind the recipient turned off', async () => {
    const reviewer = await createTestUser(app, organization);
    const headers = await signInAs(app, reviewer);
    const turnedOff = await app.inject({
      method: 'PATCH',
      url: '/api/v1/me',
      headers,
      payload: { disabled_email_notifications: ['mentioned_in_comment'] },
    });
    expect(turnedOff.statusCode).toBe(200);

    await notify(services(), [
      notice([reviewer.id], { kind: 'mentioned_in_comment', message: 'Ada Admin mentioned you' }),
      notice([reviewer.id], { kind: 'review_approved', message: 'Ada Admin approved “Spring sale”' }),
    ]);
    const kinds = (await get(headers, '/api/v1/notifications'))
      .json()
      .results.map((result: { kind: string }) => result.kind);
    expect(kinds.sort()).toEqual(['mentioned_in_comment', 'review_approved']);
    const mentions = (await get(headers, '/api/v1/notifications?kind=mentioned_in_comment')).json();
    expect(mentions.results.map((result: { message: string }) => result.message)).toEqual([
      'Ada Admin mentioned you',
    ]);
    const mails = mailsTo(reviewer);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.readable).toContain('approved');
  });

  it('tells nobody outside the email’s organization, nor removed users', async () => {
    const other = await createTestOrganization(app);
    const stranger = await createTestUser(app, other);
    const removed = await createTestUser(app, organization);
    await app.services.database.db
      .update(users)
      .set({ deletedAt: new Date() })
      .where(eq(users.id, removed.id));
    await notify(services(), [notice([stranger.id, removed.id])]);
    const headers = await signInAs(app, stranger);
    expect((await get(headers, '/api/v1/notifications')).json().pagination.total).toBe(0);
    expect(mailsTo(stranger)).toHaveLength(0);
    expect(mailsTo(removed)).toHaveLength(0);
  });

  it('marks one or all read; the unread filter and count follow; nobody marks another’s', async () => {
    const reviewer = await createTestUser(app, organization);
    const headers = await signInAs(app, reviewer);
    await notify(services(), [notice([reviewer.id]), notice([reviewer.id]), notice([reviewer.id])]);
    const [first] = (await get(headers, '/api/v1/notifications')).json().results;

    const admin = await signInAs(app, organization.admin);
    const byAnother = await app.inject({
      method: 'POST',
      url: `/api/v1/notifications/${first.id}/mark_read`,
      headers: admin,
    });
    expect(byAnother.statusCode).toBe(404);

    const marked = await app.inject({
      method: 'POST',
      url: `/api/v1/notifications/${first.id}/mark_read`,
      headers,
    });
    expect(marked.json()).toMatchObject({ id: first.id, read: true });
    expect(marked.json().read_at).not.toBeNull();
    expect((await get(headers, '/api/v1/notifications?unread=true')).json().pagination.total).toBe(2);
    expect((await get(headers, '/api/v1/notifications/unread_count')).json().unread_count).toBe(2);

    const all = await app.inject({ method: 'POST', url: '/api/v1/notifications/mark_all_read', headers });
    expect(all.json()).toEqual({ unread_count: 0 });
    expect((await get(headers, '/api/v1/notifications')).json().pagination.total).toBe(3);
  });
});
