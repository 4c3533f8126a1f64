import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { aiNotConfiguredMessage } from '../../integrations/ai/ai-client.ts';
import { createTestOrganization, signInAs, type TestOrganization } from '../../test/factories.ts';
import { type FakeOpenAi, type OpenAiRequestBody, startFakeOpenAi } from '../../test/fakes/fake-openai.ts';
import { buildAiTestApp, buildTestApp, type TestApp } from '../../test/harness.ts';

type Headers = Record<string, string>;
type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** A field as the model answers it: every key present, unused ones null. */
const field = (
  type: string,
  label: string,
  liquid_variable: string,
  default_value: string | number | boolean,
  extra = {},
) => ({
  type,
  label,
  liquid_variable,
  default_value,
  hint: null,
  group: null,
  options: null,
  validations: null,
  ...extra,
});

const component = (
  name: string,
  label: string,
  template: string,
  field_definitions: ReturnType<typeof field>[],
) => ({
  name,
  label,
  description: `The ${label.toLowerCase()} of a garden centre newsletter.`,
  template,
  field_definitions,
});

const container = component(
  'container',
  'Container',
  [
    '<!DOCTYPE html>',
    '<html lang="{{ render_context.email.locale }}"><head><meta charset="utf-8"><title>{{ render_context.email.content.subject }}</title></head>',
    '<body style="margin: 0; background-color: {{ background_color }};">',
    '<table role="presentation" width="600" cellpadding="0" cellspacing="0" border="0" align="center">{{children}}</table>',
    '</body></html>',
  ].join('\n'),
  [field('color', 'Background', 'background_color', '#f0f4ef')],
);

const components = [
  component(
    'header',
    'Header',
    '<tr><td style="padding: 16px;"><img src="{{ logo_url }}" width="120" alt="{{ logo_alt }}" style="display: block;"></td></tr>',
    [
      field('image', 'Logo', 'logo_url', 'https://example.com/logo.png'),
      field('text', 'Logo description', 'logo_alt', 'Green Thumb'),
    ],
  ),
  component(
    'hero',
    'Hero',
    [
      '<tr><td align="{{ align }}" style="padding: 32px; font-family: {{ render_context.design_tokens.fonts.body }};">',
      '<h1 style="margin: 0; color: {{ render_context.design_tokens.colors.primary }};">{{ headline }}</h1>',
      '{{ body }}',
      '{% if show_button %}<a href="{{ button_url }}" style="color: #ffffff;">{{ button_text }}</a>{% endif %}',
      '</td></tr>',
    ].join('\n'),
    [
      field('text', 'Headline', 'headline', 'Spring planting starts now', {
        validations: { max_length: 80, must_not_be_blank: true, min: null, max: null },
      }),
      field('rich_text', 'Body', 'body', '<p>Everything for your garden.</p>', {
        validations: { max_length: 400, must_not_be_blank: null, min: null, max: null },
      }),
      field('boolean', 'Show button', 'show_button', true),
      field('text', 'Button text', 'button_text', 'Shop seeds', { group: 'Button' }),
      field('url', 'Button link', 'button_url', 'https://example.com/seeds', { group: 'Button' }),
      field('horizontal_align', 'Alignment', 'align', 'center', {
        options: [
          { label: 'left', value: 'left' },
          { label: 'center', value: 'center' },
        ],
      }),
    ],
  ),
  component('text_block', 'Text', '<tr><td style="padding: 0 32px;">{{ body }}</td></tr>', [
    field('rich_text', 'Text', 'body', '<p>News from the greenhouse.</p>'),
  ]),
  component(
    'button',
    'Button',
    '<tr><td style="padding: 16px 32px;"><a href="{{ url }}" class="{{ style }}">{{ text }}</a></td></tr>',
    [
      field('text', 'Text', 'text', 'Visit us'),
      field('url', 'Link', 'url', 'https://example.com'),
      field('enum', 'Style', 'style', 'primary', {
        options: [
          { label: 'Primary', value: 'primary' },
          { label: 'Secondary', value: 'secondary' },
        ],
      }),
    ],
  ),
  component(
    'spacer',
    'Spacer',
    '<tr><td style="height: {{ height }}px; line-height: {{ height }}px;">&nbsp;</td></tr>',
    [
      field('number', 'Height', 'height', 24, {
        validations: { max_length: null, must_not_be_blank: null, min: 0, max: 80 },
      }),
    ],
  ),
  component(
    'footer',
    'Footer',
    '<tr><td style="padding: 24px; color: {{ text_color }};">{{ address }}<br>{{ global_fields.background_color }}</td></tr>',
    [
      field('text', 'Address', 'address', 'Green Thumb, 1 Garden Lane'),
      field('color', 'Text colour', 'text_color', '#555555'),
    ],
  ),
];

const designTokens = [
  { path: 'colors.primary', value: '#2e7d32' },
  { path: 'fonts.body', value: 'Helvetica, Arial, sans-serif' },
];

const validDesign = { design_tokens: designTokens, container, components };

describe('design systems designed with AI', () => {
  let app: TestApp;
  let fake: FakeOpenAi;
  let organization: TestOrganization;
  let admin: Headers;
  let base: string;

  const call = (method: Method, url: string, payload?: object, headers: Headers = admin) =>
    app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  const create = (extra: object) =>
    call('POST', `${base}/email_design_systems`, {
      name: 'Garden',
      access_scope: 'this_workspace_only',
      ...extra,
    });

  /** Polls the system as a client would, until the AI is done with it. */
  async function waitForGeneration(id: number) {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const response = await call('GET', `${base}/email_design_systems/${id}`);
      expect(response.statusCode, response.body).toBe(200);
      const system = response.json();
      if (system.ai_generation_status !== 'generating' || Date.now() > deadline) return system;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  const componentsOf = async (id: number) =>
    (await call('GET', `${base}/email_design_systems/${id}/components?per=100`)).json().results as {
      id: number;
      name: string;
      container: boolean;
      field_definitions: { liquid_variable: string; options?: unknown; validations?: unknown }[];
    }[];
  const chatRequests = () => fake.seen.filter((request) => request.path === '/v1/chat/completions');
  const messagesOf = (body: OpenAiRequestBody | undefined, role: string) =>
    (body?.messages ?? [])
      .filter((message) => message.role === role)
      .map((message) => (typeof message.content === 'string' ? message.content : ''));
  const lastUserMessage = (body: OpenAiRequestBody | undefined) => messagesOf(body, 'user').at(-1) ?? '';

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    app = await buildAiTestApp(fake);
    organization = await createTestOrganization(app);
    admin = await signInAs(app, organization.admin);
    base = `/api/v1/workspaces/${organization.workspaceId}`;
  });
  beforeEach(() => fake.reset());
  afterAll(async () => {
    await app.close();
    await fake.close();
  });

  it('creates the system at once, then writes the designed components, each renderable with a version', async () => {
    fake.script({ kind: 'json', value: validDesign });
    const created = await create({
      create_with_ai: true,
      prompt: 'A newsletter for a garden centre',
      description: 'Monthly',
    });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json()).toMatchObject({
      create_with_ai: true,
      prompt: 'A newsletter for a garden centre',
      ai_generation_status: 'generating',
      ai_generation_error: null,
    });

    const system = await waitForGeneration(created.json().id);
    expect(system).toMatchObject({ ai_generation_status: 'done', ai_generation_error: null });
    expect(system.design_tokens).toEqual({
      colors: { primary: '#2e7d32' },
      fonts: { body: 'Helvetica, Arial, sans-serif' },
    });

    const written = await componentsOf(system.id);
    expect(written.map((row) => row.name)).toEqual(['container', ...components.map((entry) => entry.name)]);
    expect(written.filter((row) => row.container).map((row) => row.name)).toEqual(['container']);
    // Stored in the API's own shape: null keys gone, alignment choices as strings, no empty validations.
    const hero = written.find((row) => row.name === 'hero');
    expect(
      hero?.field_definitions.find((definition) => definition.liquid_variable === 'align'),
    ).toMatchObject({
      options: ['left', 'center'],
    });
    expect(hero?.field_definitions.find((definition) => definition.liquid_variable === 'body')).toMatchObject(
      {
        validations: { max_content_length: 400 },
      },
    );
    expect(
      hero?.field_definitions.find((definition) => definition.liquid_variable === 'show_button'),
    ).not.toHaveProperty('hint');
    for (const row of written) {
      const versions = await call(
        'GET',
        `${base}/email_design_systems/${system.id}/components/${row.id}/versions`,
      );
      expect(versions.json().results, row.name).toHaveLength(1);
    }

    const byName = Object.fromEntries(written.map((row) => [row.name, row.id]));
    const rendered = await call('POST', `${base}/renders`, {
      email_design_system_id: system.id,
      content: {
        subject: 'Spring',
        preheader: 'Seeds',
        container_component_instance: { component_id: byName.container, field_values: {} },
        component_instances: components.map((entry) => ({
          component_id: byName[entry.name],
          field_values: {},
        })),
      },
    });
    expect(rendered.statusCode, rendered.body).toBe(200);
    expect(rendered.json().html).toContain('Spring planting starts now');
    expect(rendered.json().html).toContain('#2e7d32');

    // What the model was asked: a strict structured output, the design system model, the brief.
    const [request] = chatRequests();
    const format = request?.body?.response_format;
    expect(typeof format === 'object' && format.type).toBe('json_schema');
    const schema = JSON.stringify(typeof format === 'object' ? format.json_schema?.schema : null);
    expect(schema).toContain('"additionalProperties":false');
    expect(schema).toContain('"horizontal_align"');
    const [systemPrompt] = messagesOf(request?.body, 'system');
    expect(systemPrompt).toContain('{{children}}');
    expect(systemPrompt).toContain('Inline styles');
    expect(systemPrompt).toContain('contrast of at least 4.5:1');
    expect(systemPrompt).toContain('dir="{{ render_context.email.text_direction }}"');
    expect(lastUserMessage(request?.body)).toContain('A newsletter for a garden centre');

    // The calls are counted under the feature in Settings › AI.
    const usage = (await call('GET', '/api/v1/ai_usage')).json();
    expect(JSON.stringify(usage)).toContain('design_system_generation');
  });

  it('sends the problems back and writes the repaired answer', async () => {
    const broken = {
      design_tokens: designTokens,
      container: { ...container, template: container.template.replace('{{children}}', '') },
      components: components.map((entry) => {
        if (entry.name === 'hero') return { ...entry, template: `${entry.template}{% if show_button %}` };
        if (entry.name === 'text_block')
          return { ...entry, template: `${entry.template}<script>track()</script>` };
        if (entry.name === 'button')
          return {
            ...entry,
            field_definitions: entry.field_definitions.map((definition) =>
              definition.liquid_variable === 'style'
                ? { ...definition, default_value: 'tertiary' }
                : definition,
            ),
          };
        return entry;
      }),
    };
    fake.script({ kind: 'json', value: broken }, { kind: 'json', value: validDesign });
    const created = await create({ create_with_ai: true, prompt: 'Garden newsletter' });
    const system = await waitForGeneration(created.json().id);
    expect(system).toMatchObject({ ai_generation_status: 'done', ai_generation_error: null });
    expect(await componentsOf(system.id)).toHaveLength(1 + components.length);

    const requests = chatRequests();
    expect(requests).toHaveLength(2);
    const repair = lastUserMessage(requests[1]?.body);
    expect(repair).toContain('Your answer has these problems');
    expect(repair).toContain('container.template: A container template must contain {{children}}');
    expect(repair).toMatch(/components\.1 \(hero\)\.template: .*if/);
    expect(repair).toContain('components.2 (text_block).template: must not contain <script>');
    expect(repair).toContain(
      'components.3 (button).field_definitions.2.default_value: must be one of: primary, secondary',
    );
    // The model sees what it answered before, to repair it.
    expect(messagesOf(requests[1]?.body, 'assistant')[0]).toContain('"name":"hero"');
  });

  it('after two repairs writes the valid components, a minimal container, and says what was left out', async () => {
    const stillInvalid = {
      design_tokens: [...designTokens, { path: 'bad path!', value: 'x' }],
      container: { ...container, template: '<html><body>No children here</body></html>' },
      components: [
        ...components,
        component('bad_liquid', 'Bad Liquid', '<tr><td>{{ title | no_such_filter }}</td></tr>', [
          field('text', 'Title', 'title', 'Hi'),
        ]),
        component('Bad Name', 'Bad name', '<tr><td>{{ x }}</td></tr>', [field('text', 'X', 'x', 'x')]),
        component('hero', 'Second hero', '<tr><td>{{ x }}</td></tr>', [field('text', 'X', 'x', 'x')]),
      ],
    };
    fake.script(...[1, 2, 3].map(() => ({ kind: 'json' as const, value: stillInvalid })));
    const created = await create({ create_with_ai: true, prompt: 'Garden newsletter' });
    const system = await waitForGeneration(created.json().id);
    expect(chatRequests()).toHaveLength(3);
    expect(system.ai_generation_status).toBe('failed');
    const error: string = system.ai_generation_error;
    expect(error).toContain('Letterset used a minimal container');
    expect(error).toContain('- Container › Template: A container template must contain {{children}}');
    expect(error).toContain('These 3 components still had problems after two repairs and were left out');
    expect(error).toMatch(/- Component 7 “Bad Liquid” › Template: .*no_such_filter/);
    expect(error).toContain('- Component 8 “Bad name” › Name: must be snake_case');
    expect(error).toContain('- Component 9 “Second hero” › Name: is used by another component');
    expect(error).toContain('- Design token 3 › Path: must be names joined by dots');
    // People read labels, never the model's paths.
    expect(error).not.toMatch(/components\.\d|design_tokens\.\d|container\.template/);

    const written = await componentsOf(system.id);
    expect(written.map((row) => row.name)).toEqual(['container', ...components.map((entry) => entry.name)]);
    const byName = Object.fromEntries(written.map((row) => [row.name, row.id]));
    const rendered = await call('POST', `${base}/renders`, {
      email_design_system_id: system.id,
      content: {
        subject: 'Spring',
        preheader: 'Seeds',
        container_component_instance: { component_id: byName.container, field_values: {} },
        component_instances: [{ component_id: byName.hero, field_values: {} }],
      },
    });
    expect(rendered.statusCode, rendered.body).toBe(200);
    expect(rendered.json().html).toContain('<!DOCTYPE html>');
    expect(rendered.json().html).toContain('Spring planting starts now');
  });

  it('keeps tokens set by hand over the AI’s', async () => {
    fake.script({ kind: 'json', value: validDesign });
    const created = await create({
      create_with_ai: true,
      prompt: 'Garden newsletter',
      design_tokens: { colors: { primary: '#000000', accent: '#ff0000' } },
    });
    const system = await waitForGeneration(created.json().id);
    expect(system.design_tokens).toEqual({
      colors: { primary: '#000000', accent: '#ff0000' },
      fonts: { body: 'Helvetica, Arial, sans-serif' },
    });
  });

  it.each([
    [500, 'The AI provider had an error (HTTP 500). Try again later.'],
    [401, 'The AI provider refused the API key (HTTP 401). An Admin can change it in Settings › AI.'],
  ])('ends failed with the provider’s failure (HTTP %i) in plain words', async (status, message) => {
    fake.script(...[1, 2, 3].map(() => ({ kind: 'error' as const, status })));
    const created = await create({ create_with_ai: true, prompt: 'Garden newsletter' });
    const system = await waitForGeneration(created.json().id);
    expect(system).toMatchObject({ ai_generation_status: 'failed', ai_generation_error: message });
    expect(await componentsOf(system.id)).toEqual([]);
  });

  it('designs in the chosen agent’s voice', async () => {
    const agent = await call('POST', `${base}/ai_agents`, {
      name: 'Garden voice',
      company_name: 'Green Thumb',
      tone: 'Earthy and warm',
    });
    expect(agent.statusCode, agent.body).toBe(200);
    fake.script({ kind: 'json', value: validDesign });
    const created = await create({
      create_with_ai: true,
      prompt: 'Newsletter',
      ai_agent_id: agent.json().id,
    });
    expect(created.statusCode, created.body).toBe(200);
    await waitForGeneration(created.json().id);
    const [systemPrompt] = messagesOf(chatRequests()[0]?.body, 'system');
    expect(systemPrompt).toContain('Green Thumb');
    expect(systemPrompt).toContain('Earthy and warm');
  });

  it('refuses a missing brief or another workspace’s agent before creating anything', async () => {
    const before = (await call('GET', `${base}/email_design_systems?per=100`)).json().pagination.total;
    const noPrompt = await create({ create_with_ai: true, prompt: '  ' });
    expect(noPrompt.statusCode).toBe(422);
    expect(noPrompt.json().errors).toEqual({ prompt: ['is needed to design the system with AI'] });
    const badAgent = await create({ create_with_ai: true, prompt: 'Garden', ai_agent_id: 2_000_000 });
    expect(badAgent.statusCode).toBe(422);
    expect(badAgent.json().errors).toEqual({ ai_agent_id: ['is not an AI agent of this workspace'] });
    expect((await call('GET', `${base}/email_design_systems?per=100`)).json().pagination.total).toBe(before);
    expect(chatRequests()).toEqual([]);
  });

  it('shows systems made by hand as not made with AI', async () => {
    const created = await create({});
    expect(created.json()).toMatchObject({
      create_with_ai: false,
      prompt: null,
      ai_generation_status: null,
      ai_generation_error: null,
    });
  });
});

describe('design systems designed with AI, without a provider', () => {
  it('answers 422 and creates nothing', async () => {
    const app = await buildTestApp({ config: { aiDefaults: undefined } });
    try {
      const organization = await createTestOrganization(app);
      const admin = await signInAs(app, organization.admin);
      const url = `/api/v1/workspaces/${organization.workspaceId}/email_design_systems`;
      const before = (await app.inject({ method: 'GET', url, headers: admin })).json().pagination.total;
      const response = await app.inject({
        method: 'POST',
        url,
        headers: admin,
        payload: {
          name: 'Garden',
          access_scope: 'this_workspace_only',
          create_with_ai: true,
          prompt: 'Garden newsletter',
        },
      });
      expect(response.statusCode).toBe(422);
      expect(response.json().message).toBe(aiNotConfiguredMessage);
      expect(response.json().errors).toHaveProperty('ai_provider');
      expect((await app.inject({ method: 'GET', url, headers: admin })).json().pagination.total).toBe(before);
    } finally {
      await app.close();
    }
  });
});
