import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enabledMcpServers, mcpServers, mcpServerTools } from '../../db/schema.ts';
import { createTestOrganization, createTestUser, type TestOrganization } from '../../test/factories.ts';
import { type FakeMcpServer, startFakeMcpServer } from '../../test/fakes/fake-mcp-server.ts';
import { buildTestApp, type TestApp } from '../../test/harness.ts';
import { sealHeaders } from './mcp-connection.ts';
import { mcpToolLabel, mcpToolName, openMcpTools } from './mcp-tools.ts';

describe('MCP tool names', () => {
  it('names a tool for the model by server id, within the characters and length models accept', () => {
    expect(mcpToolName(12, 'search')).toBe('mcp12_search');
    expect(mcpToolName(3, 'docs.search files')).toBe('mcp3_docs_search_files');
    expect(mcpToolName(7, 'x'.repeat(80))).toHaveLength(64);
  });

  it('names a tool for people by its connector’s name, as the connector spells it', () => {
    expect(mcpToolLabel('Campaign briefs', 'docs.search files')).toBe('Campaign briefs › docs.search files');
    expect(mcpToolLabel('Campaign briefs', 'search')).not.toContain('mcp');
  });
});

describe('openMcpTools', () => {
  let app: TestApp;
  let fake: FakeMcpServer;
  let organization: TestOrganization;
  let userId: number;
  let serverId: number;
  const services = () => app.services;
  const who = () => ({
    organizationId: organization.organizationId,
    workspaceId: organization.workspaceId,
    userId,
  });

  beforeAll(async () => {
    fake = await startFakeMcpServer({ requiredHeaders: { 'x-api-key': 'brief-key-0123456789' } });
    app = await buildTestApp({
      config: { outboundFetch: { allowPrivateNetwork: true, timeoutMs: 5000, maxBytes: 1024 * 1024 } },
    });
    organization = await createTestOrganization(app);
    userId = (await createTestUser(app, organization)).id;
    const [server] = await app.services.database.db
      .insert(mcpServers)
      .values({
        organizationId: organization.organizationId,
        workspaceId: organization.workspaceId,
        name: 'Briefs',
        url: fake.url,
        sealedHeaders: sealHeaders(app.services.secrets, { 'X-Api-Key': 'brief-key-0123456789' }),
        healthcheckStatus: 'healthy',
      })
      .returning();
    if (!server) throw new Error('no server');
    serverId = server.id;
    await app.services.database.db.insert(mcpServerTools).values([
      { mcpServerId: server.id, name: 'get_brief', description: 'Reads a campaign brief', enabled: true },
      { mcpServerId: server.id, name: 'list_products', description: 'Lists products', enabled: false },
    ]);
  });
  afterAll(async () => {
    await app.close();
    await fake.close();
  });

  it('offers nothing before the person enables the server', async () => {
    const opened = await openMcpTools(services(), who());
    expect(Object.keys(opened.tools)).toEqual([]);
    await opened.close();
  });

  it('offers the enabled tools of the enabled servers, prefixed, calling the server with its headers', async () => {
    await app.services.database.db.insert(enabledMcpServers).values({
      organizationId: organization.organizationId,
      workspaceId: organization.workspaceId,
      userId,
      mcpServerId: serverId,
      enabled: true,
    });
    const opened = await openMcpTools(services(), who());
    try {
      const name = mcpToolName(serverId, 'get_brief');
      expect(Object.keys(opened.tools)).toEqual([name]);
      expect([...opened.labels]).toEqual([[name, 'Briefs › get_brief']]);
      // A model that calls the tool, then answers: the AI SDK runs it against the MCP server.
      let step = 0;
      const model = new MockLanguageModelV4({
        doGenerate: async () => {
          step += 1;
          return step === 1
            ? {
                content: [
                  {
                    type: 'tool-call',
                    toolCallId: 'call-1',
                    toolName: name,
                    input: JSON.stringify({ campaign: 'Spring sale' }),
                  },
                ],
                finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
                usage: usage(),
                warnings: [],
              }
            : {
                content: [{ type: 'text', text: 'Done' }],
                finishReason: { unified: 'stop', raw: 'stop' },
                usage: usage(),
                warnings: [],
              };
        },
      });
      const result = await generateText({
        model,
        prompt: 'Read the brief',
        tools: opened.tools,
        stopWhen: stepCountIs(3),
      });
      expect(result.text).toBe('Done');
      expect(fake.calls).toEqual([{ name: 'get_brief', args: { campaign: 'Spring sale' } }]);
      const toolResult = result.steps[0]?.toolResults[0];
      expect(toolResult?.output).toEqual({ text: 'get_brief({"campaign":"Spring sale"})' });
      expect(fake.seen.every((request) => request.headers['x-api-key'] === 'brief-key-0123456789')).toBe(
        true,
      );
    } finally {
      await opened.close();
    }
  });

  it('leaves out a server that cannot be reached, and says why', async () => {
    fake.failWith = { status: 503, body: 'down for maintenance' };
    const failures: string[] = [];
    const opened = await openMcpTools(services(), who(), {
      onServerFailure: (failure) => failures.push(`${failure.name}: ${failure.message}`),
    });
    fake.failWith = null;
    expect(opened.tools).toEqual({});
    expect(failures).toEqual(['Briefs: The server answered HTTP 503 Service Unavailable']);
    await opened.close();
  });

  it('offers nothing to another person of the workspace', async () => {
    const other = await createTestUser(app, organization);
    const opened = await openMcpTools(services(), { ...who(), userId: other.id });
    expect(opened.tools).toEqual({});
  });
});

function usage() {
  return {
    inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: 1, text: 1, reasoning: 0 },
  };
}
