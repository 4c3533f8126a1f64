import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { enabledMcpServers, mcpServers, mcpServerTools } from '../../db/schema.ts';
import { aiNotConfiguredMessage } from '../../integrations/ai/ai-client.ts';
import {
  createStarterProject,
  createTestOrganization,
  signInAs,
  signInMemberWith,
  type TestOrganization,
} from '../../test/factories.ts';
import { type FakeMcpServer, startFakeMcpServer } from '../../test/fakes/fake-mcp-server.ts';
import { type FakeOpenAi, type OpenAiRequestBody, startFakeOpenAi } from '../../test/fakes/fake-openai.ts';
import { buildAiTestApp, buildTestApp, type TestApp } from '../../test/harness.ts';
import { mcpToolName } from '../mcp-servers/mcp-tools.ts';

type Headers = Record<string, string>;
type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
interface StreamedEvent {
  event: string;
  data: Record<string, unknown>;
}

/** The events of a `text/event-stream` body, in order (comment lines skipped). */
function eventsOf(body: string): StreamedEvent[] {
  return body
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .flatMap((block) => {
      const lines = block.split('\n');
      const event = lines.find((line) => line.startsWith('event: '))?.slice(7);
      const data = lines.find((line) => line.startsWith('data: '))?.slice(6);
      return event && data ? [{ event, data: JSON.parse(data) }] : [];
    });
}

const textOf = (events: StreamedEvent[]) =>
  events
    .filter((event) => event.event === 'text')
    .map((event) => event.data.delta)
    .join('');

describe('email chat', () => {
  let app: TestApp;
  let fake: FakeOpenAi;
  let organization: TestOrganization;
  let admin: Headers;
  let base: string;
  let teamId: number;
  let projectId: number;
  let starterId: number;
  let componentIds: Record<string, number>;

  const call = (method: Method, url: string, payload?: object, headers: Headers = admin) =>
    app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  const chatPath = (emailId: number) => `${base}/emails/${emailId}/chat_messages`;
  const chat = async (emailId: number, payload: object, headers: Headers = admin) => {
    const response = await call('POST', chatPath(emailId), payload, headers);
    return { response, events: eventsOf(response.body) };
  };
  const chatRequests = () => fake.seen.filter((request) => request.path === '/v1/chat/completions');
  const systemOf = (body: OpenAiRequestBody | undefined) =>
    String(body?.messages?.find((message) => message.role === 'system')?.content ?? '');
  const toolMessagesOf = (body: OpenAiRequestBody | undefined) =>
    (body?.messages ?? [])
      .filter((message) => message.role === 'tool')
      .map((message) => String(message.content));

  /** A draft email of the Starter system, with a heading when asked. */
  async function createEmail(options: { heading?: string; aiAgentId?: number } = {}) {
    const created = await call('POST', `${base}/emails`, {
      name: `Chat ${randomUUID().slice(0, 8)}`,
      email_design_system_id: starterId,
      project_id: projectId,
      ...(options.aiAgentId ? { ai_agent_id: options.aiAgentId } : {}),
    });
    expect(created.statusCode, created.body).toBe(200);
    const email = created.json();
    if (options.heading === undefined) return { email, headingId: null };
    const headingId = randomUUID();
    const patched = await call('PATCH', `${base}/emails/${email.id}`, {
      email_content: {
        ...email.email_content,
        component_instances: [
          {
            id: headingId,
            component_id: componentIds.heading,
            field_values: { null_branch: { 'en-US': { text: { value: options.heading } } } },
          },
        ],
      },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    return { email: patched.json(), headingId };
  }

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    app = await buildAiTestApp(fake, {
      // The fake MCP server listens on 127.0.0.1.
      config: { outboundFetch: { allowPrivateNetwork: true, timeoutMs: 5_000, maxBytes: 1024 * 1024 } },
    });
    organization = await createTestOrganization(app);
    admin = await signInAs(app, organization.admin);
    base = `/api/v1/workspaces/${organization.workspaceId}`;
    ({
      starter: { id: starterId, components: componentIds },
      teamId,
      projectId,
    } = await createStarterProject(app, organization, admin, { team: 'Chatters', project: 'Campaigns' }));
  });
  beforeEach(() => fake.reset());
  afterAll(async () => {
    await app.close();
    await fake.close();
  });

  it('streams the answer, the tools as they run and the editor commands they made, then done', async () => {
    const agent = await call('POST', `${base}/ai_agents`, {
      name: 'Shop voice',
      company_name: 'Sunly',
      tone: 'Bright',
      guidelines: 'Always say “sunny regards”.',
    });
    const { email, headingId } = await createEmail({ heading: 'Welcome', aiAgentId: agent.json().id });
    fake.script(
      {
        kind: 'toolCalls',
        calls: [
          {
            name: 'add_component',
            arguments: {
              component: 'button',
              after_instance_id: headingId,
              values: { text: '  Shop the sale ', url: 'https://shop.example/sale' },
            },
          },
        ],
      },
      { kind: 'text', text: 'I added a button under your heading.' },
    );
    const { response, events } = await chat(email.id, { message: 'Add a sale button', locale: 'en-US' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toContain('text/event-stream');

    expect(events.map((event) => event.event).filter((name) => name !== 'text')).toEqual([
      'tool',
      'changes',
      'done',
    ]);
    expect(textOf(events)).toBe('I added a button under your heading.');
    const tool = events.find((event) => event.event === 'tool')?.data;
    expect(tool).toMatchObject({
      type: 'tool',
      name: 'add_component',
      source: 'letterset',
      outcome: 'done',
      message: 'Added Button',
      input: { component: 'button', after_instance_id: headingId },
    });
    const changes = events.find((event) => event.event === 'changes')?.data.commands as Record<
      string,
      unknown
    >[];
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({
      type: 'insertComponent',
      componentId: componentIds.button,
      index: 1,
      // Validated by core: trimmed, a real link.
      fieldValues: {
        null_branch: {
          'en-US': { text: { value: 'Shop the sale' }, url: { value: 'https://shop.example/sale' } },
        },
      },
    });
    expect(changes[0]?.instanceId).toMatch(/^[0-9a-f-]{36}$/);

    // The server never writes the email: the editor applies the commands.
    const saved = (await call('GET', `${base}/emails/${email.id}`)).json();
    expect(saved.email_content.component_instances).toHaveLength(1);
    expect(saved.lock_version).toBe(email.lock_version);

    // What the model saw: the email's outline, the components by description, the agent's voice.
    const [first, second] = chatRequests();
    const system = systemOf(first?.body);
    expect(system).toContain(`[${headingId}] Heading (component heading)`);
    expect(system).toContain('text: "Welcome"');
    expect(system).toContain('- button (Button): A call-to-action button');
    expect(system).not.toContain('image_url');
    expect(system).toContain('Always say “sunny regards”.');
    expect(first?.body?.tools?.map((entry) => entry.function.name)).toEqual(
      expect.arrayContaining(['add_component', 'remove_component', 'set_field_values', 'set_subject']),
    );
    expect(first?.body?.stream).toBe(true);
    // The next step read the tool's result.
    expect(toolMessagesOf(second?.body).join()).toContain('Added Button');

    const usage = (await call('GET', '/api/v1/ai_usage?days=1')).json();
    const chatUsage = usage.results.find((row: { feature: string }) => row.feature === 'email_chat');
    expect(chatUsage).toMatchObject({ user: { id: organization.admin.id }, calls: 1 });
    expect(chatUsage.input_tokens).toBeGreaterThan(0);
  });

  it('answers from the editor’s document when one is sent, and later tools see earlier changes', async () => {
    const { email } = await createEmail();
    const unsavedId = randomUUID();
    const document = {
      email_content: {
        ...email.email_content,
        component_instances: [
          {
            id: unsavedId,
            component_id: componentIds.heading,
            field_values: { null_branch: { 'de-DE': { text: { value: 'Noch nicht gespeichert' } } } },
          },
        ],
      },
      locales: ['en-US', 'de-DE'],
    };
    fake.script(
      {
        kind: 'toolCalls',
        calls: [
          { name: 'set_field_values', arguments: { instance_id: unsavedId, values: { text: 'Sommer' } } },
          { name: 'move_component', arguments: { instance_id: unsavedId, position: 1 } },
          { name: 'set_subject', arguments: { text: 'Sommer  {{ Sale }}' } },
        ],
      },
      { kind: 'text', text: 'Erledigt.' },
    );
    const { events } = await chat(email.id, { message: 'Sommer!', locale: 'de-DE', document });
    expect(systemOf(chatRequests()[0]?.body)).toContain('text: "Noch nicht gespeichert"');
    expect(systemOf(chatRequests()[0]?.body)).toContain('Write every value in German');
    const commands = events.find((event) => event.event === 'changes')?.data.commands;
    expect(commands).toEqual([
      {
        type: 'setFieldValues',
        instanceId: unsavedId,
        branch: 'null_branch',
        locale: 'de-DE',
        values: { text: 'Sommer' },
      },
      { type: 'moveComponent', instanceId: unsavedId, toIndex: 0 },
      { type: 'setSubject', branch: 'null_branch', locale: 'de-DE', text: 'Sommer { { Sale }}' },
    ]);

    const wrongLocale = await call('POST', chatPath(email.id), { message: 'Hi', locale: 'fr-FR', document });
    expect(wrongLocale.statusCode).toBe(422);
    expect(wrongLocale.json().errors).toEqual({ locale: ['is not one of the email’s locales'] });
    const blank = await call('POST', chatPath(email.id), { message: '   ', locale: 'en-US' });
    expect(blank.json().errors).toEqual({ message: ["can't be blank"] });
    const unknownField = await call('POST', chatPath(email.id), { message: 'Hi', locale: 'en-US', extra: 1 });
    expect(unknownField.statusCode).toBe(422);
  });

  it('returns invalid values to the model as a tool error, and changes nothing for them', async () => {
    const { email, headingId } = await createEmail({ heading: 'Hello' });
    fake.script(
      {
        kind: 'toolCalls',
        calls: [{ name: 'set_field_values', arguments: { instance_id: headingId, values: { text: '' } } }],
      },
      {
        kind: 'toolCalls',
        calls: [
          { name: 'set_field_values', arguments: { instance_id: headingId, values: { text: 'Hi there' } } },
        ],
      },
      { kind: 'text', text: 'Changed the heading.' },
    );
    const { events } = await chat(email.id, { message: 'Empty the heading', locale: 'en-US' });
    const tools = events.filter((event) => event.event === 'tool').map((event) => event.data);
    expect(tools).toMatchObject([
      {
        name: 'set_field_values',
        outcome: 'failed',
        message: expect.stringContaining("values.text: can't be blank"),
      },
      { name: 'set_field_values', outcome: 'done', message: 'Changed Heading: text' },
    ]);
    // The model's next turn read why its call failed.
    expect(toolMessagesOf(chatRequests()[1]?.body)).toEqual([
      "Invalid values, nothing was changed:\n- values.text: can't be blank",
    ]);
    expect(events.find((event) => event.event === 'changes')?.data.commands).toEqual([
      {
        type: 'setFieldValues',
        instanceId: headingId,
        branch: 'null_branch',
        locale: 'en-US',
        values: { text: 'Hi there' },
      },
    ]);
    expect(events.at(-1)?.event).toBe('done');
  });

  it('answers a tool the model made up, or input that does not fit a tool, as failed tools', async () => {
    const { email } = await createEmail();
    fake.script(
      {
        kind: 'toolCalls',
        calls: [
          { name: 'delete_everything', arguments: {} },
          { name: 'add_component', arguments: { component: 42 } },
        ],
      },
      { kind: 'text', text: 'I could not do that.' },
    );
    const { response, events } = await chat(email.id, { message: 'Delete it all', locale: 'en-US' });
    expect(response.statusCode).toBe(200);
    const tools = events.filter((event) => event.event === 'tool').map((event) => event.data);
    expect(tools).toMatchObject([
      { name: 'delete_everything', outcome: 'failed' },
      { name: 'add_component', outcome: 'failed', input: { component: 42 } },
    ]);
    expect(toolMessagesOf(chatRequests()[1]?.body)).toHaveLength(2);
    expect(events.find((event) => event.event === 'changes')?.data.commands).toEqual([]);
    expect(events.at(-1)?.event).toBe('done');
  });

  it('refuses a tool the person’s role does not allow, and tells the model why', async () => {
    const { email, headingId } = await createEmail({ heading: 'Keep me' });
    const member = await signInMemberWith(app, organization, {
      adminHeaders: admin,
      teamId,
      permissions: ['update_emails'],
    });
    fake.script(
      { kind: 'toolCalls', calls: [{ name: 'remove_component', arguments: { instance_id: headingId } }] },
      { kind: 'text', text: 'Your role does not allow removing components.' },
    );
    const { response, events } = await chat(
      email.id,
      { message: 'Remove the heading', locale: 'en-US' },
      member,
    );
    expect(response.statusCode, response.body).toBe(200);
    expect(events.find((event) => event.event === 'tool')?.data).toMatchObject({
      name: 'remove_component',
      outcome: 'refused',
      message:
        'Refused: you cannot remove components (your role lacks the add_remove_reorder_email_components permission)',
    });
    expect(events.find((event) => event.event === 'changes')?.data).toEqual({
      type: 'changes',
      commands: [],
    });
    expect(toolMessagesOf(chatRequests()[1]?.body).join()).toContain('Refused: you cannot remove components');

    // The conversation is the member's own: the Admin's is another.
    const mine = (await call('GET', chatPath(email.id), undefined, member)).json();
    expect(mine.results.map((message: { role: string }) => message.role)).toEqual(['user', 'assistant']);
    expect(mine.results[1].tools).toEqual([
      {
        name: 'remove_component',
        label: 'remove_component',
        source: 'letterset',
        outcome: 'refused',
        message:
          'Refused: you cannot remove components (your role lacks the add_remove_reorder_email_components permission)',
      },
    ]);
    expect((await call('GET', chatPath(email.id))).json().pagination.total).toBe(0);

    const reader = await signInMemberWith(app, organization, {
      adminHeaders: admin,
      teamId,
      permissions: ['add_remove_reorder_email_components'],
    });
    expect(
      (await call('POST', chatPath(email.id), { message: 'Hi', locale: 'en-US' }, reader)).statusCode,
    ).toBe(403);
  });

  it('refuses every change on an email that cannot change now, and still answers', async () => {
    const { email } = await createEmail({ heading: 'Frozen' });
    const submitted = await call('POST', `${base}/emails/${email.id}/approval_workflow`, {
      stages: [{ approval_type: 'one_of', members: [{ user_id: organization.admin.id }] }],
    });
    expect(submitted.statusCode, submitted.body).toBe(200);
    fake.script(
      { kind: 'toolCalls', calls: [{ name: 'set_subject', arguments: { text: 'New subject' } }] },
      { kind: 'text', text: 'The email is in review, so I cannot change it.' },
    );
    const { events } = await chat(email.id, { message: 'New subject please', locale: 'en-US' });
    expect(events.find((event) => event.event === 'tool')?.data).toMatchObject({
      outcome: 'refused',
      message: expect.stringContaining('Refused: the email is in review'),
    });
    expect(events.find((event) => event.event === 'changes')?.data.commands).toEqual([]);
  });

  it('ends with an error event in plain words when the provider refuses, and keeps the turn', async () => {
    const { email } = await createEmail();
    fake.script({ kind: 'error', status: 401 }, { kind: 'error', status: 401 });
    const { response, events } = await chat(email.id, { message: 'Hello?', locale: 'en-US' });
    expect(response.statusCode).toBe(200);
    expect(events.map((event) => event.event)).toEqual(['changes', 'error']);
    expect(events[1]?.data).toEqual({
      type: 'error',
      message: 'The AI provider refused the API key (HTTP 401). An Admin can change it in Settings › AI.',
    });
    const listed = (await call('GET', chatPath(email.id))).json().results;
    expect(listed).toMatchObject([
      { role: 'user', text: 'Hello?', locale: 'en-US', error: null },
      {
        role: 'assistant',
        text: '',
        error: 'The AI provider refused the API key (HTTP 401). An Admin can change it in Settings › AI.',
      },
    ]);
  });

  it('tells a rate limit in Letterset’s words, never the provider’s', async () => {
    const { email } = await createEmail();
    const limited = {
      kind: 'error' as const,
      status: 429,
      message: 'Rate limit reached for gpt-x in organization org-123 on requests per min. Limit: 3',
    };
    fake.script(limited, limited, limited);
    const { events } = await chat(email.id, { message: 'Shorter intro?', locale: 'en-US' });
    expect(events.at(-1)?.data).toEqual({
      type: 'error',
      message: 'The AI provider is limiting requests (HTTP 429); try again in 1 second.',
    });
    expect(JSON.stringify(events)).not.toContain('org-123');
    fake.reset();
  });

  it('keeps the conversation per email and person, oldest first, sends it to the model, and clears it', async () => {
    const { email } = await createEmail();
    fake.script({ kind: 'text', text: 'First answer.' });
    await chat(email.id, { message: 'First question', locale: 'en-US' });
    fake.script({ kind: 'text', text: 'Second answer.' });
    await chat(email.id, { message: 'Second question', locale: 'en-US' });

    // The second answer was asked with the conversation before it.
    const history = chatRequests()[1]?.body?.messages?.filter((message) => message.role !== 'system');
    expect(history?.map((message) => [message.role, message.content])).toEqual([
      ['user', 'First question'],
      ['assistant', 'First answer.'],
      ['user', 'Second question'],
    ]);

    const page = (await call('GET', `${chatPath(email.id)}?per=3`)).json();
    expect(page.pagination).toEqual({ per: 3, page: 1, total: 4 });
    expect(page.results.map((message: { text: string }) => message.text)).toEqual([
      'First question',
      'First answer.',
      'Second question',
    ]);
    expect(page.results[0]).toMatchObject({
      email_id: email.id,
      role: 'user',
      locale: 'en-US',
      tools: [],
      error: null,
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    });

    const cleared = await call('DELETE', chatPath(email.id));
    expect(cleared.statusCode).toBe(204);
    // Sending and clearing are writes, in the audit log like any other.
    const audited = (
      await call('GET', '/api/v1/audit_logs?resource_type=workspaces.emails.chat_messages&per=100')
    ).json().results;
    expect(
      audited
        .filter((entry: { resource_id: string }) => entry.resource_id === String(email.id))
        .map((entry: { method: string }) => entry.method),
    ).toEqual(['DELETE', 'POST', 'POST']);
    expect((await call('GET', chatPath(email.id))).json()).toEqual({
      results: [],
      pagination: { per: 10, page: 1, total: 0 },
    });
  });

  it('calls the tools of the person’s AI connectors (MCP servers) from the chat', async () => {
    const mcp: FakeMcpServer = await startFakeMcpServer({
      tools: [
        {
          name: 'get_brief',
          description: 'Reads a campaign brief',
          arguments: ['campaign'],
          answer: (args) => `Brief for ${String(args.campaign)}: lead with free shipping.`,
        },
      ],
    });
    try {
      const [server] = await app.services.database.db
        .insert(mcpServers)
        .values({
          organizationId: organization.organizationId,
          workspaceId: organization.workspaceId,
          name: 'Briefs',
          url: mcp.url,
          healthcheckStatus: 'healthy',
        })
        .returning();
      if (!server) throw new Error('no MCP server row');
      await app.services.database.db.insert(mcpServerTools).values({
        mcpServerId: server.id,
        name: 'get_brief',
        description: 'Reads a campaign brief',
        enabled: true,
      });
      await app.services.database.db.insert(enabledMcpServers).values({
        organizationId: organization.organizationId,
        workspaceId: organization.workspaceId,
        userId: organization.admin.id,
        mcpServerId: server.id,
        enabled: true,
      });
      const toolName = mcpToolName(server.id, 'get_brief');
      const { email } = await createEmail();
      fake.script(
        { kind: 'toolCalls', calls: [{ name: toolName, arguments: { campaign: 'spring' } }] },
        { kind: 'text', text: 'The brief says to lead with free shipping.' },
      );
      const { events } = await chat(email.id, {
        message: 'What does the spring brief say?',
        locale: 'en-US',
      });
      expect(events.find((event) => event.event === 'tool')?.data).toMatchObject({
        name: toolName,
        label: 'Briefs › get_brief',
        source: 'connector',
        outcome: 'done',
        message: 'Used Briefs › get_brief',
        input: { campaign: 'spring' },
      });
      // The transcript names it the same way, never by the model's id for it.
      const transcript = await app.inject({
        method: 'GET',
        url: `${base}/emails/${email.id}/chat_messages`,
        headers: admin,
      });
      expect(transcript.statusCode, transcript.body).toBe(200);
      const answer = transcript
        .json()
        .results.find((message: { role: string }) => message.role === 'assistant');
      expect(answer.tools).toEqual([
        {
          name: toolName,
          label: 'Briefs › get_brief',
          source: 'connector',
          outcome: 'done',
          message: 'Used Briefs › get_brief',
        },
      ]);
      expect(JSON.stringify(transcript.json())).not.toMatch(/Used mcp\d/);
      expect(mcp.calls).toMatchObject([{ name: 'get_brief', args: { campaign: 'spring' } }]);
      expect(toolMessagesOf(chatRequests()[1]?.body).join()).toContain('lead with free shipping');
      expect(textOf(events)).toBe('The brief says to lead with free shipping.');
      expect(events.at(-1)?.event).toBe('done');
      await app.services.database.db.delete(enabledMcpServers);
    } finally {
      await mcp.close();
    }
  });

  it('answers 422 saying an Admin can set up a provider when the organization has none', async () => {
    const bare = await buildTestApp({ config: { aiDefaults: undefined } });
    try {
      const other = await createTestOrganization(bare, 'No AI');
      const headers = await signInAs(bare, other.admin);
      const otherBase = `/api/v1/workspaces/${other.workspaceId}`;
      const inject = (method: Method, url: string, payload?: object) =>
        bare.inject({ method, url, headers, ...(payload ? { payload } : {}) });
      const system = (await inject('GET', `${otherBase}/email_design_systems`)).json().results[0];
      const team = (
        await inject('POST', '/api/v1/teams', {
          name: 'T',
          workspace_id: other.workspaceId,
          badge_color: 'blue',
        })
      ).json();
      await inject('POST', `/api/v1/teams/${team.id}/users`, { user_id: other.admin.id });
      const project = (await inject('POST', `${otherBase}/projects`, { name: 'P', team_id: team.id })).json();
      const email = (
        await inject('POST', `${otherBase}/emails`, {
          name: 'No AI',
          email_design_system_id: system.id,
          project_id: project.id,
        })
      ).json();
      const refused = await inject('POST', `${otherBase}/emails/${email.id}/chat_messages`, {
        message: 'Hi',
        locale: 'en-US',
      });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().message).toBe(aiNotConfiguredMessage);
      // Nothing was kept of a message that could not be answered.
      expect(
        (await inject('GET', `${otherBase}/emails/${email.id}/chat_messages`)).json().pagination.total,
      ).toBe(0);
    } finally {
      await bare.close();
    }
  });
});
