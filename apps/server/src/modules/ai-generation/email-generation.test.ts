import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type AiWorkspace, startAiWorkspace } from '../../test/ai-workspace.ts';
import {
  createTestOrganization,
  signInAs,
  signInMemberWith,
  type TestOrganization,
} from '../../test/factories.ts';
import type { ChatResponseFormat, FakeOpenAi, OpenAiRequestBody } from '../../test/fakes/fake-openai.ts';
import { buildTestApp, type TestApp } from '../../test/harness.ts';

type Headers = Record<string, string>;
type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** The structured-output schema a chat request asked for. */
function requestedSchema<Schema>(body: OpenAiRequestBody | undefined): Schema {
  return (body?.response_format as ChatResponseFormat | undefined)?.json_schema?.schema as Schema;
}

/** A built email as a model would answer: a heading and a button of the Starter system. */
const parisEmail = {
  subject: 'Paris in spring',
  preheader: 'Three nights from €299',
  sections: [
    { component: 'heading', values: { text: 'Paris is calling', level: 'h1', align: 'center' } },
    {
      component: 'rich_text',
      values: { body: '<p>Walk the <b>Seine</b> at dawn.</p><script>steal()</script>', align: 'left' },
    },
    {
      component: 'button',
      values: { text: 'Book now', url: 'https://travel.example/paris', style: 'primary', align: 'center' },
    },
  ],
};

describe('emails written with AI', () => {
  let app: TestApp;
  let fake: FakeOpenAi;
  let organization: TestOrganization;
  let admin: Headers;
  let base: string;
  let teamId: number;
  let projectId: number;
  let starterId: number;

  const call = (method: Method, url: string, payload?: object, headers: Headers = admin) =>
    app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  const create = (extra: object, headers: Headers = admin) =>
    call(
      'POST',
      `${base}/emails`,
      { name: 'Paris', email_design_system_id: starterId, project_id: projectId, ...extra },
      headers,
    );

  async function waitForGeneration(id: number) {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const email = (await call('GET', `${base}/emails/${id}`)).json();
      if (email.ai_generation_status !== 'generating' || Date.now() > deadline) return email;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  const chatRequests = () => fake.seen.filter((request) => request.path === '/v1/chat/completions');
  const userText = (body: OpenAiRequestBody | undefined) =>
    (body?.messages ?? [])
      .map((message) => (typeof message.content === 'string' ? message.content : ''))
      .join('\n');

  let workspace: AiWorkspace;
  beforeAll(async () => {
    workspace = await startAiWorkspace();
    ({ fake, app, organization, admin, base, starterId, teamId, projectId } = workspace);
  });
  beforeEach(() => fake.reset());
  afterAll(() => workspace.close());

  it('creates the email at once and fills it in from the brief, as a version attributed to the AI', async () => {
    fake.script({ kind: 'json', value: parisEmail });
    const created = await create({ create_with_ai: true, prompt: 'A spring weekend in Paris' });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json()).toMatchObject({
      create_with_ai: true,
      prompt: 'A spring weekend in Paris',
      ai_generation_status: 'generating',
    });

    const email = await waitForGeneration(created.json().id);
    expect(email).toMatchObject({ ai_generation_status: 'done', ai_generation_error: null });
    expect(email.email_content.subject.branch_content.null_branch['en-US']).toBe('Paris in spring');
    const instances = email.email_content.component_instances;
    expect(instances).toHaveLength(3);
    expect(instances[0].field_values.null_branch['en-US'].text).toEqual({ value: 'Paris is calling' });
    // Rich text passed the allow-list: the script is gone, bold became the editor's strong.
    expect(instances[1].field_values.null_branch['en-US'].body.value).toBe(
      '<p>Walk the <strong class="es-bold">Seine</strong> at dawn.</p>',
    );
    expect(email.lock_version).toBe(created.json().lock_version + 1);

    const versions = (await call('GET', `${base}/emails/${email.id}/versions`)).json().results;
    expect(versions[0]).toMatchObject({
      ai_feature: 'email_generation',
      last_updated_by: { id: organization.admin.id },
    });

    // What the model was asked: structured output whose schema offers the usable components only.
    const [request] = chatRequests();
    expect((request?.body?.response_format as ChatResponseFormat | undefined)?.type).toBe('json_schema');
    const schemaText = JSON.stringify(request?.body?.response_format);
    expect(schemaText).toContain('"enum":["heading"]');
    expect(schemaText).not.toContain('image_url');
    expect(userText(request?.body)).toContain('A spring weekend in Paris');
    // Components are chosen by their descriptions: the system prompt carries them.
    expect(userText(request?.body)).toContain(
      'A full-width image with a headline, short text and an optional button.',
    );

    const rendered = await call('POST', `${base}/emails/${email.id}/locales/en-US/render`, {});
    expect(rendered.statusCode, rendered.body).toBe(200);
    expect(rendered.json().html).toContain('Paris is calling');
  });

  it('sends invalid output back with the validation messages and writes the repaired answer', async () => {
    fake.script(
      {
        kind: 'json',
        value: {
          ...parisEmail,
          sections: [
            {
              component: 'button',
              values: {
                text: 'A button text much longer than thirty characters',
                url: 'javascript:alert(1)',
                style: 'primary',
                align: 'center',
              },
            },
          ],
        },
      },
      { kind: 'json', value: parisEmail },
    );
    const created = await create({ create_with_ai: true, prompt: 'Paris' });
    const email = await waitForGeneration(created.json().id);
    expect(email).toMatchObject({ ai_generation_status: 'done', ai_generation_error: null });
    expect(email.email_content.component_instances).toHaveLength(3);

    const requests = chatRequests();
    expect(requests).toHaveLength(2);
    const repair = userText(requests[1]?.body);
    expect(repair).toContain('sections[0].values.text:');
    expect(repair).toContain('sections[0].values.url: must be an http(s) or mailto link');
  });

  it('after two repairs keeps the valid part, leaves the rest at defaults and says what', async () => {
    const stillInvalid = {
      ...parisEmail,
      sections: [
        { component: 'heading', values: { text: 'Kept', level: 'h2', align: 'left' } },
        { component: 'button', values: { text: 'Go', url: 'ftp://nope', style: 'primary', align: 'center' } },
      ],
    };
    fake.script(...[1, 2, 3].map(() => ({ kind: 'json' as const, value: stillInvalid })));
    const created = await create({ create_with_ai: true, prompt: 'Paris' });
    const email = await waitForGeneration(created.json().id);
    expect(chatRequests()).toHaveLength(3);
    expect(email.ai_generation_status).toBe('failed');
    expect(email.ai_generation_error).toContain('- Button › Link: must be an http(s) or mailto link');
    expect(email.ai_generation_error).not.toContain('sections[');
    const [heading, button] = email.email_content.component_instances;
    expect(heading.field_values.null_branch['en-US'].text).toEqual({ value: 'Kept' });
    expect(button.field_values.null_branch['en-US'].url).toBeUndefined();
    expect(button.field_values.null_branch['en-US'].text).toEqual({ value: 'Go' });
  });

  it('ends failed with the provider’s refusal in plain words when the provider is down', async () => {
    fake.script({ kind: 'error', status: 401 }, { kind: 'error', status: 401 });
    const created = await create({ create_with_ai: true, prompt: 'Paris' });
    const email = await waitForGeneration(created.json().id);
    expect(email.ai_generation_status).toBe('failed');
    expect(email.ai_generation_error).toBe(
      'The AI provider refused the API key (HTTP 401). An Admin can change it in Settings › AI.',
    );
    expect(email.email_content.component_instances).toEqual([]);
  });

  it('says a rate limit in our words with the wait the provider asked for, never its own text', async () => {
    fake.script(
      { kind: 'error', status: 429, retryAfterSeconds: 0 },
      { kind: 'error', status: 429, retryAfterSeconds: 90 },
    );
    const created = await create({ create_with_ai: true, prompt: 'Paris' });
    const email = await waitForGeneration(created.json().id);
    expect(email.ai_generation_error).toBe(
      'The AI provider is limiting requests (HTTP 429); try again in 90 seconds.',
    );
    expect(email.email_content.component_instances).toEqual([]);
  });

  it('says the provider had an error when it answers 500, and writes nothing', async () => {
    fake.script({ kind: 'error', status: 500 }, { kind: 'error', status: 500 });
    const created = await create({ create_with_ai: true, prompt: 'Paris' });
    const email = await waitForGeneration(created.json().id);
    expect(email.ai_generation_error).toBe('The AI provider had an error (HTTP 500). Try again later.');
    expect(email.ai_generation_error).not.toContain('Sorry about that');
    expect(email.email_content.component_instances).toEqual([]);
  });

  it('says the answer could not be read when every answer is malformed', async () => {
    fake.script(
      ...[1, 2, 3].map(() => ({ kind: 'text' as const, text: '{"subject": "Paris", "sections": [' })),
    );
    const created = await create({ create_with_ai: true, prompt: 'Paris' });
    const email = await waitForGeneration(created.json().id);
    expect(chatRequests()).toHaveLength(3);
    expect(email.ai_generation_error).toContain('- The AI’s answer: is not valid JSON');
    expect(email.email_content.component_instances).toEqual([]);
  });

  it('writes in the chosen agent’s voice', async () => {
    const agent = await call('POST', `${base}/ai_agents`, {
      name: 'Travel voice',
      company_name: 'Wanderly',
      tone: 'Warm and adventurous',
      guidelines: 'Always mention free cancellation.',
    });
    expect(agent.statusCode, agent.body).toBe(200);
    fake.script({ kind: 'json', value: parisEmail });
    const created = await create({ create_with_ai: true, prompt: 'Paris', ai_agent_id: agent.json().id });
    expect(created.json().ai_agent_id).toBe(agent.json().id);
    await waitForGeneration(created.json().id);
    const system = chatRequests()[0]?.body?.messages?.find((message) => message.role === 'system');
    expect(system?.content).toContain('Wanderly');
    expect(system?.content).toContain('Always mention free cancellation.');
  });

  it('refuses content edits while the AI writes, and allows them after', async () => {
    fake.script({ kind: 'json', value: parisEmail, delayMs: 400 });
    const created = (await create({ create_with_ai: true, prompt: 'Paris' })).json();
    const refused = await call('PATCH', `${base}/emails/${created.id}`, {
      email_content: created.email_content,
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors.email_content[0]).toContain('is being written by AI');
    const renamed = await call('PATCH', `${base}/emails/${created.id}`, { name: 'Paris weekend' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const done = await waitForGeneration(created.id);
    expect(done.name).toBe('Paris weekend');
    expect(done.email_content.component_instances).toHaveLength(3);
  });

  it('rewrites a layout’s sections in place, keeping their components and ids', async () => {
    const components = (
      await call('GET', `${base}/email_design_systems/${starterId}/components?per=100`)
    ).json().results;
    const headingId = components.find((component: { name: string }) => component.name === 'heading').id;
    const blank = (await create({})).json().email_content;
    const headingInstance = {
      id: '5b7d3c52-8f0e-4c1e-9a55-3d2f7c6b1a01',
      component_id: headingId,
      field_values: {},
    };
    const layout = await call('POST', `${base}/layouts`, {
      name: 'One heading',
      email_design_system_id: starterId,
      content: {
        container_component_instance: blank.container_component_instance,
        component_instances: [headingInstance],
      },
    });
    expect(layout.statusCode, layout.body).toBe(200);
    fake.script((body) => {
      const schema = requestedSchema<{ properties: { sections: { required: string[] } } }>(body);
      const sections = Object.fromEntries(
        schema.properties.sections.required.map((id) => [
          id,
          { text: 'Rome awaits', level: 'h2', align: 'left' },
        ]),
      );
      return { kind: 'json', value: { subject: 'Rome', preheader: 'Ciao', sections } };
    });
    const created = await create({
      create_with_ai: true,
      prompt: 'Rome instead',
      layout_id: layout.json().id,
    });
    const email = await waitForGeneration(created.json().id);
    expect(email).toMatchObject({ ai_generation_status: 'done', ai_generation_error: null });
    expect(email.email_content.subject.branch_content.null_branch['en-US']).toBe('Rome');
    const [instance] = email.email_content.component_instances;
    expect(instance.component_id).toBe(headingId);
    expect(instance.field_values.null_branch['en-US'].text).toEqual({ value: 'Rome awaits' });
  });

  it('clones with AI: the copy keeps the structure and its values are rewritten as asked', async () => {
    fake.script({ kind: 'json', value: parisEmail });
    const original = await waitForGeneration(
      (await create({ create_with_ai: true, prompt: 'Paris' })).json().id,
    );
    fake.reset();
    fake.script((body) => {
      const schema = requestedSchema<{
        properties: { sections: { properties: Record<string, { required: string[] }> } };
      }>(body);
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
              return [name, fixed[name] ?? (name === 'body' ? '<p>Rome at dusk.</p>' : 'Rome')];
            }),
          ),
        ]),
      );
      return { kind: 'json', value: { subject: 'Rome in spring', preheader: 'From €249', sections } };
    });
    const cloned = await call('POST', `${base}/emails/${original.id}/clone`, {
      name: 'Rome',
      clone_with_ai: true,
      prompt: 'Make it about Rome',
    });
    expect(cloned.statusCode, cloned.body).toBe(200);
    expect(cloned.json().ai_generation_status).toBe('generating');
    const copy = await waitForGeneration(cloned.json().id);
    expect(copy).toMatchObject({ ai_generation_status: 'done', ai_generation_error: null });
    expect(
      copy.email_content.component_instances.map(
        (instance: { component_id: number }) => instance.component_id,
      ),
    ).toEqual(
      original.email_content.component_instances.map(
        (instance: { component_id: number }) => instance.component_id,
      ),
    );
    expect(copy.email_content.component_instances[0].field_values.null_branch['en-US'].text).toEqual({
      value: 'Rome',
    });
    expect(copy.email_content.subject.branch_content.null_branch['en-US']).toBe('Rome in spring');
    // The prompt showed the model the email as it is.
    expect(userText(chatRequests()[0]?.body)).toContain('Paris is calling');
    const versions = (await call('GET', `${base}/emails/${copy.id}/versions`)).json().results;
    expect(versions[0].ai_feature).toBe('email_clone');
  });

  it('records the tokens used, per feature and person', async () => {
    const usage = (await call('GET', '/api/v1/ai_usage')).json();
    const generation = usage.results.find((row: { feature: string }) => row.feature === 'email_generation');
    expect(generation).toMatchObject({ user: { id: organization.admin.id } });
    expect(generation.calls).toBeGreaterThanOrEqual(5);
    expect(generation.input_tokens).toBeGreaterThan(0);
    expect(usage.totals.calls).toBeGreaterThanOrEqual(generation.calls);
  });

  it('needs a brief, an agent of the workspace, and a member allowed to create emails', async () => {
    const noPrompt = await create({ create_with_ai: true });
    expect(noPrompt.statusCode).toBe(422);
    expect(noPrompt.json().errors.prompt).toEqual(['is needed to write the email with AI']);
    const strangerAgent = await create({ create_with_ai: true, prompt: 'x', ai_agent_id: 999_999 });
    expect(strangerAgent.json().errors.ai_agent_id).toEqual(['is not an AI agent of this workspace']);
    const viewer = await signInMemberWith(app, organization, {
      adminHeaders: admin,
      teamId,
      permissions: [],
    });
    expect((await create({ create_with_ai: true, prompt: 'x' }, viewer)).statusCode).toBe(403);
  });

  describe('without a provider', () => {
    let bare: TestApp;
    let bareAdmin: Headers;
    let bareBase: string;
    let bareWorkspaceId: number;
    beforeAll(async () => {
      bare = await buildTestApp({ config: { aiDefaults: undefined } });
      const bareOrganization = await createTestOrganization(bare);
      bareAdmin = await signInAs(bare, bareOrganization.admin);
      bareWorkspaceId = bareOrganization.workspaceId;
      bareBase = `/api/v1/workspaces/${bareWorkspaceId}`;
    });
    afterAll(() => bare.close());

    it('answers 422 saying an Admin can set one up, and creates nothing', async () => {
      const bareCall = (method: Method, url: string, payload?: object) =>
        bare.inject({ method, url, headers: bareAdmin, ...(payload ? { payload } : {}) });
      const systemId = (await bareCall('GET', `${bareBase}/email_design_systems`)).json().results[0].id;
      const team = (
        await bareCall('POST', '/api/v1/teams', {
          name: 'T',
          workspace_id: bareWorkspaceId,
          badge_color: 'blue',
        })
      ).json();
      const project = (
        await bareCall('POST', `${bareBase}/projects`, { name: 'P', team_id: team.id })
      ).json();
      const refused = await bareCall('POST', `${bareBase}/emails`, {
        name: 'x',
        email_design_system_id: systemId,
        project_id: project.id,
        create_with_ai: true,
        prompt: 'A brief',
      });
      expect(refused.statusCode, refused.body).toBe(422);
      expect(refused.json()).toEqual({
        code: 'validation_failed',
        message: 'No AI provider is set up for this organization: an Admin can set one up in Settings › AI',
        errors: { ai_provider: ['is not set up: an Admin can set one up in Settings › AI'] },
      });
      expect((await bareCall('GET', `${bareBase}/emails`)).json().pagination.total).toBe(0);
      expect((await bareCall('GET', '/api/v1/ai_settings')).json()).toMatchObject({
        configured: false,
        source: 'none',
      });
    });
  });
});
