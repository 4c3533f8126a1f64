import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiKeyHeadersFor,
  createTestOrganization,
  createTestUser,
  signInAs,
  type TestOrganization,
} from '../../test/factories.ts';
import type { TestApp } from '../../test/harness.ts';
import {
  callJson,
  listeningTestApp,
  mcpClientWith,
  type RegisteredMcpApp,
  registerMcpApp,
  textOf,
  tokensFor,
} from './mcp-test-support.ts';

interface AuditEntry {
  action: string;
  resource_type: string;
  resource_id: string | null;
  method: string;
  path: string;
  status_code: number;
  auth_method: string;
  api_key_id: number | null;
  user: { id: number } | null;
}

describe('the MCP server’s tools', () => {
  let app: TestApp;
  let baseUrl: string;
  let organization: TestOrganization;
  let admin: Record<string, string>;
  let mcpApp: RegisteredMcpApp;
  let client: Client;
  let workspaceId: number;
  let projectId: number;
  let designSystemId: number;
  const clients: Client[] = [];

  const connectAs = async (headers: Record<string, string>) => {
    const { access_token } = await tokensFor(app, baseUrl, mcpApp, headers);
    const connected = await mcpClientWith(baseUrl, access_token);
    clients.push(connected);
    return connected;
  };

  /** The audit log as the Admin reads it through the API. */
  const auditEntries = async (query: Record<string, string>): Promise<AuditEntry[]> => {
    const response = await app.inject({
      method: 'GET',
      url: `/api/v1/audit_logs?${new URLSearchParams({ per: '100', ...query }).toString()}`,
      headers: admin,
    });
    expect(response.statusCode).toBe(200);
    return response.json().results;
  };

  beforeAll(async () => {
    ({ app, baseUrl } = await listeningTestApp());
    organization = await createTestOrganization(app);
    workspaceId = organization.workspaceId;
    admin = await signInAs(app, organization.admin);
    mcpApp = await registerMcpApp(app, admin);
    const post = async (url: string, payload: object) =>
      (await app.inject({ method: 'POST', url, headers: admin, payload })).json();
    const team = await post('/api/v1/teams', {
      name: 'Lifecycle',
      workspace_id: workspaceId,
      badge_color: 'blue',
    });
    projectId = (
      await post(`/api/v1/workspaces/${workspaceId}/projects`, { name: 'Spring', team_id: team.id })
    ).id;
    client = await connectAs(admin);
  });
  afterAll(async () => {
    await Promise.all(clients.map((connected) => connected.close()));
    await app.close();
  });

  it('lists its tools with their argument schemas and annotations', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      'list_workspaces',
      'list_projects',
      'list_emails',
      'list_design_systems',
      'list_components',
      'get_email',
      'create_email',
      'update_email_content',
      'render_email',
      'start_export',
      'get_export',
    ]);
    const update = tools.find((tool) => tool.name === 'update_email_content');
    expect(update?.inputSchema.required).toEqual([
      'workspace_id',
      'email_id',
      'email_content',
      'lock_version',
    ]);
    expect(update?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    expect(tools.find((tool) => tool.name === 'list_emails')?.annotations?.readOnlyHint).toBe(true);
    expect(update?.description).toContain('409');
  });

  it('works in Letterset as the person: lists, creates, reads, renders, exports', async () => {
    const workspaces = await callJson(client, 'list_workspaces', {});
    expect(workspaces.results.map((workspace: { id: number }) => workspace.id)).toEqual([workspaceId]);
    const projects = await callJson(client, 'list_projects', { workspace_id: workspaceId, search: 'spr' });
    expect(projects.results).toEqual([expect.objectContaining({ id: projectId, name: 'Spring' })]);
    const systems = await callJson(client, 'list_design_systems', { workspace_id: workspaceId });
    const starter = systems.results.find((system: { name: string }) => system.name === 'Letterset Starter');
    designSystemId = starter.id;
    const components = await callJson(client, 'list_components', {
      workspace_id: workspaceId,
      email_design_system_id: designSystemId,
    });
    expect(components.results[0].container).toBe(true);
    expect(components.results[0].template).toBeUndefined();
    expect(components.results[0].field_definitions).toBeInstanceOf(Array);

    const created = await callJson(client, 'create_email', {
      workspace_id: workspaceId,
      name: 'Spring sale',
      project_id: projectId,
      email_design_system_id: designSystemId,
    });
    expect(created).toMatchObject({
      name: 'Spring sale',
      lock_version: 1,
      last_updated_by: { id: organization.admin.id },
    });

    const listed = await callJson(client, 'list_emails', {
      workspace_id: workspaceId,
      project_id: projectId,
      per: 5,
    });
    expect(listed.pagination).toEqual({ per: 5, page: 1, total: 1 });
    expect(listed.results[0]).toMatchObject({ id: created.id });
    expect(listed.results[0].email_content).toBeUndefined();

    const email = await callJson(client, 'get_email', { workspace_id: workspaceId, email_id: created.id });
    const content = structuredClone(email.email_content);
    content.subject.branch_content.null_branch = { 'en-US': 'Spring is here' };
    const updated = await callJson(client, 'update_email_content', {
      workspace_id: workspaceId,
      email_id: created.id,
      email_content: content,
      lock_version: email.lock_version,
    });
    expect(updated.lock_version).toBe(2);

    const rendered = await callJson(client, 'render_email', {
      workspace_id: workspaceId,
      email_id: created.id,
    });
    expect(rendered).toMatchObject({ locale: 'en-US', subject: 'Spring is here' });
    expect(rendered.html).toContain('<html');
    expect(typeof rendered.plain_text).toBe('string');

    const started = await callJson(client, 'start_export', {
      workspace_id: workspaceId,
      email_id: created.id,
      export_type: 'json',
    });
    expect(started).toMatchObject({
      status: 'in_progress',
      export_type: 'json',
      options: { locales: ['en-US'] },
    });
    const followed = await callJson(client, 'get_export', {
      workspace_id: workspaceId,
      export_id: started.id,
    });
    expect(followed.id).toBe(started.id);

    // The API sees what the assistant did, under the person.
    const viaApi = await app.inject({
      method: 'GET',
      url: `/api/v1/workspaces/${workspaceId}/emails/${created.id}`,
      headers: admin,
    });
    expect(viaApi.json().email_content.subject.branch_content.null_branch).toEqual({
      'en-US': 'Spring is here',
    });
  });

  it('answers a stale lock_version with a tool error naming 409 and the current version', async () => {
    const email = await callJson(client, 'create_email', {
      workspace_id: workspaceId,
      name: 'Raced',
      project_id: projectId,
      email_design_system_id: designSystemId,
    });
    // Someone saves in the editor meanwhile.
    await app.inject({
      method: 'PATCH',
      url: `/api/v1/workspaces/${workspaceId}/emails/${email.id}`,
      headers: admin,
      payload: { email_content: email.email_content, lock_version: email.lock_version, name: 'Raced twice' },
    });
    const current = await callJson(client, 'get_email', { workspace_id: workspaceId, email_id: email.id });
    const stale = textOf(
      await client.callTool({
        name: 'update_email_content',
        arguments: {
          workspace_id: workspaceId,
          email_id: email.id,
          email_content: email.email_content,
          lock_version: email.lock_version,
        },
      }),
    );
    expect(stale.isError).toBe(true);
    expect(stale.text).toBe(
      '409 Conflict: This email was changed since you loaded it; nothing was saved. Reload it, or send the ' +
        `current lock_version to overwrite. The current lock_version is ${current.lock_version}.`,
    );
  });

  it('answers problems the API would refuse with 422, with the API’s messages', async () => {
    const email = await callJson(client, 'create_email', {
      workspace_id: workspaceId,
      name: 'Checked',
      project_id: projectId,
      email_design_system_id: designSystemId,
    });
    const broken = textOf(
      await client.callTool({
        name: 'update_email_content',
        arguments: {
          workspace_id: workspaceId,
          email_id: email.id,
          email_content: { ...email.email_content, surprise: true },
          lock_version: email.lock_version,
        },
      }),
    );
    expect(broken).toEqual({
      isError: true,
      text: '422 Validation failed: Failed to save\n- email_content.surprise: is not a known field',
    });
    const badArguments = textOf(
      await client.callTool({
        name: 'get_email',
        arguments: { workspace_id: workspaceId, email_id: 'seven' },
      }),
    );
    expect(badArguments.isError).toBe(true);
    expect(badArguments.text).toMatch(/^422 Validation failed: The arguments are not valid\n- email_id: /);
    const badLocale = textOf(
      await client.callTool({
        name: 'render_email',
        arguments: { workspace_id: workspaceId, email_id: email.id, locale: 'fr-FR' },
      }),
    );
    expect(badLocale.text).toBe(
      '422 Validation failed: Failed to save\n- locale: is not a locale of this email',
    );
    const tooMany = textOf(
      await client.callTool({ name: 'list_emails', arguments: { workspace_id: workspaceId, per: 500 } }),
    );
    expect(tooMany.text).toBe(
      '422 Validation failed: Failed to save\n- per: must be less than or equal to 100',
    );
  });

  it('keeps to the person’s permissions and workspaces', async () => {
    const viewer = await createTestUser(app, organization, { role: 'Viewer' });
    const viewerClient = await connectAs(await signInAs(app, viewer));
    const refused = textOf(
      await viewerClient.callTool({
        name: 'create_email',
        arguments: {
          workspace_id: workspaceId,
          name: 'Not allowed',
          project_id: projectId,
          email_design_system_id: designSystemId,
        },
      }),
    );
    expect(refused).toEqual({
      isError: true,
      text: '403 Forbidden: You need the create_emails permission to do this',
    });
    // The viewer is on no team of the project: its emails are not theirs to see.
    const invisible = await callJson(viewerClient, 'list_emails', { workspace_id: workspaceId });
    expect(invisible.results).toEqual([]);

    const outsider = await createTestOrganization(app);
    const foreign = textOf(
      await client.callTool({ name: 'list_projects', arguments: { workspace_id: outsider.workspaceId } }),
    );
    expect(foreign.text).toBe('404 Not found: Record not found');
  });

  it('takes an API key as the bearer token, for scripts', async () => {
    const { authorization } = await apiKeyHeadersFor(app, organization, organization.admin);
    const scripted = await mcpClientWith(baseUrl, authorization?.replace('Bearer ', '') ?? '');
    clients.push(scripted);
    const projects = await callJson(scripted, 'list_projects', { workspace_id: workspaceId });
    expect(projects.results.length).toBe(1);
    const entries = await auditEntries({ resource_type: 'mcp.list_projects' });
    expect(entries[0]).toMatchObject({
      auth_method: 'api_key',
      api_key_id: expect.any(Number),
      path: '/mcp',
    });
  });

  it('records every call in the audit log under the person, refusals included', async () => {
    const created = await auditEntries({
      resource_type: 'mcp.create_email',
      user_id: String(organization.admin.id),
    });
    expect(created.length).toBeGreaterThanOrEqual(3);
    expect(created[0]).toMatchObject({
      action: 'create',
      method: 'POST',
      path: '/mcp',
      status_code: 200,
      auth_method: 'mcp_oauth',
      api_key_id: null,
      user: { id: organization.admin.id },
    });
    expect(created[0]?.resource_id).toMatch(/^\d+$/);

    const reads = await auditEntries({ resource_type: 'mcp.get_email' });
    expect(reads.map((entry) => [entry.action, entry.status_code])).toEqual(
      expect.arrayContaining([
        ['read', 200],
        ['read', 422],
      ]),
    );
    const conflicts = (await auditEntries({ resource_type: 'mcp.update_email_content' })).map(
      (entry) => entry.status_code,
    );
    expect(conflicts).toEqual(expect.arrayContaining([200, 409, 422]));
    const refusals = await auditEntries({ resource_type: 'mcp.create_email' });
    expect(refusals.find((entry) => entry.status_code === 403)?.user?.id).not.toBe(organization.admin.id);
  });
});
