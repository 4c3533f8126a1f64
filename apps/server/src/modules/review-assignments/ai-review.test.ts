import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { aiNotConfiguredMessage } from '../../integrations/ai/ai-client.ts';
import {
  createTestEmail,
  createTestOrganization,
  signInAs,
  type TestOrganization,
} from '../../test/factories.ts';
import { type FakeOpenAi, type OpenAiRequestBody, startFakeOpenAi } from '../../test/fakes/fake-openai.ts';
import { buildAiTestApp, buildTestApp, type TestApp } from '../../test/harness.ts';
import { type EmailEvent, emailEventsChannel } from '../emails/email-events.ts';

type Headers = Record<string, string>;
type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

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

const textOf = (message: { content?: unknown }) =>
  typeof message.content === 'string' ? message.content : '';
const systemText = (body: OpenAiRequestBody | undefined) =>
  (body?.messages ?? [])
    .filter((message) => message.role === 'system')
    .map(textOf)
    .join('\n');
const userText = (body: OpenAiRequestBody | undefined) =>
  (body?.messages ?? [])
    .filter((message) => message.role === 'user')
    .map(textOf)
    .join('\n');
const lastUserText = (body: OpenAiRequestBody | undefined) =>
  textOf((body?.messages ?? []).filter((message) => message.role === 'user').at(-1) ?? {});

describe('AI reviewers that review', () => {
  let app: TestApp;
  let fake: FakeOpenAi;
  let organization: TestOrganization;
  let admin: Headers;
  let base: string;
  let emailBase: string;
  let events: Awaited<ReturnType<typeof recordEmailEvents>>;
  const headingId = randomUUID();
  const buttonId = randomUUID();

  const call = (method: Method, url: string, payload?: object, headers: Headers = admin) =>
    app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  const chatRequests = () => fake.seen.filter((request) => request.path === '/v1/chat/completions');
  const newReviewer = async (name: string, instructions = 'Every call to action names the price.') => {
    const response = await call('POST', `${base}/ai_reviewers`, { name, review_instructions: instructions });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as { id: number; name: string };
  };
  const assign = async (reviewerId: number) => {
    const response = await call('POST', `${emailBase}/review_assignments`, {
      assignee_type: 'AiReviewer',
      assignee_id: reviewerId,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };
  const runAgain = (assignmentId: number) =>
    call('POST', `${emailBase}/review_assignments/${assignmentId}/run_ai_review`);
  async function waitForReview(assignmentId: number) {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const list = (await call('GET', `${emailBase}/review_assignments?per=100`)).json();
      const assignment = list.results.find((candidate: { id: number }) => candidate.id === assignmentId);
      if (assignment?.ai_review_status !== 'running' || Date.now() > deadline) return assignment;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  const commentsBy = async (reviewerId: number, locale: string) =>
    (await call('GET', `${emailBase}/email_comments?locale=${locale}&per=100`))
      .json()
      .results.filter(
        (comment: { author_type: string; author: { id: number } | null }) =>
          comment.author_type === 'AiReviewer' && comment.author?.id === reviewerId,
      );

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    app = await buildAiTestApp(fake);
    organization = await createTestOrganization(app);
    admin = await signInAs(app, organization.admin);
    base = `/api/v1/workspaces/${organization.workspaceId}`;
    const starterId = (await call('GET', `${base}/email_design_systems`))
      .json()
      .results.find((system: { name: string }) => system.name === 'Letterset Starter').id;
    const components = (
      await call('GET', `${base}/email_design_systems/${starterId}/components?per=100`)
    ).json().results as { id: number; name: string }[];
    const componentId = (name: string) => components.find((component) => component.name === name)?.id;
    const teamId = (
      await call('POST', '/api/v1/teams', {
        name: 'Sales',
        workspace_id: organization.workspaceId,
        badge_color: 'blue',
      })
    ).json().id;
    const projectId = (await call('POST', `${base}/projects`, { name: 'Campaigns', team_id: teamId })).json()
      .id;
    const agent = (
      await call('POST', `${base}/ai_agents`, {
        name: 'Acme voice',
        company_name: 'Acme Shoes',
        guidelines: 'Never promise free shipping.',
      })
    ).json();
    const created = await call('POST', `${base}/emails`, {
      name: 'Spring sale',
      email_design_system_id: starterId,
      project_id: projectId,
      locales: ['en-US', 'fr-FR'],
      ai_agent_id: agent.id,
    });
    expect(created.statusCode, created.body).toBe(200);
    const email = created.json();
    emailBase = `${base}/emails/${email.id}`;
    const both = (en: Record<string, unknown>, fr: Record<string, unknown>) => ({
      null_branch: {
        'en-US': Object.fromEntries(Object.entries(en).map(([key, value]) => [key, { value }])),
        'fr-FR': Object.fromEntries(Object.entries(fr).map(([key, value]) => [key, { value }])),
      },
    });
    const patched = await call('PATCH', emailBase, {
      lock_version: email.lock_version,
      email_content: {
        ...email.email_content,
        subject: {
          branch_content: { null_branch: { 'en-US': 'Spring sale', 'fr-FR': 'Soldes de printemps' } },
        },
        preheader: {
          branch_content: { null_branch: { 'en-US': 'Free shipping!', 'fr-FR': 'Livraison offerte !' } },
        },
        component_instances: [
          {
            id: headingId,
            component_id: componentId('heading'),
            field_values: both({ text: 'Shoes for spring' }, { text: 'Des chaussures pour le printemps' }),
          },
          {
            id: buttonId,
            component_id: componentId('button'),
            field_values: both(
              { text: 'Shop now', url: 'https://shoes.example/' },
              { text: 'Acheter', url: 'https://shoes.example/fr' },
            ),
          },
        ],
      },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    events = await recordEmailEvents(app);
  });
  beforeEach(() => fake.reset());
  afterAll(async () => {
    await events.stop();
    await app.close();
    await fake.close();
  });

  it('reviews each locale and posts pinned comments authored by the reviewer: running, then done', async () => {
    const reviewer = await newReviewer('Brand voice');
    fake.script(
      {
        kind: 'json',
        value: {
          comments: [
            { component_instance_id: buttonId, body: 'The button names no price: say “Shop from $49”.' },
            { component_instance_id: buttonId, body: 'Use {{ first_name }} nowhere in a button.' },
            {
              component_instance_id: null,
              body: 'The preheader promises free shipping, which the guidelines forbid.',
            },
          ],
        },
      },
      {
        kind: 'json',
        value: { comments: [{ component_instance_id: headingId, body: 'Le titre ne cite aucun prix.' }] },
      },
    );
    const assignment = await assign(reviewer.id);
    expect(assignment).toMatchObject({
      assignee_type: 'AiReviewer',
      assignee: { id: reviewer.id, name: 'Brand voice' },
      ai_review_status: 'running',
      ai_review_error: null,
    });

    const finished = await waitForReview(assignment.id);
    expect(finished).toMatchObject({ ai_review_status: 'done', ai_review_error: null });

    const english = await commentsBy(reviewer.id, 'en-US');
    expect(english).toHaveLength(3);
    expect(english[0]).toMatchObject({
      locale: 'en-US',
      author_type: 'AiReviewer',
      author: { id: reviewer.id, name: 'Brand voice' },
      parent_id: null,
      pin_data: {
        id: expect.any(String),
        component_instance_id: buttonId,
        branch_key: null,
        coordinates: { center_offset_x_px: 0, y: 12 },
      },
      pin_detached: false,
      body: 'The button names no price: say “Shop from $49”.',
      resolved: false,
    });
    // A second comment on the same section sits beside the first; template syntax stays text.
    expect(english[1].pin_data.coordinates).toEqual({ center_offset_x_px: 28, y: 12 });
    expect(english[1].body).toBe('Use { { first_name }} nowhere in a button.');
    expect(english[2].pin_data).toMatchObject({
      component_instance_id: null,
      coordinates: { center_offset_x_px: 0, y: 12 },
    });
    const french = await commentsBy(reviewer.id, 'fr-FR');
    expect(french).toHaveLength(1);
    expect(french[0]).toMatchObject({
      locale: 'fr-FR',
      author: { id: reviewer.id, name: 'Brand voice' },
      pin_data: { component_instance_id: headingId },
      body: 'Le titre ne cite aucun prix.',
    });

    // What the model was asked: one request a locale, each with the reviewer's instructions, the
    // agent's guidelines and that locale's sections, by id.
    const [englishRequest, frenchRequest] = chatRequests();
    expect(chatRequests()).toHaveLength(2);
    for (const request of [englishRequest, frenchRequest]) {
      expect(request?.body?.response_format).toMatchObject({ type: 'json_schema' });
      expect(systemText(request?.body)).toContain('Every call to action names the price.');
      expect(systemText(request?.body)).toContain('Never promise free shipping.');
      expect(systemText(request?.body)).toContain('Acme Shoes');
    }
    const englishAsked = userText(englishRequest?.body);
    expect(englishAsked).toContain('(en-US)');
    expect(englishAsked).toContain(headingId);
    expect(englishAsked).toContain(buttonId);
    expect(englishAsked).toContain('Shoes for spring');
    expect(englishAsked).toContain('Free shipping!');
    expect(englishAsked).not.toContain('Acheter');
    const frenchAsked = userText(frenchRequest?.body);
    expect(frenchAsked).toContain('(fr-FR)');
    expect(frenchAsked).toContain('Des chaussures pour le printemps');
    expect(frenchAsked).toContain('Soldes de printemps');
    expect(JSON.stringify(frenchRequest?.body?.response_format)).toContain(buttonId);

    // People viewing the email hear of the comments of each locale.
    await expect
      .poll(() => events.events)
      .toEqual(
        expect.arrayContaining([
          { type: 'comments_changed', email_id: assignment.email_id, locale: 'en-US' },
          { type: 'comments_changed', email_id: assignment.email_id, locale: 'fr-FR' },
          { type: 'review_changed', email_id: assignment.email_id },
        ]),
      );

    // The tokens count under the AI review feature, on behalf of who asked.
    const usage = (await call('GET', '/api/v1/ai_usage')).json();
    expect(usage.results).toContainEqual(
      expect.objectContaining({
        feature: 'ai_review',
        user: expect.objectContaining({ id: organization.admin.id }),
        calls: 2,
      }),
    );
  });

  it('sends an unknown section id back for a repair and posts the repaired comment', async () => {
    const reviewer = await newReviewer('Legal wording');
    fake.script(
      {
        kind: 'json',
        value: { comments: [{ component_instance_id: 'hero-1', body: 'Add the conditions of the offer.' }] },
      },
      {
        kind: 'json',
        value: { comments: [{ component_instance_id: headingId, body: 'Add the conditions of the offer.' }] },
      },
      { kind: 'json', value: { comments: [] } },
    );
    const assignment = await assign(reviewer.id);
    expect(await waitForReview(assignment.id)).toMatchObject({
      ai_review_status: 'done',
      ai_review_error: null,
    });

    const requests = chatRequests();
    expect(requests).toHaveLength(3);
    const repair = lastUserText(requests[1]?.body);
    expect(repair).toContain('comments.0.component_instance_id');
    expect(repair).toContain('“hero-1” is not the id of a section of this email');
    const english = await commentsBy(reviewer.id, 'en-US');
    expect(english).toHaveLength(1);
    expect(english[0]).toMatchObject({
      pin_data: { component_instance_id: headingId },
      body: 'Add the conditions of the offer.',
    });
    expect(await commentsBy(reviewer.id, 'fr-FR')).toEqual([]);
  });

  it('ends failed with the provider’s refusal in plain words, posts nothing, and runs again', async () => {
    const reviewer = await newReviewer('Tone');
    fake.script({ kind: 'error', status: 401 });
    const assignment = await assign(reviewer.id);
    const failed = await waitForReview(assignment.id);
    expect(failed).toMatchObject({
      ai_review_status: 'failed',
      ai_review_error:
        'The AI provider refused the API key (HTTP 401). An Admin can change it in Settings › AI.',
    });
    expect(await commentsBy(reviewer.id, 'en-US')).toEqual([]);
    // The editor's Review tab hears of the failure, to show it with Try again.
    await expect
      .poll(() => events.events)
      .toContainEqual({ type: 'review_changed', email_id: assignment.email_id });

    fake.script(
      { kind: 'json', value: { comments: [{ component_instance_id: buttonId, body: 'Name the price.' }] } },
      { kind: 'json', value: { comments: [] } },
    );
    const again = await runAgain(assignment.id);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({
      id: assignment.id,
      ai_review_status: 'running',
      ai_review_error: null,
    });
    expect(await waitForReview(assignment.id)).toMatchObject({
      ai_review_status: 'done',
      ai_review_error: null,
    });
    expect((await commentsBy(reviewer.id, 'en-US')).map((comment: { body: string }) => comment.body)).toEqual(
      ['Name the price.'],
    );

    // A third run is told of the open comment, so that it does not repeat it.
    fake.reset();
    fake.script(
      { kind: 'json', value: { comments: [] }, delayMs: 300 },
      { kind: 'json', value: { comments: [] } },
    );
    expect((await runAgain(assignment.id)).statusCode).toBe(200);
    // While it runs, running it again is refused.
    const twice = await runAgain(assignment.id);
    expect(twice.statusCode, twice.body).toBe(422);
    expect(twice.json()).toEqual({
      code: 'validation_failed',
      message: 'This AI review is already running',
      errors: { ai_review_status: ['is running: wait for this review to finish'] },
    });
    expect(await waitForReview(assignment.id)).toMatchObject({ ai_review_status: 'done' });
    expect(userText(chatRequests()[0]?.body)).toContain(`[${buttonId}] Name the price.`);
  });

  it.each([
    [429, 'The AI provider is limiting requests (HTTP 429); try again in 30 seconds.'],
    [500, 'The AI provider had an error (HTTP 500). Try again later.'],
  ])(
    'tells a provider failure (HTTP %i) in Letterset’s words, never the provider’s',
    async (status, message) => {
      const reviewer = await newReviewer(`Words ${status}`);
      const providerText = 'Rate limit reached for gpt-x in organization org-123 on requests per min';
      // The client waits as asked once (no wait here), then gives up when asked to wait 30 s.
      fake.script(
        { kind: 'error', status, message: providerText, retryAfterSeconds: 0 },
        { kind: 'error', status, message: providerText, retryAfterSeconds: 30 },
      );
      const assignment = await assign(reviewer.id);
      const failed = await waitForReview(assignment.id);
      expect(failed).toMatchObject({ ai_review_status: 'failed', ai_review_error: message });
    },
  );

  it('runs only an AI reviewer’s review, of a request of this email', async () => {
    const person = await call('POST', `${emailBase}/review_assignments`, {
      assignee_type: 'User',
      assignee_id: organization.admin.id,
    });
    expect(person.json()).toMatchObject({ ai_review_status: null, ai_review_error: null });
    const refused = await runAgain(person.json().id);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors).toEqual({
      review_assignment_id: ['asks a person or a role: only an AI reviewer’s review runs'],
    });
    expect((await runAgain(2_000_000_000)).statusCode).toBe(404);
  });

  it('without an AI provider, makes the request but ends it failed with the reason; run again fails the same', async () => {
    const bare = await buildTestApp();
    try {
      const other = await createTestOrganization(bare);
      const headers = await signInAs(bare, other.admin);
      const emailId = await createTestEmail(bare, other, { name: 'No AI', content: {} });
      const workspaceBase = `/api/v1/workspaces/${other.workspaceId}`;
      const reviewer = (
        await bare.inject({
          method: 'POST',
          url: `${workspaceBase}/ai_reviewers`,
          headers,
          payload: { name: 'Brand voice', review_instructions: 'Check the tone.' },
        })
      ).json();
      const assigned = await bare.inject({
        method: 'POST',
        url: `${workspaceBase}/emails/${emailId}/review_assignments`,
        headers,
        payload: { assignee_type: 'AiReviewer', assignee_id: reviewer.id },
      });
      expect(assigned.statusCode, assigned.body).toBe(200);
      expect(assigned.json()).toMatchObject({
        ai_review_status: 'failed',
        ai_review_error: aiNotConfiguredMessage,
      });
      expect(aiNotConfiguredMessage).toContain('Settings › AI');

      const again = await bare.inject({
        method: 'POST',
        url: `${workspaceBase}/emails/${emailId}/review_assignments/${assigned.json().id}/run_ai_review`,
        headers,
      });
      expect(again.statusCode, again.body).toBe(200);
      expect(again.json()).toMatchObject({
        ai_review_status: 'failed',
        ai_review_error: aiNotConfiguredMessage,
      });
    } finally {
      await bare.close();
    }
  });
});
