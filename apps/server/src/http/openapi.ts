import swagger from '@fastify/swagger';
import type { FastifyInstance, FastifySchema } from 'fastify';
import type { Config } from '../config.ts';
import { generateOpenApiYaml } from './openapi-document.ts';

export const sessionCookieName = 'letterset_session';

/** Operation groups, in the order the reference shows them. Every route names one. */
export const openApiTags = [
  { name: 'Setup', description: 'First run: create the first organization and its Admin' },
  {
    name: 'Authentication',
    description: 'Sign in and out, and your own profile, password and two-factor settings',
  },
  { name: 'Users', description: 'The people of the organization, and their invitations' },
  { name: 'Roles', description: 'Named sets of permission keys; four are built in' },
  { name: 'Workspaces', description: 'Separate areas of the organization, with their members' },
  { name: 'Teams', description: 'Groups inside a workspace that own projects' },
  { name: 'Email design systems', description: 'Libraries of components that emails are built from' },
  {
    name: 'Brand profiles',
    description: 'A brand’s tokens, styles and component overrides on a design system',
  },
  { name: 'Layouts', description: 'Saved email bodies that new emails can start from' },
  { name: 'Projects', description: 'Sets of emails with one purpose, each owned by a team' },
  {
    name: 'Emails',
    description: 'Emails: content, versions, validation, status, rendering and test sends',
  },
  {
    name: 'Email comments',
    description:
      'Comments on one locale of an email: threads one level deep, pins on the preview, @mentions (`@[Name](user:ID)`)',
  },
  {
    name: 'Approval workflows',
    description:
      'Submitting an email for review through stages of reviewers, and their decisions (approve or request changes)',
  },
  {
    name: 'Notifications',
    description:
      'What happened to you: mentions, replies, review requests and decisions (each user sees their own)',
  },
  {
    name: 'Review groups',
    description: 'Series of review stages, each approved by any one or every one of its members',
  },
  {
    name: 'Review assignments',
    description: 'Asking a person, a role or an AI reviewer to look at an email, outside a workflow',
  },
  {
    name: 'AI agents',
    description:
      'A company’s voice for AI features: its overview, tone, guidelines and brand guidelines document',
  },
  {
    name: 'Email chat',
    description:
      'Your conversation with an assistant that edits the email you have open, through the editor’s own commands',
  },
  {
    name: 'Email translations',
    description: 'Machine translation of an email into other locales, with per-locale status',
  },
  {
    name: 'AI settings',
    description:
      'The organization’s AI provider (or the server’s default) and the tokens its AI features used',
  },
  {
    name: 'AI reviewers',
    description: 'Review instructions of a workspace that an AI model reviews emails by',
  },
  { name: 'Renders', description: 'HTML from a design system and content, without creating an email' },
  {
    name: 'Exports',
    description:
      'Emails exported as a zip, JSON or PDF in the background, and the pre-send checks that come first',
  },
  {
    name: 'Dynamic content profiles',
    description:
      'One per sending platform dialect; conditionals and personalization tags keep a syntax per profile',
  },
  {
    name: 'Conditionals',
    description: 'Content that differs per recipient, compiled to each platform’s syntax',
  },
  { name: 'Personalization tags', description: 'Recipient data in content, written as `{tag:ID}` tokens' },
  {
    name: 'Link tracking profiles',
    description: 'Query parameters or a redirect template applied to email links',
  },
  { name: 'Feeds', description: 'Remote data sources that fill component fields' },
  { name: 'Images', description: 'The image library of a workspace' },
  {
    name: 'Connectors',
    description: 'Sending platform accounts (Iterable, Salesforce Marketing Cloud) that exports deliver to',
  },
  {
    name: 'MCP servers',
    description:
      'AI connectors: outside MCP servers whose enabled tools the AI features may call, and each person’s connection to them',
  },
  { name: 'API keys', description: 'Secrets for calling the API as yourself' },
  {
    name: 'MCP apps',
    description:
      'Assistants allowed to use Letterset’s MCP server (/mcp) through OAuth, as each person who consents',
  },
  { name: 'Audit log', description: 'Every write made through the API' },
  { name: 'System', description: 'Health and readiness of a Letterset server' },
] as const;
export type OpenApiTag = (typeof openApiTags)[number]['name'];

/**
 * The OpenAPI 3.0.1 document is generated from the route schemas, never written by hand.
 * Served at /openapi.yml and /openapi.json; the committed apps/server/openapi.yml must match it.
 */
export async function registerOpenApi(app: FastifyInstance, config: Config): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.1',
      info: {
        title: 'Letterset API',
        version: 'v1',
        description:
          'The Letterset REST API. Authenticate with `Authorization: Bearer <API key>` or the web app session cookie. ' +
          'Lists answer `{"results": [...], "pagination": {"per", "page", "total"}}`; errors answer `{"message"}`, ' +
          'and 422 adds `errors`, a map of field path to messages.',
      },
      servers: [{ url: config.publicApiUrl, description: 'This Letterset server' }],
      tags: openApiTags.map((tag) => ({ ...tag })),
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            description: 'An API key created in Settings → API keys, sent as `Authorization: Bearer <key>`',
          },
          cookieAuth: {
            type: 'apiKey',
            in: 'cookie',
            name: sessionCookieName,
            description: 'The session cookie the web app receives on sign-in',
          },
        },
      },
      security: [{ bearerAuth: [] }, { cookieAuth: [] }],
    },
    transform: ({ schema, url, route }) => ({
      schema: withDocumentedPermission(schema, route.config?.permission),
      url,
    }),
    // Name shared schemas by their $id instead of def-0, def-1, ...
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, index) => String(json.$id ?? `def-${index}`),
    },
  });

  app.get('/openapi.yml', { schema: { hide: true } }, (_request, reply) =>
    reply.type('application/yaml; charset=utf-8').send(generateOpenApiYaml(app)),
  );
  app.get('/openapi.json', { schema: { hide: true } }, () => app.swagger());
}

/**
 * Who may call an operation, as the route declares it (`config.permission`): a permission key,
 * several keys of which any one will do, `signed_in` or `public`.
 */
export type DocumentedPermission = string | readonly string[];

/**
 * Every operation says who may call it twice: `x-permission` for tools and tests (the key, a list
 * of keys any one of which is enough, `signed_in` or `public`), and a last line of its description
 * for people reading the reference.
 */
export function withDocumentedPermission(
  schema: FastifySchema,
  permission: DocumentedPermission | undefined,
): FastifySchema {
  // Routes without a schema (the document's own) have none to add to.
  if (!schema || permission === undefined) return schema;
  const documented = schema as FastifySchema & { description?: string };
  const sentence = permissionSentence(permission);
  return {
    ...schema,
    description: documented.description ? `${documented.description}\n\n${sentence}` : sentence,
    'x-permission': typeof permission === 'string' ? permission : [...permission],
  } as FastifySchema;
}

function permissionSentence(permission: DocumentedPermission): string {
  const keys = [permission].flat();
  if (keys.length === 1 && keys[0] === 'public') return '**Permission:** none, no sign-in needed.';
  if (keys.length === 1 && keys[0] === 'signed_in') return '**Permission:** any signed-in user.';
  const named = keys.map((key) => `\`${key}\``);
  return named.length === 1
    ? `**Permission:** ${named[0]}.`
    : `**Permission:** any one of ${named.slice(0, -1).join(', ')} or ${named.at(-1)}.`;
}
