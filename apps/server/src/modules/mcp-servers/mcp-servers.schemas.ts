import { Type } from 'typebox';
import { mcpHealthcheckStatuses } from '../../db/schema.ts';
import { Id, IdParams, limits, Name, RequestBody, ref, Timestamp, Url } from '../../http/schemas.ts';
import { SecretsCleared } from '../../security/secret-destination.ts';

export const McpServerTool = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String({ description: 'The tool’s name on the MCP server' }),
    description: Type.Union([Type.String(), Type.Null()]),
    enabled: Type.Boolean({
      description: 'Whether the AI features may call it; tools found by a health check start disabled',
    }),
    created_at: Timestamp,
  },
  { $id: 'McpServerTool' },
);

const NullableString = (description: string) => Type.Union([Type.String(), Type.Null()], { description });

export const McpServer = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    url: Type.String({ description: 'The server’s Streamable HTTP endpoint' }),
    healthcheck_status: Type.Enum([...mcpHealthcheckStatuses], {
      description: 'pending until the first health check; then healthy or unhealthy',
    }),
    healthcheck_error: NullableString(
      'What the last health check found wrong, in words; for an OAuth server you have not connected to, that you ' +
        'need to connect your account to list its tools (the server is then healthy)',
    ),
    healthchecked_at: Type.Union([Timestamp, Type.Null()]),
    headers: Type.Record(Type.String(), Type.String(), {
      description: 'Header names and their values, masked (•••• and at most the last 4 characters)',
    }),
    tools: Type.Array(ref(McpServerTool)),
    logo_url: NullableString('The icon the server announces, if any'),
    oauth: Type.Boolean({
      description: 'The server requires OAuth 2.1: each person connects their own account',
    }),
    start_oauth_flow_url: NullableString(
      'For an OAuth server you have not connected to: where your browser goes to sign in (valid 15 minutes). ' +
        'Null otherwise.',
    ),
    secrets_cleared: SecretsCleared,
    workspace_id: Type.Integer(),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'McpServer' },
);

/** RFC 9110 token characters. */
const HeaderName = Type.String({
  minLength: 1,
  maxLength: limits.identifier,
  pattern: "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$",
});
const Headers = Type.Record(
  HeaderName,
  Type.String({ maxLength: limits.text, pattern: '^[^\\r\\n\\u0000]*$' }),
  {
    maxProperties: 20,
    description:
      'Sent with every request to the server, e.g. {"Authorization": "Bearer …"}. Stored encrypted and answered ' +
      'masked. A change replaces the whole set: a value sent back masked keeps the stored one, a header left out ' +
      'is removed. A change that moves the URL to another scheme, host or port keeps only the values it gives ' +
      'anew (secrets_cleared lists the others).',
  },
);

export const CreateMcpServerBody = RequestBody({
  name: Name(),
  url: Url({
    minLength: 1,
    description: 'http(s); the server’s Streamable HTTP endpoint, often ending in /mcp',
  }),
  headers: Type.Optional(Headers),
});

export const UpdateMcpServerBody = RequestBody({
  name: Type.Optional(Name()),
  url: Type.Optional(
    Url({
      minLength: 1,
      description:
        'A new URL resets the health check and disconnects everyone who had connected an account; a new scheme, ' +
        'host or port also drops the stored headers this change does not give again',
    }),
  ),
  headers: Type.Optional(Headers),
});

export const McpServerParams = Type.Object({ workspace_id: Id(), ...IdParams.properties });

export const McpServerToolParams = Type.Object({
  workspace_id: Id(),
  mcp_server_id: Id(),
  ...IdParams.properties,
});

export const UpdateMcpServerToolBody = RequestBody({ enabled: Type.Boolean() });

export const EnabledMcpServer = Type.Object(
  {
    id: Type.Integer(),
    mcp_server_id: Type.Integer(),
    name: Type.String({ description: 'The MCP server’s name' }),
    enabled: Type.Boolean({
      description:
        'You can use its tools: always for a server without OAuth; once connected for an OAuth one',
    }),
    start_oauth_flow_url: NullableString(
      'For an OAuth server you have not connected to (yet, or any more): where your browser goes to sign in; ' +
        'it comes back to after_oauth_redirect_url. Null otherwise.',
    ),
    logo_url: NullableString('The icon the server announces, if any'),
    created_at: Timestamp,
  },
  { $id: 'EnabledMcpServer' },
);

export const CreateEnabledMcpServerBody = RequestBody({
  mcp_server_id: Id(),
  after_oauth_redirect_url: Type.Optional(
    Url({
      minLength: 1,
      description:
        'Where the browser returns after signing in to an OAuth server: a page of the Letterset web app (on APP_URL, ' +
        'the API’s origin, an origin of CORS_ORIGINS, or, when APP_URL is on this machine, another loopback name ' +
        'for it such as 127.0.0.1 for localhost). By default the workspace’s MCP connectors page.',
    }),
  ),
});

export const OAuthCallbackQuery = Type.Object({
  code: Type.Optional(Type.String({ maxLength: limits.url })),
  state: Type.Optional(Type.String({ maxLength: limits.url })),
  iss: Type.Optional(Type.String({ maxLength: limits.url })),
  error: Type.Optional(Type.String({ maxLength: limits.url })),
  error_description: Type.Optional(Type.String({ maxLength: limits.url })),
});
