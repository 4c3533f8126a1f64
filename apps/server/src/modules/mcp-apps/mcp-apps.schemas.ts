import { Type } from 'typebox';
import { IdParams, Name, RequestBody, ref, Text, Timestamp, Token, Url } from '../../http/schemas.ts';
import { UserReference } from '../users/users.schemas.ts';

const RedirectUri = Url({
  minLength: 1,
  description:
    'Where the browser is sent back with the authorization code: https://…, http://localhost or http://127.0.0.1 ' +
    '(any port) for desktop apps, or a desktop app’s own scheme such as cursor://…',
  examples: ['https://claude.ai/api/mcp/auth_callback'],
});

export const McpApp = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    client_id: Type.String({
      description: 'The OAuth client id the assistant is configured with',
      examples: ['lsci_Xb3kZ0pQ9vT1sY7w'],
    }),
    redirect_uris: Type.Array(Type.String()),
    created_by: Type.Union([ref(UserReference), Type.Null()]),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  {
    $id: 'McpApp',
    description:
      'An outside assistant (Claude, ChatGPT, Cursor) allowed to use Letterset’s MCP server at /mcp. ' +
      'It acts only as the people who consent to it, with their own permissions',
  },
);

export const CreatedMcpApp = Type.Object(
  {
    ...McpApp.properties,
    client_secret: Type.String({
      description: 'Shown this once: store it in the assistant now; Letterset keeps only a digest',
    }),
  },
  { $id: 'CreatedMcpApp' },
);

const RedirectUris = Type.Array(RedirectUri, { minItems: 1, maxItems: 10, uniqueItems: true });

export const CreateMcpAppBody = RequestBody({
  name: Name({ examples: ['Claude'] }),
  redirect_uris: RedirectUris,
});

export const UpdateMcpAppBody = RequestBody({
  name: Type.Optional(Name({ examples: ['Claude'] })),
  redirect_uris: Type.Optional(RedirectUris),
});

export const McpAppParams = IdParams;

export const McpClientParams = Type.Object({ client_id: Token() });

export const McpClient = Type.Object(
  {
    client_id: Type.String(),
    name: Type.String(),
    organization_name: Type.String(),
  },
  {
    $id: 'McpClient',
    description: 'What the consent screen shows about an MCP app of your organization',
  },
);

export const McpConsentBody = RequestBody({
  allow: Type.Boolean({ description: 'true: Allow (a code is issued); false: Deny (error=access_denied)' }),
  client_id: Token(),
  redirect_uri: Url({ minLength: 1 }),
  code_challenge: Type.String({
    minLength: 43,
    maxLength: 43,
    pattern: '^[A-Za-z0-9_-]+$',
    description: 'The PKCE challenge: BASE64URL(SHA-256(code_verifier)), 43 characters',
    examples: ['E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM'],
  }),
  code_challenge_method: Type.Enum(['S256']),
  state: Type.Optional(Text({ description: 'Returned unchanged in the redirect' })),
  resource: Type.Optional(Url({ description: 'RFC 8707: the MCP server the token is for' })),
  scope: Type.Optional(Text({ description: 'Accepted and ignored: tokens act with your whole role' })),
});

export const McpConsentResult = Type.Object(
  {
    redirect_url: Type.String({
      description:
        'Where to send the browser: the app’s redirect URI with code and state, or error=access_denied',
    }),
  },
  { $id: 'McpConsentResult' },
);
