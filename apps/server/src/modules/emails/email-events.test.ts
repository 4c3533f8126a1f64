import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventStreamReader } from '../../test/event-stream-client.ts';
import { createTestOrganization, signInAs, type TestOrganization } from '../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../test/harness.ts';
import { announceEmailEvent } from './email-events.ts';

/** An email of the Starter design system, made through the API as a person would. */
async function createEmail(
  app: TestApp,
  organization: TestOrganization,
  headers: Record<string, string>,
  name: string,
): Promise<number> {
  const base = `/api/v1/workspaces/${organization.workspaceId}`;
  const post = async (url: string, payload: object) =>
    (await app.inject({ method: 'POST', url, headers, payload })).json();
  const systems = (await app.inject({ method: 'GET', url: `${base}/email_design_systems`, headers })).json();
  const starter = systems.results.find((system: { name: string }) => system.name === 'Letterset Starter');
  const team = await post('/api/v1/teams', {
    name: `Team of ${name}`,
    workspace_id: organization.workspaceId,
    badge_color: 'blue',
  });
  const project = await post(`${base}/projects`, { name: `Project of ${name}`, team_id: team.id });
  return (await post(`${base}/emails`, { name, email_design_system_id: starter.id, project_id: project.id }))
    .id;
}

describe('live email events', () => {
  let app: TestApp;
  let baseUrl: string;
  let organization: TestOrganization;
  let admin: Record<string, string>;
  let emailId: number;
  const readers: EventStreamReader[] = [];

  const eventsUrl = (id: number, workspaceId = organization.workspaceId) =>
    `${baseUrl}/api/v1/workspaces/${workspaceId}/emails/${id}/events`;
  async function follow(id: number, headers = admin): Promise<EventStreamReader> {
    const response = await fetch(eventsUrl(id), { headers });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
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
    emailId = await createEmail(app, organization, admin, 'Spring sale');
  });

  afterAll(async () => {
    await Promise.all(readers.map((reader) => reader.close()));
    await app.close();
  });

  it('tells every viewer of an email what changed, and nobody else', async () => {
    const [first, second] = [await follow(emailId), await follow(emailId)];
    const otherEmail = await createEmail(app, organization, admin, 'Other');
    const otherViewer = await follow(otherEmail);

    const renamed = await app.inject({
      method: 'PATCH',
      url: `/api/v1/workspaces/${organization.workspaceId}/emails/${emailId}`,
      headers: admin,
      payload: { name: 'Spring sale, final' },
    });
    expect(renamed.statusCode).toBe(200);
    const expected = {
      type: 'content_changed',
      email_id: emailId,
      lock_version: renamed.json().lock_version,
    };
    expect((await first?.next('content_changed'))?.data).toEqual(expected);
    expect((await second?.next('content_changed'))?.data).toEqual(expected);
    await expect(otherViewer.next('content_changed', 300)).rejects.toThrow('no "content_changed" event');
  });

  it('announces only what a transaction committed', async () => {
    const viewer = await follow(emailId);
    await app.services.database.db
      .transaction(async (tx) => {
        await announceEmailEvent(tx, { type: 'review_changed', email_id: emailId });
        throw new Error('rolled back');
      })
      .catch(() => {});
    await announceEmailEvent(app.services.database.db, {
      type: 'status_changed',
      email_id: emailId,
      status: 'in_review',
    });
    expect((await viewer.next('status_changed')).data).toMatchObject({ status: 'in_review' });
    await expect(viewer.next('review_changed', 300)).rejects.toThrow();
  });

  it('refuses emails the caller may not see, before streaming anything', async () => {
    const outsider = await createTestOrganization(app);
    const response = await fetch(eventsUrl(emailId, outsider.workspaceId), {
      headers: await signInAs(app, outsider.admin),
    });
    expect(response.status).toBe(404);
    const anonymous = await fetch(eventsUrl(emailId));
    expect(anonymous.status).toBe(401);
  });

  it('lets viewers go: a closed stream stops being written to', async () => {
    const before = app.emailEvents.hub.viewerCount;
    const viewer = await follow(emailId);
    expect(app.emailEvents.hub.viewerCount).toBe(before + 1);
    await viewer.close();
    await expect.poll(() => app.emailEvents.hub.viewerCount).toBe(before);
  });

  it('ends open streams when the server closes, so closing never waits on a viewer', async () => {
    const closing = await buildTestApp();
    const url = await closing.listen({ host: '127.0.0.1', port: 0 });
    const own = await createTestOrganization(closing);
    const headers = await signInAs(closing, own.admin);
    const id = await createEmail(closing, own, headers, 'Closing time');
    const response = await fetch(`${url}/api/v1/workspaces/${own.workspaceId}/emails/${id}/events`, {
      headers,
    });
    const reader = new EventStreamReader(response);
    await reader.next('ready');
    await closing.close();
    await reader.ended();
  });
});
