import { presenceTimeoutMs } from '@letterset/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventStreamReader } from '../../test/event-stream-client.ts';
import {
  createStarterProject,
  createTestOrganization,
  createTestUser,
  signInAs,
  signInMemberWith,
  type TestOrganization,
} from '../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../test/harness.ts';
import { EmailEventHub } from './email-event-stream.ts';
import { EmailPresenceRegistry } from './email-presence.ts';

const tabA = '11111111-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const tabB = '22222222-bbbb-4bbb-8bbb-bbbbbbbbbbbb';

describe('email presence', () => {
  let app: TestApp;
  let baseUrl: string;
  let organization: TestOrganization;
  let admin: Record<string, string>;
  let colleague: Record<string, string>;
  let teamId: number;
  let emailId: number;
  const readers: EventStreamReader[] = [];
  const closers: (() => Promise<void>)[] = [];

  const presenceUrl = (id = emailId, workspaceId = organization.workspaceId) =>
    `/api/v1/workspaces/${workspaceId}/emails/${id}/presence`;
  const announce = (headers: Record<string, string>, payload: object, url = presenceUrl()) =>
    app.inject({ method: 'PUT', url, headers, payload });

  async function follow(headers = admin): Promise<EventStreamReader> {
    const response = await fetch(
      `${baseUrl}/api/v1/workspaces/${organization.workspaceId}/emails/${emailId}/events`,
      {
        headers,
      },
    );
    const reader = new EventStreamReader(response);
    readers.push(reader);
    await reader.next('ready');
    return reader;
  }

  beforeAll(async () => {
    app = await buildTestApp();
    baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });
    organization = await createTestOrganization(app);
    admin = await signInAs(app, organization.admin);
    const starter = await createStarterProject(app, organization, admin, {
      team: 'Writers',
      project: 'Spring',
    });
    teamId = starter.teamId;
    const created = await app.inject({
      method: 'POST',
      url: `/api/v1/workspaces/${organization.workspaceId}/emails`,
      headers: admin,
      payload: {
        name: 'Spring sale',
        email_design_system_id: starter.starter.id,
        project_id: starter.projectId,
      },
    });
    emailId = created.json().id;
    colleague = await signInMemberWith(app, organization, { adminHeaders: admin, teamId, permissions: [] });
  });

  afterAll(async () => {
    await Promise.all(readers.map((reader) => reader.close()));
    for (const close of closers) await close();
    await app.close();
  });

  it('tells every viewer who opened the email and what they selected, and answers who is there', async () => {
    const viewer = await follow();
    const first = await announce(admin, { session_id: tabA, selected_instance_id: null });
    expect(first.statusCode).toBe(200);
    expect(first.json().present).toEqual([
      {
        session_id: tabA,
        user_id: organization.admin.id,
        user_name: 'Ada Admin',
        selected_instance_id: null,
        left: false,
      },
    ]);
    expect((await viewer.next('presence_changed')).data).toMatchObject({
      type: 'presence_changed',
      email_id: emailId,
      presence: { session_id: tabA, user_name: 'Ada Admin', left: false },
    });

    // A role with no permission at all still reads emails of its team's projects, so it is present too.
    const second = await announce(colleague, { session_id: tabB, selected_instance_id: 'hero-1' });
    expect(second.statusCode).toBe(200);
    expect(second.json().present.map((entry: { session_id: string }) => entry.session_id)).toEqual([
      tabA,
      tabB,
    ]);
    expect((await viewer.next('presence_changed')).data).toMatchObject({
      presence: { session_id: tabB, user_name: 'Grace Tester', selected_instance_id: 'hero-1' },
    });
  });

  it('a closing tab leaves at once; nobody can close another person’s tab', async () => {
    await announce(admin, { session_id: tabA, selected_instance_id: null });
    await announce(colleague, { session_id: tabB, selected_instance_id: null });
    const viewer = await follow();
    const hijack = await app.inject({
      method: 'DELETE',
      url: `${presenceUrl()}/${tabA}`,
      headers: colleague,
    });
    expect(hijack.statusCode).toBe(404);
    const claimed = await announce(colleague, { session_id: tabA, selected_instance_id: 'x' });
    expect(
      claimed.json().present.find((entry: { session_id: string }) => entry.session_id === tabA),
    ).toMatchObject({
      user_id: organization.admin.id,
      selected_instance_id: null,
    });

    const left = await app.inject({ method: 'DELETE', url: `${presenceUrl()}/${tabB}`, headers: colleague });
    expect(left.statusCode).toBe(204);
    expect((await viewer.next('presence_changed')).data).toMatchObject({
      presence: { session_id: tabB, left: true },
    });
    expect(app.emailEvents.presence.present(emailId).map((entry) => entry.session_id)).toEqual([tabA]);
  });

  it('refuses emails the caller may not see and bad input', async () => {
    const outsider = await createTestOrganization(app);
    const outsiderHeaders = await signInAs(app, outsider.admin);
    expect(
      (await announce(outsiderHeaders, { session_id: tabA, selected_instance_id: null })).statusCode,
    ).toBe(404);
    expect(
      (
        await announce(
          outsiderHeaders,
          { session_id: tabA, selected_instance_id: null },
          presenceUrl(emailId, outsider.workspaceId),
        )
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await app.inject({
          method: 'DELETE',
          url: `${presenceUrl(emailId, outsider.workspaceId)}/${tabA}`,
          headers: outsiderHeaders,
        })
      ).statusCode,
    ).toBe(404);
    // A member of the workspace outside the email's team does not see its project.
    const stranger = await signInAs(app, await createTestUser(app, organization, { role: 'Editor' }));
    expect((await announce(stranger, { session_id: tabA, selected_instance_id: null })).statusCode).toBe(404);
    expect(
      (
        await app.inject({
          method: 'PUT',
          url: presenceUrl(),
          payload: { session_id: tabA, selected_instance_id: null },
        })
      ).statusCode,
    ).toBe(401);

    const bad = await announce(admin, { session_id: 'no', selected_instance_id: 5 });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors).sort()).toEqual(['selected_instance_id', 'session_id']);
  });

  it('forgets a tab not heard of for 30 seconds', async () => {
    let now = 1_000_000;
    const hub = app.emailEvents.hub;
    const registry = new EmailPresenceRegistry({ hub, now: () => now });
    const { db } = app.services.database;
    const presence = { user_id: 1, user_name: 'Ada', selected_instance_id: null, left: false };
    // The registry also hears its own announcement back from the channel, which PostgreSQL delivers
    // a moment later: the clock moves on only once that echo is in, as it would in real time.
    const announcedAndEchoed = async (sessionId: string) => {
      let heard: () => void = () => undefined;
      const echoed = new Promise<void>((resolve) => {
        heard = resolve;
      });
      const stop = await hub.watch(emailId, (event) => {
        if (event.type === 'presence_changed' && event.presence.session_id === sessionId) heard();
      });
      await registry.announce(db, emailId, { ...presence, session_id: sessionId });
      await echoed;
      stop();
    };
    await announcedAndEchoed(tabA);
    now += presenceTimeoutMs / 2;
    await announcedAndEchoed(tabB);
    expect(registry.present(emailId).map((entry) => entry.session_id)).toEqual([tabA, tabB]);
    now += presenceTimeoutMs / 2;
    expect(registry.present(emailId).map((entry) => entry.session_id)).toEqual([tabB]);
    now += presenceTimeoutMs;
    expect(registry.present(emailId)).toEqual([]);
  });

  it('hears tabs served by another server process, through the database channel', async () => {
    const otherProcessHub = new EmailEventHub({ database: app.services.database, log: app.log });
    closers.push(() => otherProcessHub.close());
    const otherProcess = new EmailPresenceRegistry({ hub: otherProcessHub });
    const { db } = app.services.database;
    const here = {
      session_id: tabB,
      user_id: 7,
      user_name: 'Grace',
      selected_instance_id: null,
      left: false,
    };
    await otherProcess.announce(db, emailId, here);
    const thirdTab = '33333333-cccc-4ccc-8ccc-cccccccccccc';
    await announce(admin, { session_id: thirdTab, selected_instance_id: 'footer' });
    await expect
      .poll(() => otherProcess.present(emailId).find((entry) => entry.session_id === thirdTab))
      .toMatchObject({ selected_instance_id: 'footer', user_name: 'Ada Admin' });
  });
});
