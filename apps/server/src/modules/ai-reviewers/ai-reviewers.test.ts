import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reviewAssignments } from '../../db/schema.ts';
import {
  createTestEmail,
  createTestOrganization,
  createTestUser,
  signInAs,
  type TestOrganization,
} from '../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../test/harness.ts';

describe('AI reviewers', () => {
  let app: TestApp;
  let organization: TestOrganization;
  let admin: Record<string, string>;
  let base: string;

  beforeAll(async () => {
    app = await buildTestApp();
    organization = await createTestOrganization(app);
    admin = await signInAs(app, organization.admin);
    base = `/api/v1/workspaces/${organization.workspaceId}/ai_reviewers`;
  });
  afterAll(() => app.close());

  const request = (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    payload?: object,
    headers = admin,
  ) => app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  let named = 0;
  const reviewer = () => ({
    name: `Tone checker ${++named}`,
    review_instructions: 'Check that the tone stays friendly and that prices name their conditions.',
  });

  it('creates, reads, lists, updates and deletes a reviewer', async () => {
    const body = reviewer();
    const created = await request('POST', base, body);
    expect(created.statusCode, created.body).toBe(200);
    const item = created.json();
    expect(item).toEqual({
      id: expect.any(Number),
      ...body,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect((await request('GET', `${base}/${item.id}`)).json()).toEqual(item);
    expect((await request('GET', base)).json().results.map((r: { id: number }) => r.id)).toContain(item.id);
    const updated = await request('PATCH', `${base}/${item.id}`, { review_instructions: 'Be terse.' });
    expect(updated.json()).toMatchObject({ name: body.name, review_instructions: 'Be terse.' });
    expect((await request('DELETE', `${base}/${item.id}`)).statusCode).toBe(204);
    expect((await request('GET', `${base}/${item.id}`)).statusCode).toBe(404);
  });

  it('needs a name unique in the workspace (case aside) and instructions, within their limits', async () => {
    const first = (await request('POST', base, reviewer())).json();
    const clash = await request('POST', base, { ...reviewer(), name: first.name.toUpperCase() });
    expect(clash.statusCode).toBe(422);
    expect(clash.json().errors).toEqual({ name: ['is already taken by another AI reviewer'] });

    const second = (await request('POST', base, reviewer())).json();
    const renamed = await request('PATCH', `${base}/${second.id}`, { name: first.name });
    expect(renamed.json().errors).toEqual({ name: ['is already taken by another AI reviewer'] });
    // Keeping its own name is no clash.
    expect((await request('PATCH', `${base}/${second.id}`, { name: second.name })).statusCode).toBe(200);

    const missing = await request('POST', base, {});
    expect(missing.json().errors).toEqual({ name: ['is required'], review_instructions: ['is required'] });
    const blank = await request('POST', base, { name: '', review_instructions: '' });
    expect(blank.json().errors).toEqual({
      name: ["can't be blank"],
      review_instructions: ["can't be blank"],
    });
    const long = await request('POST', base, {
      name: 'n'.repeat(201),
      review_instructions: 'i'.repeat(10_001),
    });
    expect(long.json().errors).toEqual({
      name: ['must be at most 200 characters'],
      review_instructions: ['must be at most 10000 characters'],
    });
  });

  it('allows the same name in another workspace', async () => {
    const body = reviewer();
    await request('POST', base, body);
    const workspace = (
      await request('POST', '/api/v1/workspaces', { name: `Second ${named}`, auto_join: false })
    ).json();
    const elsewhere = await request('POST', `/api/v1/workspaces/${workspace.id}/ai_reviewers`, body);
    expect(elsewhere.statusCode, elsewhere.body).toBe(200);
    // And the first workspace does not see it.
    expect((await request('GET', `${base}/${elsewhere.json().id}`)).statusCode).toBe(404);
  });

  it('withdraws the review requests made of a reviewer it deletes', async () => {
    const item = (await request('POST', base, reviewer())).json();
    const emailId = await createTestEmail(app, organization, { name: 'Spring sale', content: {} });
    const asked = await request(
      'POST',
      `/api/v1/workspaces/${organization.workspaceId}/emails/${emailId}/review_assignments`,
      { assignee_type: 'AiReviewer', assignee_id: item.id },
    );
    expect(asked.statusCode, asked.body).toBe(200);
    expect((await request('DELETE', `${base}/${item.id}`)).statusCode).toBe(204);
    const left = await app.services.database.db
      .select()
      .from(reviewAssignments)
      .where(
        and(eq(reviewAssignments.assigneeType, 'AiReviewer'), eq(reviewAssignments.assigneeId, item.id)),
      );
    expect(left).toEqual([]);
  });

  it('needs the create, update and delete keys; a role without them reads only', async () => {
    const item = (await request('POST', base, reviewer())).json();
    const editor = await signInAs(app, await createTestUser(app, organization, { role: 'Editor' }));
    expect((await request('GET', `${base}/${item.id}`, undefined, editor)).statusCode).toBe(200);
    for (const [method, url, body, key] of [
      ['POST', base, reviewer(), 'create_ai_reviewers'],
      ['PATCH', `${base}/${item.id}`, { name: 'Mine' }, 'update_ai_reviewers'],
      ['DELETE', `${base}/${item.id}`, undefined, 'delete_ai_reviewers'],
    ] as const) {
      const response = await request(method, url, body, editor);
      expect(response.statusCode, `${method} ${url}`).toBe(403);
      expect(response.json().message).toBe(`You need the ${key} permission to do this`);
    }
  });

  it('answers 404 to another organization', async () => {
    const item = (await request('POST', base, reviewer())).json();
    const other = await createTestOrganization(app);
    const outsider = await signInAs(app, other.admin);
    const ownBase = `/api/v1/workspaces/${other.workspaceId}/ai_reviewers`;
    expect((await request('GET', `${ownBase}/${item.id}`, undefined, outsider)).statusCode).toBe(404);
    expect((await request('PATCH', `${ownBase}/${item.id}`, { name: 'X' }, outsider)).statusCode).toBe(404);
    expect((await request('DELETE', `${ownBase}/${item.id}`, undefined, outsider)).statusCode).toBe(404);
    expect((await request('GET', base, undefined, outsider)).statusCode).toBe(404);
  });
});
