import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { principalOf } from '../../http/access.ts';
import { HttpError } from '../../http/errors.ts';
import { ListResponse, PaginationQuery, pageRequest } from '../../http/pagination.ts';
import { errorResponses, ref } from '../../http/schemas.ts';
import {
  CreatedMcpApp,
  CreateMcpAppBody,
  McpApp,
  McpAppParams,
  McpClient,
  McpClientParams,
  McpConsentBody,
  McpConsentResult,
  UpdateMcpAppBody,
} from './mcp-apps.schemas.ts';
import {
  answerConsent,
  createMcpApp,
  deleteMcpApp,
  describeMcpClient,
  listMcpApps,
  updateMcpApp,
} from './mcp-apps.service.ts';
import {
  authenticateClient,
  authorizationServerMetadata,
  clientCredentialsOf,
  codeChallengePattern,
  exchangeAuthorizationCode,
  findAppByClientId,
  issuerOf,
  mcpResourceOf,
  OAuthError,
  protectedResourceMetadata,
  protectedResourceMetadataUrl,
  redirectUriRegistered,
  redirectWith,
  refreshTokens,
  resourceAccepted,
  type TokenResponse,
} from './mcp-oauth.ts';

const tags = ['MCP apps'];
const formContentType = 'application/x-www-form-urlencoded';
/** The parameters of an authorization request, passed on to the consent screen as they came. */
const authorizationParameters = [
  'client_id',
  'redirect_uri',
  'response_type',
  'code_challenge',
  'code_challenge_method',
  'state',
  'resource',
  'scope',
] as const;
const parameterMaxLength = 2_000;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** A request Letterset cannot send back to the app (unknown app, unregistered redirect URI): said here. */
function refusalPage(reply: FastifyReply, reason: string) {
  const page =
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Letterset: connection refused</title>' +
    '<meta name="viewport" content="width=device-width, initial-scale=1"></head>' +
    '<body style="font-family: system-ui, sans-serif; max-width: 36rem; margin: 4rem auto; padding: 0 1rem">' +
    `<h1>This assistant cannot connect to Letterset</h1><p>${escapeHtml(reason)}</p>` +
    '<p>Ask an Admin of your Letterset organization to check the app’s client id and redirect URIs in ' +
    'Settings › MCP apps, and the assistant’s settings.</p></body></html>';
  return reply.code(400).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(page);
}

function stringParameters(source: unknown, names: readonly string[]): Record<string, string | undefined> {
  const values = (source ?? {}) as Record<string, unknown>;
  const result: Record<string, string | undefined> = {};
  for (const name of names) {
    const value = values[name];
    result[name] = typeof value === 'string' && value.length <= parameterMaxLength ? value : undefined;
  }
  return result;
}

function sendOAuthError(reply: FastifyReply, error: OAuthError, viaBasic = false) {
  if (error.status === 401 && viaBasic) reply.header('www-authenticate', 'Basic realm="Letterset"');
  return reply.code(error.status).header('cache-control', 'no-store').send(error.toBody());
}

export const mcpAppsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // The token endpoint takes OAuth's form-encoded bodies; only routes of this plugin see this parser.
  app.addContentTypeParser(
    formContentType,
    { parseAs: 'string', bodyLimit: 64 * 1024 },
    (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))));
    },
  );

  app.get(
    '/api/v1/mcp_apps',
    {
      config: { permission: 'update_organization' },
      schema: {
        operationId: 'listMcpApps',
        tags,
        summary: 'List the MCP apps of the organization (never their secrets)',
        querystring: PaginationQuery,
        response: { 200: ListResponse(ref(McpApp)), ...errorResponses(401, 403, 422) },
      },
    },
    async (request) => listMcpApps(app.services, principalOf(request), pageRequest(request.query)),
  );

  app.post(
    '/api/v1/mcp_apps',
    {
      config: { permission: 'update_organization' },
      schema: {
        operationId: 'createMcpApp',
        tags,
        summary: 'Register an MCP app',
        description:
          'Lets an assistant (Claude, ChatGPT, Cursor) use Letterset’s MCP server at /mcp through OAuth 2.1 with ' +
          'PKCE. The answer carries client_secret this one time. redirect_uris: https, http only on localhost, ' +
          '127.0.0.1 or [::1] (any port is then accepted), or a desktop app’s own scheme; no fragment. The app ' +
          'acts only as each person who consents to it, with their own role.',
        body: CreateMcpAppBody,
        response: { 200: ref(CreatedMcpApp), ...errorResponses(401, 403, 422) },
      },
    },
    async (request) => createMcpApp(app.services, principalOf(request), request.body),
  );

  app.patch(
    '/api/v1/mcp_apps/:id',
    {
      config: { permission: 'update_organization' },
      schema: {
        operationId: 'updateMcpApp',
        tags,
        summary: 'Rename an MCP app or change its redirect URIs',
        description:
          'The client id, the client secret and everyone’s connection stay. redirect_uris replaces the list, ' +
          'with the same rules as when registering.',
        params: McpAppParams,
        body: UpdateMcpAppBody,
        response: { 200: ref(McpApp), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => updateMcpApp(app.services, principalOf(request), request.params.id, request.body),
  );

  app.delete(
    '/api/v1/mcp_apps/:id',
    {
      config: { permission: 'update_organization' },
      schema: {
        operationId: 'deleteMcpApp',
        tags,
        summary: 'Delete an MCP app',
        description: 'Every connection made through it stops at once: its tokens answer 401.',
        params: McpAppParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request, reply) => {
      await deleteMcpApp(app.services, principalOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/v1/mcp_consent/clients/:client_id',
    {
      config: { permission: 'signed_in' },
      schema: {
        operationId: 'getMcpClient',
        tags,
        summary: 'Describe an MCP app for its consent screen',
        description: 'Only apps of your own organization (404 otherwise).',
        params: McpClientParams,
        response: { 200: ref(McpClient), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => describeMcpClient(app.services, principalOf(request), request.params.client_id),
  );

  app.post(
    '/api/v1/mcp_consent',
    {
      config: { permission: 'signed_in' },
      schema: {
        operationId: 'answerMcpConsent',
        tags,
        summary: 'Allow or deny an MCP app',
        description:
          'The consent screen’s answer to an authorization request (GET /oauth/authorize), checked again: the ' +
          'app must be of your organization and the redirect URI registered for it. Allow issues a one-time ' +
          'code (5 minutes, bound to you, the redirect URI and the PKCE challenge); Deny answers ' +
          'error=access_denied. Either way the answer is the URL to send the browser to.',
        body: McpConsentBody,
        response: { 200: ref(McpConsentResult), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => answerConsent(app.services, principalOf(request), request.body),
  );

  const resourceMetadata = async () => protectedResourceMetadata(app.services.config);
  for (const url of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
    app.get(url, { config: { permission: 'public' }, schema: { hide: true } }, resourceMetadata);
  }
  app.get(
    '/.well-known/oauth-authorization-server',
    { config: { permission: 'public' }, schema: { hide: true } },
    async () => authorizationServerMetadata(app.services.config),
  );

  app.get(
    '/oauth/authorize',
    { config: { permission: 'public' }, schema: { hide: true } },
    async (request, reply) => {
      const parameters = stringParameters(request.query, authorizationParameters);
      const clientId = parameters.client_id;
      const client = clientId ? await findAppByClientId(app.services, clientId) : undefined;
      if (!client) return refusalPage(reply, 'No MCP app is registered with this client id.');
      const redirectUri = parameters.redirect_uri;
      if (!redirectUri || !redirectUriRegistered(client.redirectUris, redirectUri)) {
        return refusalPage(reply, 'The redirect URI is not one registered for this app.');
      }
      // From here on, problems go back to the app, which shows them (RFC 6749 §4.1.2.1).
      const backToApp = (error: string, description: string) =>
        reply.redirect(
          redirectWith(redirectUri, {
            error,
            error_description: description,
            state: parameters.state,
            iss: issuerOf(app.services.config),
          }),
        );
      if (parameters.response_type !== 'code') {
        return backToApp('unsupported_response_type', 'response_type must be code');
      }
      if (!parameters.code_challenge || !codeChallengePattern.test(parameters.code_challenge)) {
        return backToApp('invalid_request', 'code_challenge is required (PKCE, 43 characters)');
      }
      if (parameters.code_challenge_method !== 'S256') {
        return backToApp('invalid_request', 'code_challenge_method must be S256');
      }
      if (!resourceAccepted(app.services.config, parameters.resource)) {
        return backToApp('invalid_target', `resource must be ${mcpResourceOf(app.services.config)}`);
      }
      const forward = new URLSearchParams();
      for (const name of authorizationParameters) {
        const value = parameters[name];
        if (value !== undefined && name !== 'response_type') forward.set(name, value);
      }
      const consentPath = `/oauth/consent?${forward.toString()}`;
      // The consent screen is the web app's; someone not signed in signs in first and comes back to it.
      const target = request.principal
        ? `${app.services.config.appUrl}${consentPath}`
        : `${app.services.config.appUrl}/sign-in?${new URLSearchParams({ redirect: consentPath }).toString()}`;
      return reply.header('cache-control', 'no-store').redirect(target);
    },
  );

  app.post(
    '/oauth/token',
    {
      config: { permission: 'public', oauthClientAuthentication: true },
      schema: { hide: true, consumes: [formContentType, 'application/json'] },
      // Whatever goes wrong before the handler (content type, size, unreadable body) in OAuth's format too.
      errorHandler: (error, _request, reply) => {
        if (error instanceof HttpError || (error.statusCode !== undefined && error.statusCode < 500)) {
          return sendOAuthError(reply, new OAuthError('invalid_request', error.message));
        }
        reply.log.error({ err: error }, 'the OAuth token endpoint failed');
        return reply.code(500).send({ error: 'server_error', error_description: 'Something went wrong' });
      },
    },
    async (request, reply) => {
      const form = stringParameters(request.body, [
        'grant_type',
        'code',
        'redirect_uri',
        'code_verifier',
        'refresh_token',
        'client_id',
        'client_secret',
        'resource',
      ]);
      let viaBasic = false;
      try {
        const credentials = clientCredentialsOf(request.headers.authorization, form);
        viaBasic = credentials.viaBasic;
        if (form.client_id !== undefined && form.client_id !== credentials.clientId) {
          throw new OAuthError('invalid_request', 'client_id does not match the authenticated client');
        }
        const grantType = form.grant_type;
        if (grantType !== 'authorization_code' && grantType !== 'refresh_token') {
          throw new OAuthError(
            grantType ? 'unsupported_grant_type' : 'invalid_request',
            'grant_type must be authorization_code or refresh_token',
          );
        }
        const client = await authenticateClient(app.services, credentials);
        // A refresh revokes the old pair, a reused code all it led to: no process may go on trusting them.
        let tokens: TokenResponse;
        try {
          tokens =
            grantType === 'authorization_code'
              ? await exchangeAuthorizationCode(app.services, client, form)
              : await refreshTokens(app.services, client, form);
        } catch (error) {
          if (error instanceof OAuthError && error.revokedTokens)
            request.revokedAccessOf = client.organizationId;
          throw error;
        }
        if (grantType === 'refresh_token') request.revokedAccessOf = client.organizationId;
        return reply.header('cache-control', 'no-store').header('pragma', 'no-cache').send(tokens);
      } catch (error) {
        if (error instanceof OAuthError) return sendOAuthError(reply, error, viaBasic);
        throw error;
      }
    },
  );

  const challenge = (request: FastifyRequest) => {
    const invalidToken = request.headers.authorization !== undefined ? ', error="invalid_token"' : '';
    return `Bearer resource_metadata="${protectedResourceMetadataUrl(app.services.config)}"${invalidToken}`;
  };
  app.post(
    '/mcp',
    {
      config: { permission: 'signed_in', mcpAccessTokens: true },
      schema: { hide: true },
      // A 401 tells the assistant where to find how to get a token (RFC 9728 §5.1).
      onSend: async (request, reply, payload) => {
        if (reply.statusCode === 401) reply.header('www-authenticate', challenge(request));
        return payload;
      },
    },
    async (request, reply) => {
      // The MCP SDKs take about 0.5 s to load: the first MCP request loads them, not every start.
      const { handleMcpRequest } = await import('./mcp-server.ts');
      return handleMcpRequest(app.services, app, principalOf(request), request, reply);
    },
  );
  // Stateless: no stream to open with GET and no session to end with DELETE.
  for (const method of ['GET', 'DELETE'] as const) {
    app.route({
      method,
      url: '/mcp',
      config: { permission: 'public' },
      schema: { hide: true },
      handler: async (_request, reply) =>
        reply
          .code(405)
          .header('allow', 'POST')
          .send({ message: 'This MCP server is stateless: send each message with POST' }),
    });
  }
};
