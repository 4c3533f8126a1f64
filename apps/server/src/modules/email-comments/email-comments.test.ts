import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import pg from 'pg';
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
import { type EmailEvent, emailEventsChannel } from '../emails/email-events.ts';

type Headers = Record<string, string>;

/** Every email event announced while the test app runs, whichever database is under it. */
async function recordEmailEvents(app: TestApp): Promise<{ events: EmailEvent[]; stop(): Promise<void> }> {
  const events: EmailEvent[] = [];
  const handle = app.services.database;
  if (handle.driver === 'pglite') {
    const unlisten = await handle.pglite.listen(emailEventsChannel, (payload) => {
      events.push(JSON.parse(payload));
    });
    return { events, stop: unlisten };
  }
  const client = new pg.Client({ connectionString: handle.connectionString });
  await client.connect();
  client.on('notification', (message) => events.push(JSON.parse(message.payload ?? '{}')));
  await client.query(`listen ${emailEventsChannel}`);
  return { events, stop: () => client.end() };
}

/** Waits for announcements to arrive (NOTIFY is delivered after the commit, asynchronously). */
async function eventually(check: () => void, timeoutMs = 2_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

describe('email comments', () => {
  let app: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpPeer>>;
  let organization: TestOrganization;
  let admin: Headers;
  let emailId: number;
  let teamId: number;
  const heroId = randomUUID();
  const footerId = randomUUID();
  const containerId = randomUUID();
  let events: Awaited<ReturnType<typeof recordEmailEvents>>;

  const url = (suffix = '') =>
    `/api/v1/workspaces/${organization.workspaceId}/emails/${emailId}/email_comments${suffix}`;
  const call = (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    headers: Headers,
    path: string,
    payload?: object,
  ) => app.inject({ method, url: path, headers, ...(payload ? { payload } : {}) });
  const comment = async (headers: Headers, payload: object) => {
    const response = await call('POST', headers, url(), { locale: 'en-US', ...payload });
    if (response.statusCode !== 200)
      throw new Error(`comment failed: ${response.statusCode} ${response.body}`);
    return response.json();
  };
  const list = async (headers: Headers, query = 'locale=en-US&per=100') =>
    (await call('GET', headers, url(`?${query}`))).json();
  const notificationsOf = async (user: TestUser) =>
    (await call('GET', await signInAs(app, user), '/api/v1/notifications?per=100')).json().results as {
      kind: string;
      message: string;
      email_comment_id: number | null;
    }[];
  const mailsTo = (user: TestUser) => smtp.received.filter((mail) => mail.to.includes(user.email));
  /** A user of the workspace and of the email's team: one who can see the email. */
  const teamMember = async (firstName: string, role: 'Viewer' | 'Editor' = 'Editor') => {
    const user = await createTestUser(app, organization, { firstName, role });
    await app.services.database.db.insert(teamMemberships).values({ teamId, userId: user.id });
    return user;
  };
  const mention = (user: TestUser, name = 'Someone') => `@[${name}](user:${user.id})`;

  beforeAll(async () => {
    smtp = await startSmtpPeer();
    app = await buildTestApp({ config: { smtpUrl: smtp.url, appUrl: 'https://app.example.com' } });
    organization = await createTestOrganization(app);
    admin = await signInAs(app, organization.admin);
    const instance = (id: string) => ({ id, component_id: 1, field_values: {} });
    emailId = await createTestEmail(app, organization, {
      name: 'Spring sale',
      content: {
        subject: { branch_content: { null_branch: { 'en-US': 'Hi' } } },
        preheader: { branch_content: { null_branch: { 'en-US': '' } } },
        container_component_instance: instance(containerId),
        component_instances: [instance(heroId), instance(footerId)],
      },
    });
    const [email] = await app.services.database.db
      .update(emails)
      .set({ locales: ['en-US', 'fr-FR'] })
      .where(eq(emails.id, emailId))
      .returning();
    const [project] = await app.services.database.db
      .select()
      .from(projects)
      .where(eq(projects.id, email?.projectId ?? 0));
    teamId = project?.teamId ?? 0;
    events = await recordEmailEvents(app);
  });

  afterAll(async () => {
    await events.stop();
    await app.close();
    await smtp.stop();
  });

  it('creates a comment in the spec’s shape and lists it on its locale only', async () => {
    const created = await comment(admin, { body: '  Make the hero bigger  ' });
    expect(created).toEqual({
      id: expect.any(Number),
      email_id: emailId,
      locale: 'en-US',
      author_type: 'User',
      author: {
        id: organization.admin.id,
        first_name: 'Ada',
        last_name: 'Admin',
        profile_image_url: null,
      },
      parent_id: null,
      pin_data: null,
      pin_detached: false,
      body: 'Make the hero bigger',
      mentions: [],
      resolved: false,
      resolver_id: null,
      resolver: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const english = await list(admin);
    expect(english.results.map((result: { id: number }) => result.id)).toContain(created.id);
    expect(english.pagination).toMatchObject({ per: 100, page: 1 });
    await comment(admin, { body: 'A second thread' });
    const total = (await list(admin)).pagination.total;
    expect(total).toBe(2);
    const secondPage = await list(admin, 'locale=en-US&per=1&page=2');
    expect(secondPage.results).toHaveLength(1);
    expect(secondPage.pagination).toEqual({ per: 1, page: 2, total });
    // A page past the end still counts them all.
    expect((await list(admin, 'locale=en-US&per=1&page=9')).pagination).toEqual({ per: 1, page: 9, total });
    const french = await list(admin, 'locale=fr-FR');
    expect(french).toEqual({ results: [], pagination: { per: 10, page: 1, total: 0 } });
    // A valid locale code the email lacks lists nothing; no locale, or an unknown code, is refused.
    expect((await list(admin, 'locale=de-DE')).results).toEqual([]);
    const missing = await call('GET', admin, url());
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors).toEqual({ locale: ['is required'] });
    expect((await call('GET', admin, url('?locale=xx-XX'))).statusCode).toBe(422);
    await eventually(() =>
      expect(events.events).toContainEqual({ type: 'comments_changed', email_id: emailId, locale: 'en-US' }),
    );
  });

  it('refuses a blank or overlong body, a locale the email lacks, and a bad parent, all at once', async () => {
    const refused = await call('POST', admin, url(), { locale: 'de-DE', body: '   ', parent_id: 2_000_000 });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toEqual({
      code: 'validation_failed',
      message: 'Failed to save',
      errors: {
        body: ["can't be blank"],
        locale: ['is not a locale of this email'],
        parent_id: ['is not a comment of this email in this locale'],
      },
    });
    const overlong = await call('POST', admin, url(), { locale: 'en-US', body: 'a'.repeat(10_001) });
    expect(overlong.statusCode).toBe(422);
    expect(overlong.json().errors).toEqual({ body: ['must be at most 10000 characters'] });
    const unknownField = await call('POST', admin, url(), { locale: 'en-US', body: 'Hi', author_id: 1 });
    expect(unknownField.statusCode).toBe(422);
  });

  it('keeps threads one level deep, in one locale, with pins on first comments only', async () => {
    const first = await comment(admin, { body: 'Thread' });
    const reply = await comment(admin, { body: 'Reply', parent_id: first.id });
    expect(reply).toMatchObject({ parent_id: first.id, pin_data: null });

    const toReply = await call('POST', admin, url(), {
      locale: 'en-US',
      body: 'Deeper',
      parent_id: reply.id,
    });
    expect(toReply.json().errors).toEqual({
      parent_id: ['is a reply: reply to the first comment of its thread'],
    });
    const otherLocale = await call('POST', admin, url(), {
      locale: 'fr-FR',
      body: 'Ici',
      parent_id: first.id,
    });
    expect(otherLocale.json().errors).toEqual({
      parent_id: ['is not a comment of this email in this locale'],
    });
    const pinnedReply = await call('POST', admin, url(), {
      locale: 'en-US',
      body: 'Pinned reply',
      parent_id: first.id,
      pin_data: { component_instance_id: heroId, coordinates: { center_offset_x_px: 0, y: 10 } },
    });
    expect(pinnedReply.statusCode).toBe(422);
    expect(pinnedReply.json().errors).toEqual({
      pin_data: ['cannot be set on a reply: the first comment of a thread holds its pin'],
    });

    const ids = (await list(admin)).results.map((result: { id: number }) => result.id);
    expect(ids.indexOf(first.id)).toBeLessThan(ids.indexOf(reply.id));
  });

  it('pins a comment on a component instance or on the email; the server names the pin', async () => {
    const pinned = await comment(admin, {
      body: 'Hero',
      pin_data: {
        component_instance_id: heroId,
        branch_key: 'vip',
        coordinates: { center_offset_x_px: -120.5, y: 42 },
      },
    });
    expect(pinned.pin_data).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      component_instance_id: heroId,
      branch_key: 'vip',
      coordinates: { center_offset_x_px: -120.5, y: 42 },
    });
    expect(pinned.pin_detached).toBe(false);
    const onEmail = await comment(admin, {
      body: 'Whole email',
      pin_data: { component_instance_id: null, coordinates: { center_offset_x_px: 0, y: 300 } },
    });
    expect(onEmail.pin_data).toMatchObject({ component_instance_id: null, branch_key: null });
    const onContainer = await comment(admin, {
      body: 'Container',
      pin_data: { component_instance_id: containerId, coordinates: { center_offset_x_px: 0, y: 0 } },
    });
    expect(onContainer.pin_detached).toBe(false);

    const elsewhere = await call('POST', admin, url(), {
      locale: 'en-US',
      body: 'Nowhere',
      pin_data: { component_instance_id: randomUUID(), coordinates: { center_offset_x_px: 0, y: 0 } },
    });
    expect(elsewhere.json().errors).toEqual({
      'pin_data.component_instance_id': ['is not a component instance of this email'],
    });
    const outOfBounds = await call('POST', admin, url(), {
      locale: 'en-US',
      body: 'Far away',
      pin_data: { component_instance_id: heroId, coordinates: { center_offset_x_px: 99_999, y: -1 } },
    });
    expect(outOfBounds.statusCode).toBe(422);
    expect(outOfBounds.json().errors).toMatchObject({
      'pin_data.coordinates.center_offset_x_px': ['must be less than or equal to 5000'],
      'pin_data.coordinates.y': ['must be greater than or equal to 0'],
    });
  });

  it('returns a pin whose component instance left the content as detached, and keeps it', async () => {
    const doomedId = randomUUID();
    const [email] = await app.services.database.db.select().from(emails).where(eq(emails.id, emailId));
    const content = email?.content as { component_instances: { id: string }[] };
    const withDoomed = {
      ...content,
      component_instances: [
        ...content.component_instances,
        { id: doomedId, component_id: 1, field_values: {} },
      ],
    };
    await app.services.database.db.update(emails).set({ content: withDoomed }).where(eq(emails.id, emailId));
    const pinned = await comment(admin, {
      body: 'On the doomed block',
      pin_data: { component_instance_id: doomedId, coordinates: { center_offset_x_px: 5, y: 6 } },
    });
    expect(pinned.pin_detached).toBe(false);

    await app.services.database.db.update(emails).set({ content }).where(eq(emails.id, emailId));
    const listed = (await list(admin)).results.find((result: { id: number }) => result.id === pinned.id);
    expect(listed.pin_detached).toBe(true);
    expect(listed.pin_data.component_instance_id).toBe(doomedId);
    expect(listed.pin_data.coordinates).toEqual({ center_offset_x_px: 5, y: 6 });
  });

  it('notifies the people a comment mentions, in the app and by mail, and returns them', async () => {
    const rita = await teamMember('Rita');
    const created = await comment(admin, { body: `Hi ${mention(rita, 'Rita Tester')}, look at this` });
    expect(created.mentions).toEqual([
      { id: rita.id, first_name: 'Rita', last_name: 'Tester', profile_image_url: null },
    ]);
    expect(created.body).toBe(`Hi @[Rita Tester](user:${rita.id}), look at this`);

    const [notice] = await notificationsOf(rita);
    expect(notice).toMatchObject({
      kind: 'mentioned_in_comment',
      message: 'Ada Admin mentioned you in a comment on “Spring sale”',
      email_comment_id: created.id,
    });
    const [mail] = mailsTo(rita);
    expect(mail?.readable).toContain('Subject: Ada Admin mentioned you in a comment on “Spring sale”');
    expect(mail?.readable).toContain('> Hi @Rita Tester, look at this');
    expect(mail?.readable).toContain(
      `https://app.example.com/workspaces/${organization.workspaceId}/emails/${emailId}/edit`,
    );
  });

  it('keeps the in-app mention but mails nothing when the person turned mention mails off', async () => {
    const quiet = await teamMember('Quentin');
    const headers = await signInAs(app, quiet);
    const turnedOff = await call('PATCH', headers, '/api/v1/me', {
      disabled_email_notifications: ['mentioned_in_comment'],
    });
    expect(turnedOff.statusCode).toBe(200);
    await comment(admin, { body: `FYI ${mention(quiet)}` });
    expect((await notificationsOf(quiet)).map((notice) => notice.kind)).toEqual(['mentioned_in_comment']);
    expect(mailsTo(quiet)).toHaveLength(0);
  });

  it('refuses to mention someone who cannot see the email, naming the token', async () => {
    const offTeam = await createTestUser(app, organization, { firstName: 'Otto' });
    const otherOrganization = await createTestOrganization(app);
    const stranger = await createTestUser(app, otherOrganization);
    const removed = await teamMember('Removed');
    await app.services.database.db
      .update(users)
      .set({ deletedAt: new Date() })
      .where(eq(users.id, removed.id));
    const rita = await teamMember('Rita');
    const body = `${mention(offTeam, 'Otto')} ${mention(stranger, 'Stranger')} ${mention(removed, 'Gone')} ${mention(rita, 'Rita')}`;
    const refused = await call('POST', admin, url(), { locale: 'en-US', body });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors).toEqual({
      body: [
        `mentions @[Otto](user:${offTeam.id}), who is not a user that can see this email`,
        `mentions @[Stranger](user:${stranger.id}), who is not a user that can see this email`,
        `mentions @[Gone](user:${removed.id}), who is not a user that can see this email`,
      ],
    });
    expect(await notificationsOf(rita)).toEqual([]);
    // The Admin sees every project: a member of the workspace who is on no team may still be mentioned.
    const seesAll = await createTestUser(app, organization, { role: 'Admin' });
    const allowed = await comment(await signInAs(app, rita), { body: mention(seesAll, 'Boss') });
    expect(allowed.mentions.map((person: { id: number }) => person.id)).toEqual([seesAll.id]);
  });

  it('tells the thread’s earlier participants of a reply, but not the replier nor those mentioned', async () => {
    const starter = await teamMember('Starter');
    const replier = await teamMember('Replier');
    const mentioned = await teamMember('Mentioned');
    const late = await teamMember('Late');
    const first = await comment(await signInAs(app, starter), { body: 'Thoughts?' });
    await comment(await signInAs(app, mentioned), { body: 'Yes', parent_id: first.id });
    await comment(await signInAs(app, replier), {
      body: `Agreed ${mention(mentioned, 'Mentioned')}`,
      parent_id: first.id,
    });

    expect((await notificationsOf(starter)).map((notice) => notice.kind)).toEqual([
      'reply_in_comment_thread',
      'reply_in_comment_thread',
    ]);
    expect((await notificationsOf(starter))[0]?.message).toBe(
      'Replier Tester replied to a comment thread on “Spring sale”',
    );
    // Mentioned in the second reply after replying first: told once, as mentioned.
    expect((await notificationsOf(mentioned)).map((notice) => notice.kind)).toEqual(['mentioned_in_comment']);
    expect(await notificationsOf(replier)).toEqual([]);
    // Someone who joins later is not told of replies before them, only after.
    await comment(await signInAs(app, late), { body: 'Late to this', parent_id: first.id });
    expect(await notificationsOf(late)).toEqual([]);
    expect((await notificationsOf(replier)).map((notice) => notice.kind)).toEqual([
      'reply_in_comment_thread',
    ]);
  });

  it('lets only the author edit a comment, and tells newly mentioned people once', async () => {
    const author = await teamMember('Author');
    const other = await teamMember('Other');
    const first = await teamMember('First');
    const second = await teamMember('Second');
    const authorHeaders = await signInAs(app, author);
    const created = await comment(authorHeaders, { body: `Hello ${mention(first)}` });

    const byOther = await call('PATCH', await signInAs(app, other), url(`/${created.id}`), {
      body: 'Mine now',
    });
    expect(byOther.statusCode).toBe(403);
    expect(byOther.json()).toEqual({
      code: 'permission_denied',
      message: 'Only the author of a comment can edit it',
    });
    const byAdmin = await call('PATCH', admin, url(`/${created.id}`), { body: 'Admin edit' });
    expect(byAdmin.statusCode).toBe(403);

    const edited = await call('PATCH', authorHeaders, url(`/${created.id}`), {
      body: `Hello ${mention(first)} and ${mention(second)}`,
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().mentions.map((person: { id: number }) => person.id)).toEqual([first.id, second.id]);
    expect(await notificationsOf(first)).toHaveLength(1);
    expect(await notificationsOf(second)).toHaveLength(1);

    const blank = await call('PATCH', authorHeaders, url(`/${created.id}`), { body: '' });
    expect(blank.json().errors).toEqual({ body: ["can't be blank"] });
    const missing = await call('PATCH', authorHeaders, url('/2000000000'), { body: 'x' });
    expect(missing.statusCode).toBe(404);
  });

  it('lets only the author delete; deleting a thread’s first comment deletes its replies', async () => {
    const author = await teamMember('Author');
    const replier = await teamMember('Replier');
    const authorHeaders = await signInAs(app, author);
    const replierHeaders = await signInAs(app, replier);
    const first = await comment(authorHeaders, { body: 'Delete me' });
    const reply = await comment(replierHeaders, { body: 'A reply', parent_id: first.id });
    const kept = await comment(replierHeaders, { body: 'Another reply', parent_id: first.id });

    expect((await call('DELETE', authorHeaders, url(`/${reply.id}`))).statusCode).toBe(403);
    const replyGone = await call('DELETE', replierHeaders, url(`/${reply.id}`));
    expect(replyGone.statusCode).toBe(204);
    let ids = (await list(admin)).results.map((result: { id: number }) => result.id);
    expect(ids).toContain(first.id);
    expect(ids).toContain(kept.id);
    expect(ids).not.toContain(reply.id);

    expect((await call('DELETE', authorHeaders, url(`/${first.id}`))).statusCode).toBe(204);
    ids = (await list(admin)).results.map((result: { id: number }) => result.id);
    expect(ids).not.toContain(first.id);
    expect(ids).not.toContain(kept.id);
    expect((await call('DELETE', authorHeaders, url(`/${first.id}`))).statusCode).toBe(404);
  });

  it('resolves and reopens a whole thread, by anyone who may comment; never a reply alone', async () => {
    const author = await teamMember('Author');
    const viewer = await teamMember('Vera', 'Viewer');
    const first = await comment(await signInAs(app, author), { body: 'Resolve me' });
    const reply = await comment(admin, { body: 'Done', parent_id: first.id });
    const viewerHeaders = await signInAs(app, viewer);

    const onReply = await call('POST', viewerHeaders, url(`/${reply.id}/toggle_resolution`));
    expect(onReply.statusCode).toBe(422);
    expect(onReply.json().errors).toEqual({
      id: ['is a reply: resolve or reopen the first comment of its thread'],
    });

    const resolved = await call('POST', viewerHeaders, url(`/${first.id}/toggle_resolution`));
    expect(resolved.json()).toMatchObject({
      id: first.id,
      resolved: true,
      resolver_id: viewer.id,
      resolver: { id: viewer.id, first_name: 'Vera' },
    });
    const resolvedIds = (await list(admin, 'locale=en-US&resolved=true&per=100')).results.map(
      (result: { id: number }) => result.id,
    );
    expect(resolvedIds).toEqual(expect.arrayContaining([first.id, reply.id]));
    const openIds = (await list(admin, 'locale=en-US&resolved=false&per=100')).results.map(
      (result: { id: number }) => result.id,
    );
    expect(openIds).not.toContain(first.id);
    expect(openIds).not.toContain(reply.id);
    // A reply to a resolved thread joins it resolved.
    const late = await comment(admin, { body: 'Late', parent_id: first.id });
    expect(late.resolved).toBe(true);

    const reopened = await call('POST', admin, url(`/${first.id}/toggle_resolution`));
    expect(reopened.json()).toMatchObject({ resolved: false, resolver_id: null, resolver: null });
    const reopenedIds = (await list(admin, 'locale=en-US&resolved=false&per=100')).results.map(
      (result: { id: number }) => result.id,
    );
    expect(reopenedIds).toEqual(expect.arrayContaining([first.id, reply.id, late.id]));
  });

  it('stays open in every email status, published included', async () => {
    await app.services.database.db.update(emails).set({ status: 'published' }).where(eq(emails.id, emailId));
    try {
      const created = await comment(admin, { body: 'After publishing' });
      expect(created.id).toEqual(expect.any(Number));
    } finally {
      await app.services.database.db.update(emails).set({ status: 'draft' }).where(eq(emails.id, emailId));
    }
  });

  it('answers 404 for a comment of another email and an email the caller cannot see', async () => {
    const created = await comment(admin, { body: 'Mine' });
    const otherEmailId = await createTestEmail(app, organization, { name: 'Other', content: {} });
    const viaOtherEmail = await call(
      'POST',
      admin,
      `/api/v1/workspaces/${organization.workspaceId}/emails/${otherEmailId}/email_comments/${created.id}/toggle_resolution`,
    );
    expect(viaOtherEmail.statusCode).toBe(404);
    const offTeam = await createTestUser(app, organization, { role: 'Editor' });
    const hidden = await call('GET', await signInAs(app, offTeam), url('?locale=en-US'));
    expect(hidden.statusCode).toBe(404);
  });

  it('announces every write to the email’s viewers', async () => {
    events.events.length = 0;
    const first = await comment(admin, { body: 'Announce' });
    await call('PATCH', admin, url(`/${first.id}`), { body: 'Announced' });
    await call('POST', admin, url(`/${first.id}/toggle_resolution`));
    await call('DELETE', admin, url(`/${first.id}`));
    await eventually(() =>
      expect(events.events.filter((event) => event.type === 'comments_changed')).toHaveLength(4),
    );
    expect(new Set(events.events.map((event) => JSON.stringify(event)))).toEqual(
      new Set([JSON.stringify({ type: 'comments_changed', email_id: emailId, locale: 'en-US' })]),
    );
  });
});
