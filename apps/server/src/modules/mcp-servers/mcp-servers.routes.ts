import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf, workspaceOf } from '../../http/access.ts';
import { ListResponse, PaginationQuery, pageRequest } from '../../http/pagination.ts';
import { errorResponses, ref, WorkspaceIdParams } from '../../http/schemas.ts';
import { disableMcpServer, enableMcpServer, listEnabledMcpServers } from './enabled-mcp-servers.service.ts';
import { mcpOAuthCallbackPath } from './mcp-oauth.ts';
import { finishOAuthCallback } from './mcp-oauth-callback.ts';
import { performHealthcheck, updateMcpServerTool } from './mcp-server-health.ts';
import {
  CreateEnabledMcpServerBody,
  CreateMcpServerBody,
  EnabledMcpServer,
  McpServer,
  McpServerParams,
  McpServerToolParams,
  OAuthCallbackQuery,
  UpdateMcpServerBody,
  UpdateMcpServerToolBody,
} from './mcp-servers.schemas.ts';
import {
  createMcpServer,
  deleteMcpServer,
  getMcpServer,
  listMcpServers,
  updateMcpServer,
} from './mcp-servers.service.ts';

const tags = ['MCP servers'];
const servers = '/api/v1/workspaces/:workspace_id/mcp_servers';
const enabledServers = '/api/v1/workspaces/:workspace_id/enabled_mcp_servers';
const trustWarning =
  'An MCP server can read the data it is sent, make network requests and take actions: add only servers you trust.';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

export const mcpServersRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    servers,
    {
      config: { permission: 'signed_in' },
      schema: {
        operationId: 'listMcpServers',
        tags,
        summary: 'List MCP servers (AI connectors)',
        description: 'Any member of the workspace may list them; start_oauth_flow_url is for the caller.',
        params: WorkspaceIdParams,
        querystring: PaginationQuery,
        response: { 200: ListResponse(ref(McpServer)), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) =>
      listMcpServers(app.services, principalOf(request), workspaceOf(request).id, pageRequest(request.query)),
  );

  app.post(
    servers,
    {
      config: { permission: 'manage_mcp_servers' },
      schema: {
        operationId: 'createMcpServer',
        tags,
        summary: 'Add an MCP server',
        description:
          `${trustWarning} The URL must be http(s); a private or loopback address is refused unless the Letterset ` +
          'server sets ALLOW_PRIVATE_NETWORK_FETCH=true. Header values are stored encrypted and answered masked. ' +
          'The server starts pending: run its health check to list its tools.',
        params: WorkspaceIdParams,
        body: CreateMcpServerBody,
        response: { 200: ref(McpServer), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) =>
      createMcpServer(app.services, principalOf(request), workspaceOf(request).id, request.body),
  );

  app.get(
    `${servers}/:id`,
    {
      config: { permission: 'signed_in' },
      schema: {
        operationId: 'getMcpServer',
        tags,
        summary: 'Get an MCP server',
        params: McpServerParams,
        response: { 200: ref(McpServer), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) =>
      getMcpServer(app.services, principalOf(request), workspaceOf(request).id, request.params.id),
  );

  app.patch(
    `${servers}/:id`,
    {
      config: { permission: 'manage_mcp_servers' },
      schema: {
        operationId: 'updateMcpServer',
        tags,
        summary: 'Change an MCP server',
        description:
          'headers replaces the whole set; a value sent back masked keeps the stored one. A new URL resets the ' +
          'health check and forgets everyone’s OAuth tokens for it (they were issued for the old server) and ' +
          'Letterset’s registration with its authorization server. A URL on another scheme, host or port also ' +
          'drops the stored header values that the same change does not give again: a secret is never sent to an ' +
          'address it was not entered for. secrets_cleared lists what was dropped.',
        params: McpServerParams,
        body: UpdateMcpServerBody,
        response: { 200: ref(McpServer), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) =>
      updateMcpServer(
        app.services,
        principalOf(request),
        workspaceOf(request).id,
        request.params.id,
        request.body,
      ),
  );

  app.delete(
    `${servers}/:id`,
    {
      config: { permission: 'manage_mcp_servers' },
      schema: {
        operationId: 'deleteMcpServer',
        tags,
        summary: 'Delete an MCP server',
        description: 'Its tools, and everyone’s connections to it, are deleted with it.',
        params: McpServerParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request, reply) => {
      await deleteMcpServer(app.services, workspaceOf(request).id, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    `${servers}/:id/perform_healthcheck`,
    {
      config: { permission: 'manage_mcp_servers' },
      schema: {
        operationId: 'performMcpServerHealthcheck',
        tags,
        summary: 'Check an MCP server and sync its tools',
        description:
          'Connects over Streamable HTTP with the server’s headers and lists its tools: new tools are added ' +
          'disabled, changed ones updated, missing ones deleted. A failure is not an error: the server comes back ' +
          'unhealthy with healthcheck_error. A server that answers 401 with OAuth protected resource metadata ' +
          '(RFC 9728) becomes an OAuth server: Letterset registers itself with its authorization server (dynamic ' +
          'client registration) and lists the tools with your own token once you have connected your account.',
        params: McpServerParams,
        response: { 200: ref(McpServer), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) =>
      performHealthcheck(app.services, principalOf(request), workspaceOf(request).id, request.params.id),
  );

  app.patch(
    `${servers}/:mcp_server_id/mcp_server_tools/:id`,
    {
      config: { permission: 'manage_mcp_servers' },
      schema: {
        operationId: 'updateMcpServerTool',
        tags,
        summary: 'Enable or disable a tool of an MCP server',
        description: 'The AI features offer only enabled tools. Answers the whole MCP server.',
        params: McpServerToolParams,
        body: UpdateMcpServerToolBody,
        response: { 200: ref(McpServer), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) =>
      updateMcpServerTool(
        app.services,
        principalOf(request),
        workspaceOf(request).id,
        request.params,
        request.body.enabled,
      ),
  );

  app.get(
    enabledServers,
    {
      config: { permission: 'signed_in' },
      schema: {
        operationId: 'listEnabledMcpServers',
        tags,
        summary: 'List the MCP servers you enabled',
        description: 'Each person enables (and, for OAuth servers, connects) their own: this lists yours.',
        params: WorkspaceIdParams,
        querystring: PaginationQuery,
        response: { 200: ListResponse(ref(EnabledMcpServer)), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) =>
      listEnabledMcpServers(
        app.services,
        principalOf(request),
        workspaceOf(request).id,
        pageRequest(request.query),
      ),
  );

  app.post(
    enabledServers,
    {
      config: { permission: 'signed_in' },
      schema: {
        operationId: 'enableMcpServer',
        tags,
        summary: 'Enable an MCP server for yourself',
        description:
          'A server without OAuth is enabled at once. For an OAuth server the answer’s start_oauth_flow_url is ' +
          'where the browser signs in (authorization code with PKCE); the authorization server sends it back to ' +
          `${mcpOAuthCallbackPath}, which stores your tokens encrypted, enables the server and redirects to ` +
          'after_oauth_redirect_url with mcp_oauth=connected (or mcp_oauth_error=<why>).',
        params: WorkspaceIdParams,
        body: CreateEnabledMcpServerBody,
        response: { 200: ref(EnabledMcpServer), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) =>
      enableMcpServer(app.services, principalOf(request), workspaceOf(request).id, request.body),
  );

  app.delete(
    `${enabledServers}/:id`,
    {
      config: { permission: 'signed_in' },
      schema: {
        operationId: 'disableMcpServer',
        tags,
        summary: 'Disable an MCP server for yourself (disconnect)',
        description: 'Your tokens for it are forgotten.',
        params: McpServerParams,
        response: { 204: Type.Null({ description: 'Disabled' }), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request, reply) => {
      await disableMcpServer(app.services, principalOf(request), workspaceOf(request).id, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    mcpOAuthCallbackPath,
    {
      config: { permission: 'public' },
      schema: {
        operationId: 'finishMcpServerOAuth',
        tags,
        security: [],
        summary: 'Where an MCP server’s authorization server sends the browser back',
        description:
          'Not called directly: the redirect URI Letterset registers. It exchanges the code (with the PKCE ' +
          'verifier sealed in state) for tokens, stores them encrypted and redirects (302) to the ' +
          'after_oauth_redirect_url given when enabling, with mcp_oauth=connected or mcp_oauth_error. A state ' +
          'Letterset did not make is answered with a short HTML page instead.',
        querystring: OAuthCallbackQuery,
        response: {
          200: {
            description: 'A page saying the sign-in link is not valid',
            content: { 'text/html': { schema: Type.String() } },
          },
          302: Type.Null({ description: 'Back to the Letterset app' }),
          ...errorResponses(422),
        },
      },
    },
    async (request, reply) => {
      const outcome = await finishOAuthCallback(app.services, request.principal, request.query);
      reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
      if ('redirect' in outcome) return reply.redirect(outcome.redirect, 302);
      return reply
        .header('content-type', 'text/html; charset=utf-8')
        .header('content-security-policy', "default-src 'none'")
        .send(
          `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(outcome.page.title)}</title></head>` +
            `<body><h1>${escapeHtml(outcome.page.title)}</h1><p>${escapeHtml(outcome.page.message)}</p>` +
            `<p><a href="${escapeHtml(app.services.config.appUrl)}">Back to Letterset</a></p></body></html>`,
        );
    },
  );
};
