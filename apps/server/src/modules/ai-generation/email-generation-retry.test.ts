import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { emails } from '../../db/schema.ts';
import { type AiWorkspace, startAiWorkspace } from '../../test/ai-workspace.ts';
import { signInMemberWith, type TestOrganization } from '../../test/factories.ts';
import type { ChatResponseFormat, FakeOpenAi, OpenAiRequestBody } from '../../test/fakes/fake-openai.ts';
import type { TestApp } from '../../test/harness.ts';

type Headers = Record<string, string>;

/** A built email as a model would answer: a heading and a button of the Starter system. */
const parisEmail = {
  subject: 'Paris in spring',
  preheader: 'Three nights from €299',
  sections: [
    { component: 'heading', values: { text: 'Paris is calling', level: 'h1', align: 'center' } },
    {
      component: 'button',
      values: { text: 'Book now', url: 'https://travel.example/paris', style: 'primary', align: 'center' },
    },
  ],
};

describe('an email’s AI generation, run again', () => {
  let app: TestApp;
  let fake: FakeOpenAi;
  let organization: TestOrganization;
  let admin: Headers;
  let base: string;
  let teamId: number;
  let projectId: number;
  let starterId: number;

  const call = (method: 'GET' | 'POST', url: string, payload?: object, headers: Headers = admin) =>
    app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  const retry = (id: number, payload: object = {}, headers: Headers = admin) =>
    call('POST', `${base}/emails/${id}/ai_generation/retry`, payload, headers);
  const userText = (body: OpenAiRequestBody | undefined) =>
    (body?.messages ?? [])
      .map((message) => (typeof message.content === 'string' ? message.content : ''))
      .join('\n');

  async function waitForGeneration(id: number) {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const email = (await call('GET', `${base}/emails/${id}`)).json();
      if (email.ai_generation_status !== 'generating' || Date.now() > deadline) return email;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** An email whose generation failed: the provider answered 500 to both attempts. */
  async function failedEmail(prompt = 'A spring weekend in Paris') {
    fake.script({ kind: 'error', status: 500 }, { kind: 'error', status: 500 });
    const created = await call('POST', `${base}/emails`, {
      name: 'Paris',
      email_design_system_id: starterId,
      project_id: projectId,
      create_with_ai: true,
      prompt,
    });
    expect(created.statusCode, created.body).toBe(200);
    const email = await waitForGeneration(created.json().id);
    expect(email).toMatchObject({
      ai_generation_status: 'failed',
      ai_generation_error: 'The AI provider had an error (HTTP 500). Try again later.',
      prompt,
    });
    expect(email.email_content.component_instances).toEqual([]);
    fake.reset();
    return email;
  }

  let workspace: AiWorkspace;
  beforeAll(async () => {
    workspace = await startAiWorkspace();
    ({ fake, app, organization, admin, base, starterId, teamId, projectId } = workspace);
  });
  beforeEach(() => fake.reset());
  afterAll(() => workspace.close());

  it('tries a failed generation again with the same brief and fills the email in', async () => {
    const failed = await failedEmail();
    fake.script({ kind: 'json', value: parisEmail });
    const retried = await retry(failed.id);
    expect(retried.statusCode, retried.body).toBe(200);
    expect(retried.json()).toMatchObject({ ai_generation_status: 'generating', ai_generation_error: null });

    const email = await waitForGeneration(failed.id);
    expect(email).toMatchObject({
      ai_generation_status: 'done',
      ai_generation_error: null,
      prompt: 'A spring weekend in Paris',
    });
    expect(email.email_content.component_instances).toHaveLength(2);
    expect(userText(fake.seen[0]?.body)).toContain('A spring weekend in Paris');
  });

  it('runs an edited brief, which becomes the email’s brief', async () => {
    const failed = await failedEmail();
    fake.script({ kind: 'json', value: parisEmail });
    const retried = await retry(failed.id, { prompt: 'Paris for families, in May' });
    expect(retried.statusCode, retried.body).toBe(200);
    const email = await waitForGeneration(failed.id);
    expect(email).toMatchObject({ ai_generation_status: 'done', prompt: 'Paris for families, in May' });
    expect(userText(fake.seen[0]?.body)).toContain('Paris for families, in May');
  });

  it('rewrites the sections a failed clone kept, as a clone', async () => {
    fake.script({ kind: 'json', value: parisEmail });
    const created = await call('POST', `${base}/emails`, {
      name: 'Paris',
      email_design_system_id: starterId,
      project_id: projectId,
      create_with_ai: true,
      prompt: 'Paris',
    });
    const original = await waitForGeneration(created.json().id);
    fake.reset();
    fake.script({ kind: 'error', status: 429, retryAfterSeconds: 0 }, { kind: 'error', status: 429 });
    const cloned = await call('POST', `${base}/emails/${original.id}/clone`, {
      name: 'Rome',
      clone_with_ai: true,
      prompt: 'Make it about Rome',
    });
    const failedClone = await waitForGeneration(cloned.json().id);
    expect(failedClone).toMatchObject({
      status: 'draft',
      ai_generation_status: 'failed',
      ai_generation_error: 'The AI provider is limiting requests (HTTP 429); try again in 1 second.',
    });
    // The lists (project and home) mark it failed, and can show only the failed ones.
    const listed = await call(
      'GET',
      `${base}/emails?project_id=${projectId}&ai_generation_status=failed&per=100`,
    );
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json().results.map((email: { id: number }) => email.id)).toContain(failedClone.id);
    expect(listed.json().results.map((email: { id: number }) => email.id)).not.toContain(original.id);
    fake.reset();
    fake.script((body) => {
      const schema = (body.response_format as ChatResponseFormat).json_schema?.schema as {
        properties: { sections: { properties: Record<string, { required: string[] }> } };
      };
      // A rewrite: the sections the clone kept, by instance id, each with its values.
      const sections = Object.fromEntries(
        Object.entries(schema.properties.sections.properties).map(([id, values]) => [
          id,
          Object.fromEntries(
            values.required.map((name) => {
              const fixed: Record<string, unknown> = {
                level: 'h1',
                align: 'center',
                style: 'primary',
                url: 'https://travel.example/rome',
              };
              return [name, fixed[name] ?? 'Rome'];
            }),
          ),
        ]),
      );
      return { kind: 'json', value: { subject: 'Rome in spring', preheader: 'From €249', sections } };
    });
    expect((await retry(failedClone.id)).statusCode).toBe(200);
    const email = await waitForGeneration(failedClone.id);
    expect(email).toMatchObject({ ai_generation_status: 'done', ai_generation_error: null });
    expect(userText(fake.seen[0]?.body)).toContain('Make it about Rome');
    const [heading, button] = email.email_content.component_instances;
    expect(heading.id).toBe(original.email_content.component_instances[0].id);
    expect(heading.field_values.null_branch['en-US'].text).toEqual({ value: 'Rome' });
    expect(button.field_values.null_branch['en-US'].url).toEqual({ value: 'https://travel.example/rome' });
  });

  it('answers failed for an email that ended done with an error before the failed status existed', async () => {
    const failed = await failedEmail();
    await app.services.database.db
      .update(emails)
      .set({ aiGenerationStatus: 'done' })
      .where(eq(emails.id, failed.id));
    expect((await call('GET', `${base}/emails/${failed.id}`)).json().ai_generation_status).toBe('failed');
    const failedOnes = await call('GET', `${base}/emails?ai_generation_status=failed&per=100`);
    expect(failedOnes.json().results.map((email: { id: number }) => email.id)).toContain(failed.id);
    const doneOnes = await call('GET', `${base}/emails?ai_generation_status=done&per=100`);
    expect(doneOnes.json().results.map((email: { id: number }) => email.id)).not.toContain(failed.id);

    fake.script({ kind: 'json', value: parisEmail });
    expect((await retry(failed.id)).statusCode).toBe(200);
    expect(await waitForGeneration(failed.id)).toMatchObject({
      ai_generation_status: 'done',
      ai_generation_error: null,
    });
  });

  it('tries again after a malformed answer that two repairs could not mend', async () => {
    fake.script(
      ...[1, 2, 3].map(() => ({ kind: 'text' as const, text: 'Sure! Here is your email: {not json' })),
    );
    const created = await call('POST', `${base}/emails`, {
      name: 'Garbled',
      email_design_system_id: starterId,
      project_id: projectId,
      create_with_ai: true,
      prompt: 'A spring weekend in Paris',
    });
    const failed = await waitForGeneration(created.json().id);
    expect(failed.ai_generation_status).toBe('failed');
    expect(failed.ai_generation_error).not.toContain('{not json');
    fake.reset();
    fake.script({ kind: 'json', value: parisEmail });
    expect((await retry(failed.id)).statusCode).toBe(200);
    const email = await waitForGeneration(failed.id);
    expect(email).toMatchObject({ ai_generation_status: 'done', ai_generation_error: null });
    expect(email.email_content.component_instances).toHaveLength(2);
  });

  it('refuses while AI writes, for an email made by hand, without a brief, and without the key', async () => {
    const failed = await failedEmail();
    fake.script({ kind: 'json', value: parisEmail, delayMs: 1_000 });
    expect((await retry(failed.id)).statusCode).toBe(200);
    const again = await retry(failed.id);
    expect(again.statusCode, again.body).toBe(409);
    await waitForGeneration(failed.id);

    const byHand = await call('POST', `${base}/emails`, {
      name: 'By hand',
      email_design_system_id: starterId,
      project_id: projectId,
    });
    const notAi = await retry(byHand.json().id);
    expect(notAi.statusCode).toBe(422);
    expect(notAi.json().errors).toEqual({
      ai_generation_status: ['is not set: this email was not written with AI'],
    });

    const blank = await retry(failed.id, { prompt: '  ' });
    expect(blank.statusCode).toBe(422);
    expect(blank.json().errors).toEqual({ prompt: ['is needed to write the email with AI'] });

    const viewer = await signInMemberWith(app, organization, {
      adminHeaders: admin,
      teamId,
      permissions: ['create_emails'],
    });
    expect((await retry(failed.id, {}, viewer)).statusCode).toBe(403);
  });
});
