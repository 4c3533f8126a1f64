import { randomUUID } from 'node:crypto';
import type { App } from '../app.ts';
import { emailTranslations, mcpServerTools } from '../db/schema.ts';
import { runExport } from '../modules/exports/export-runner.ts';
import { notify } from '../modules/notifications/notifications.service.ts';
import { createTestUser, signInAs, type TestOrganization } from './factories.ts';
import { solidImage } from './images.ts';

/** Ids of one of each kind of record in an organization, to fill route parameters with. */
export interface RecordFixture {
  organization: TestOrganization;
  teamId: number;
  roleId: number;
  userId: number;
  apiKeyId: number;
  imageId: string;
  designSystemId: number;
  componentId: number;
  brandProfileId: number;
  layoutId: number;
  projectId: number;
  emailId: number;
  dynamicContentProfileId: string;
  conditionalId: number;
  personalizationTagId: number;
  linkTrackingProfileId: number;
  feedId: number;
  connectorId: number;
  emailVersionId: string;
  /** A completed json export of the email. */
  exportId: number;
  /** A notification of the Admin's (a review request from the user). */
  notificationId: number;
  /** A comment of the Admin's on the email. */
  emailCommentId: number;
  /** A reusable review group with one stage of the Admin. */
  reviewGroupId: number;
  aiReviewerId: number;
  /** An AI agent with a brand guidelines document (a Markdown file). */
  aiAgentId: number;
  emailTranslationId: number;
  /** The AI reviewer asked to review the email. */
  reviewAssignmentId: number;
  /** An MCP server without OAuth (never checked: nothing calls its URL), with one tool. */
  mcpServerId: number;
  mcpServerToolId: number;
  /** The Admin's enabled MCP server (that one). */
  enabledMcpServerId: number;
  mcpAppId: number;
  mcpClientId: string;
}

export async function createRecordFixture(app: App, organization: TestOrganization): Promise<RecordFixture> {
  const admin = await signInAs(app, organization.admin);
  const post = async (url: string, payload: object) => {
    const response = await app.inject({ method: 'POST', url, headers: admin, payload });
    if (response.statusCode >= 300)
      throw new Error(`fixture POST ${url} failed: ${response.statusCode} ${response.body}`);
    return response.json();
  };
  const team = await post('/api/v1/teams', {
    name: 'Fixture team',
    workspace_id: organization.workspaceId,
    badge_color: 'blue',
  });
  const role = await post('/api/v1/roles', { name: 'Fixture role', role_permissions: [] });
  const user = await createTestUser(app, organization, { role: 'Editor' });
  await app.inject({
    method: 'POST',
    url: `/api/v1/teams/${team.id}/users`,
    headers: admin,
    payload: { user_id: user.id },
  });
  const apiKey = await post('/api/v1/api_keys', { name: 'Fixture key' });
  const mcpApp = await post('/api/v1/mcp_apps', {
    name: 'Fixture MCP app',
    redirect_uris: ['https://assistant.example.com/callback'],
  });
  const form = new FormData();
  form.append('name', 'Fixture image');
  form.append(
    'file',
    new Blob([new Uint8Array(await solidImage(8, 8).png().toBuffer())], { type: 'image/png' }),
    'fixture.png',
  );
  const image = (
    await app.inject({
      method: 'POST',
      url: `/api/v1/workspaces/${organization.workspaceId}/images`,
      headers: admin,
      payload: form,
    })
  ).json();
  const designSystem = await post(`/api/v1/workspaces/${organization.workspaceId}/email_design_systems`, {
    name: 'Fixture system',
    access_scope: 'this_workspace_only',
  });
  const component = await post(
    `/api/v1/workspaces/${organization.workspaceId}/email_design_systems/${designSystem.id}/components`,
    {
      name: 'fixture',
      label: 'Fixture',
      template: '<p>{{ text }}</p>',
      field_definitions: [{ type: 'text', label: 'Text', liquid_variable: 'text', default_value: '' }],
    },
  );
  const brandProfile = await post(
    `/api/v1/workspaces/${organization.workspaceId}/email_design_systems/${designSystem.id}/brand_profiles`,
    { name: 'Fixture brand', component_overrides: [] },
  );
  const container = await post(
    `/api/v1/workspaces/${organization.workspaceId}/email_design_systems/${designSystem.id}/components`,
    {
      name: 'container',
      label: 'Container',
      container: true,
      template: '{{ children }}',
      field_definitions: [],
    },
  );
  const layout = await post(`/api/v1/workspaces/${organization.workspaceId}/layouts`, {
    name: 'Fixture layout',
    email_design_system_id: designSystem.id,
    content: {
      container_component_instance: { id: randomUUID(), component_id: container.id, field_values: {} },
      component_instances: [],
    },
  });
  const project = await post(`/api/v1/workspaces/${organization.workspaceId}/projects`, {
    name: 'Fixture project',
    team_id: team.id,
  });
  const email = await post(`/api/v1/workspaces/${organization.workspaceId}/emails`, {
    name: 'Fixture email',
    email_design_system_id: designSystem.id,
    project_id: project.id,
  });
  const workspaceBase = `/api/v1/workspaces/${organization.workspaceId}`;
  const profile = await post(`${workspaceBase}/dynamic_content_profiles`, { name: 'Fixture profile' });
  const conditional = await post(`${workspaceBase}/conditionals`, {
    label: 'Fixture conditional',
    branches: [{ key: 'a', label: 'A' }],
    default_value: { closing: '{% endif %}', branch_values: { a: '{% if a %}' } },
  });
  const tag = await post(`${workspaceBase}/personalization_tags`, {
    label: 'Fixture tag',
    default_value: 'there',
    example_value: 'Ada',
  });
  const trackingProfile = await post(`${workspaceBase}/link_tracking_profiles`, {
    name: 'Fixture tracking',
    parameters: [],
  });
  const feed = await post(`${workspaceBase}/feeds`, {
    name: 'Fixture feed',
    url: 'https://example.com/',
    request_method: 'GET',
    parameters: [],
    headers: [],
    fields: [],
  });
  // Its key names no real Iterable project; nothing in the suites that use the fixture sends it.
  const connector = await post(`${workspaceBase}/connectors`, {
    name: 'Fixture connector',
    integration_name: 'iterable',
    settings: { api_key: 'fixture-api-key', region: 'us' },
  });
  const versions = await app.inject({
    method: 'GET',
    url: `${workspaceBase}/emails/${email.id}/versions`,
    headers: admin,
  });
  const [firstVersion] = versions.json().results;
  if (!firstVersion) throw new Error(`fixture email has no version: ${versions.body}`);
  const emailExport = await post(`${workspaceBase}/exports`, {
    email_id: email.id,
    export_type: 'json',
    options: { locales: ['en-US'] },
  });
  // Run here rather than by a worker (test apps run none): reads of the export find it completed.
  if ((await runExport(app.services, emailExport.id, new AbortController().signal)) !== 'completed')
    throw new Error('the fixture export did not complete');
  // A review submitted and cancelled: the email has a workflow to read and stays a draft.
  await post(`${workspaceBase}/emails/${email.id}/approval_workflow`, {
    stages: [{ approval_type: 'one_of', members: [{ user_id: user.id }] }],
  });
  await post(`${workspaceBase}/emails/${email.id}/convert_to_draft`, {});
  await notify(app.services, [
    {
      kind: 'requested_review',
      recipientIds: [organization.admin.id],
      actor: { id: user.id, firstName: 'Grace', lastName: 'Tester' },
      email: {
        id: email.id,
        organizationId: organization.organizationId,
        workspaceId: organization.workspaceId,
        name: email.name,
      },
      message: 'Grace Tester asked you to review “Fixture email”',
    },
  ]);
  const reviewGroup = await post('/api/v1/review_groups', {
    name: 'Fixture review group',
    stages: [{ position: 1, approval_type: 'one_of', members: [{ user_id: organization.admin.id }] }],
  });
  const aiReviewer = await post(`${workspaceBase}/ai_reviewers`, {
    name: 'Fixture AI reviewer',
    review_instructions: 'Check the tone.',
  });
  const aiAgent = await post(`${workspaceBase}/ai_agents`, { name: 'Fixture AI agent', tone: 'Warm' });
  const guidelines = new FormData();
  guidelines.append(
    'file',
    new Blob(['# Fixture guidelines\n\nWrite warmly.\n'], { type: 'text/markdown' }),
    'fixture-guidelines.md',
  );
  const uploadedGuidelines = await app.inject({
    method: 'POST',
    url: `${workspaceBase}/ai_agents/${aiAgent.id}/brand_guidelines_doc`,
    headers: admin,
    payload: guidelines,
  });
  if (uploadedGuidelines.statusCode !== 200)
    throw new Error(`fixture brand guidelines upload failed: ${uploadedGuidelines.body}`);
  const reviewAssignment = await post(`${workspaceBase}/emails/${email.id}/review_assignments`, {
    assignee_type: 'AiReviewer',
    assignee_id: aiReviewer.id,
  });
  const notifications = await app.inject({ method: 'GET', url: '/api/v1/notifications', headers: admin });
  const [notification] = notifications.json().results;
  if (!notification) throw new Error(`fixture notification missing: ${notifications.body}`);
  const comment = await post(`${workspaceBase}/emails/${email.id}/email_comments`, {
    locale: 'en-US',
    body: 'Fixture comment',
  });
  // Written directly: starting one needs an AI provider, which the fixture's server has none of.
  const [translation] = await app.services.database.db
    .insert(emailTranslations)
    .values({
      organizationId: organization.organizationId,
      workspaceId: organization.workspaceId,
      emailId: email.id,
      sourceLocale: 'en-US',
      targetLocales: ['fr-FR'],
      localeStatuses: { 'fr-FR': { status: 'completed', translated_values: 0 } },
      createdById: organization.admin.id,
    })
    .returning();
  if (!translation) throw new Error('fixture email translation insert returned nothing');
  const mcpServer = await post(`${workspaceBase}/mcp_servers`, {
    name: 'Fixture MCP server',
    url: 'https://mcp.example.com/mcp',
    headers: { 'X-Api-Key': 'fixture-mcp-key' },
  });
  // Written directly: listing tools needs a health check, which would call the server.
  const [mcpServerTool] = await app.services.database.db
    .insert(mcpServerTools)
    .values({ mcpServerId: mcpServer.id, name: 'fixture_tool', description: 'A fixture tool' })
    .returning();
  if (!mcpServerTool) throw new Error('fixture MCP server tool insert returned nothing');
  const enabledMcpServer = await post(`${workspaceBase}/enabled_mcp_servers`, {
    mcp_server_id: mcpServer.id,
  });
  return {
    organization,
    teamId: team.id,
    roleId: role.id,
    userId: user.id,
    apiKeyId: apiKey.id,
    imageId: image.id,
    designSystemId: designSystem.id,
    componentId: component.id,
    brandProfileId: brandProfile.id,
    layoutId: layout.id,
    projectId: project.id,
    emailId: email.id,
    dynamicContentProfileId: profile.id,
    conditionalId: conditional.id,
    personalizationTagId: tag.id,
    linkTrackingProfileId: trackingProfile.id,
    feedId: feed.id,
    connectorId: connector.id,
    emailVersionId: firstVersion.version_id,
    exportId: emailExport.id,
    notificationId: notification.id,
    emailCommentId: comment.id,
    reviewGroupId: reviewGroup.id,
    aiReviewerId: aiReviewer.id,
    aiAgentId: aiAgent.id,
    emailTranslationId: translation.id,
    reviewAssignmentId: reviewAssignment.id,
    mcpServerId: mcpServer.id,
    mcpServerToolId: mcpServerTool.id,
    enabledMcpServerId: enabledMcpServer.id,
    mcpAppId: mcpApp.id,
    mcpClientId: mcpApp.client_id,
  };
}

/** The id each `:id` stands for, by the collection it follows. */
export function fillPath(url: string, fixture: RecordFixture): string {
  const byCollection: Record<string, number | string> = {
    images: fixture.imageId,
    email_design_systems: fixture.designSystemId,
    components: fixture.componentId,
    brand_profiles: fixture.brandProfileId,
    layouts: fixture.layoutId,
    projects: fixture.projectId,
    emails: fixture.emailId,
    dynamic_content_profiles: fixture.dynamicContentProfileId,
    conditionals: fixture.conditionalId,
    personalization_tags: fixture.personalizationTagId,
    link_tracking_profiles: fixture.linkTrackingProfileId,
    feeds: fixture.feedId,
    connectors: fixture.connectorId,
    workspaces: fixture.organization.workspaceId,
    teams: fixture.teamId,
    roles: fixture.roleId,
    users: fixture.userId,
    api_keys: fixture.apiKeyId,
    exports: fixture.exportId,
    notifications: fixture.notificationId,
    email_comments: fixture.emailCommentId,
    review_groups: fixture.reviewGroupId,
    ai_reviewers: fixture.aiReviewerId,
    ai_agents: fixture.aiAgentId,
    email_translations: fixture.emailTranslationId,
    mcp_servers: fixture.mcpServerId,
    mcp_server_tools: fixture.mcpServerToolId,
    enabled_mcp_servers: fixture.enabledMcpServerId,
    mcp_apps: fixture.mcpAppId,
  };
  const segments = url.split('/');
  return segments
    .map((segment, index) => {
      if (segment === ':workspace_id') return String(fixture.organization.workspaceId);
      if (segment === ':email_design_system_id') return String(fixture.designSystemId);
      if (segment === ':team_id') return String(fixture.teamId);
      if (segment === ':user_id') return String(fixture.userId);
      if (segment === ':email_id') return String(fixture.emailId);
      if (segment === ':review_assignment_id') return String(fixture.reviewAssignmentId);
      if (segment === ':mcp_server_id') return String(fixture.mcpServerId);
      if (segment === ':locale') return 'en-US';
      if (segment === ':session_id') return '00000000-0000-4000-8000-0000000000a1';
      if (segment === ':version_id') return fixture.emailVersionId;
      if (segment === ':token') return 'no-such-invitation';
      if (segment === ':client_id') return fixture.mcpClientId;
      if (segment === ':id') {
        const id = byCollection[segments[index - 1] ?? ''];
        if (id === undefined)
          throw new Error(`No fixture id for ${url}: add one to the access test's fixture`);
        return String(id);
      }
      if (segment.startsWith(':'))
        throw new Error(`No fixture value for ${segment} in ${url}: add one to the access test`);
      return segment;
    })
    .join('/');
}
