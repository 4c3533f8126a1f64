import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { type CallToolResult, McpServer, type StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { auditLogs } from '../../db/schema.ts';
import { requirePermission } from '../../http/access.ts';
import { ConflictError, errorCatalogue, HttpError, ValidationError } from '../../http/errors.ts';
import type { Principal } from '../../http/principal.ts';
import type { FieldErrors } from '../../http/validation-messages.ts';
import type { Services } from '../../services.ts';
import { getWorkspace } from '../workspaces/workspaces.service.ts';
import { type McpApi, type ToolDefinition, toolDefinitions } from './mcp-tools.ts';

const serverInfo = { name: 'letterset', title: 'Letterset', version: '1.0.0' };

const instructions =
  'Letterset builds marketing emails from email design systems. You act as the person who connected you, ' +
  'with their permissions. Start with list_workspaces; emails live in projects of a workspace and are built ' +
  'only from the components of their design system (list_components). Read an email with get_email before ' +
  'changing it, and send its lock_version with update_email_content.';

type Arguments<Input> = { ok: true; input: Input } | { ok: false; errors: FieldErrors };

/**
 * The tool's zod schema as `tools/list` shows it, but arguments that do not fit reach the handler
 * (as a 422 it records in the audit log) instead of being refused by the SDK before any record.
 */
function argumentsOf<Input extends z.ZodObject>(
  schema: Input,
): StandardSchemaWithJSON<z.input<Input>, Arguments<z.output<Input>>> {
  const standard = schema['~standard'];
  return {
    '~standard': {
      version: 1,
      vendor: 'letterset',
      jsonSchema: standard.jsonSchema,
      validate: (value) => {
        const parsed = schema.safeParse(value ?? {});
        if (parsed.success) return { value: { ok: true, input: parsed.data } };
        const errors: FieldErrors = {};
        for (const issue of parsed.error.issues) {
          const key = issue.path.map(String).join('.') || 'arguments';
          errors[key] = [...(errors[key] ?? []), issue.message];
        }
        return { value: { ok: false, errors } };
      },
    },
  };
}

/** What an assistant reads when Letterset refuses: the status, as the API would answer, and its message. */
export function toolErrorText(error: HttpError): string {
  const heading = `${error.statusCode} ${errorCatalogue[error.statusCode].title}: ${error.message}`;
  if (error instanceof ConflictError) {
    const current = error.details.lock_version;
    return current === undefined ? heading : `${heading}. The current lock_version is ${String(current)}.`;
  }
  if (error instanceof ValidationError) {
    const lines = Object.entries(error.errors).map(
      ([field, messages]) => `- ${field}: ${messages.join('; ')}`,
    );
    return [heading, ...lines].join('\n');
  }
  return heading;
}

function routePermission(http: McpApi, mirrors: ToolDefinition['mirrors']) {
  const route = http.routePermissions.find(
    (candidate) => candidate.method === mirrors.method && candidate.url === mirrors.url,
  );
  if (!route) throw new Error(`The MCP tool mirrors ${mirrors.method} ${mirrors.url}, which is not a route`);
  return route.permission;
}

interface CallContext {
  services: Services;
  http: McpApi;
  principal: Principal;
  request: FastifyRequest;
}

/** Every call, answered or refused, under the person: `mcp.<tool>` at path /mcp. */
async function recordCall(
  { services, principal, request }: CallContext,
  definition: ToolDefinition,
  outcome: { statusCode: number; resourceId: number | string | null },
): Promise<void> {
  try {
    await services.database.db.insert(auditLogs).values({
      organizationId: principal.organizationId,
      userId: principal.userId,
      apiKeyId: principal.apiKeyId,
      authMethod: principal.via,
      action: definition.action,
      resourceType: `mcp.${definition.name}`,
      resourceId: outcome.resourceId === null ? null : String(outcome.resourceId),
      method: request.method,
      path: '/mcp',
      statusCode: outcome.statusCode,
      requestId: request.id,
    });
  } catch (error) {
    request.log.error(
      { err: error, tool: definition.name },
      'could not record an MCP tool call in the audit log',
    );
  }
}

async function callTool(
  context: CallContext,
  definition: ToolDefinition,
  parsed: Arguments<Record<string, unknown>>,
): Promise<CallToolResult> {
  const { services, http, principal } = context;
  let statusCode = 200;
  let resourceId: number | string | null = null;
  try {
    if (!parsed.ok) throw new ValidationError(parsed.errors, 'The arguments are not valid');
    const input = parsed.input;
    resourceId = definition.resourceIdOf?.(input) ?? null;
    // In the API's order: the workspace (404, or 403 without access), then the route's key (403).
    if (typeof input.workspace_id === 'number') await getWorkspace(services, principal, input.workspace_id);
    const permission = routePermission(http, definition.mirrors);
    if (permission !== 'signed_in' && permission !== 'public') requirePermission(principal, permission);
    const outcome = await definition.run({ services, http, principal }, input);
    if (outcome.resourceId !== undefined) resourceId = outcome.resourceId;
    return { content: [{ type: 'text', text: JSON.stringify(outcome.result, null, 2) }] };
  } catch (error) {
    if (error instanceof HttpError) {
      statusCode = error.statusCode;
      return { isError: true, content: [{ type: 'text', text: toolErrorText(error) }] };
    }
    statusCode = 500;
    context.request.log.error({ err: error, tool: definition.name }, 'an MCP tool failed');
    return {
      isError: true,
      content: [{ type: 'text', text: '500 Something went wrong on our side; it has been logged' }],
    };
  } finally {
    await recordCall(context, definition, { statusCode, resourceId });
  }
}

/** A server for one request (the transport is stateless): its tools act as the request's principal. */
function buildMcpServer(context: CallContext): McpServer {
  const server = new McpServer(serverInfo, { instructions });
  for (const definition of toolDefinitions) {
    const readOnly = definition.action === 'read';
    server.registerTool(
      definition.name,
      {
        title: definition.title,
        description: definition.description,
        inputSchema: argumentsOf(definition.input),
        annotations: {
          title: definition.title,
          readOnlyHint: readOnly,
          destructiveHint: false,
          idempotentHint: readOnly,
          openWorldHint: false,
        },
      },
      (parsed) => callTool(context, definition, parsed as Arguments<Record<string, unknown>>),
    );
  }
  return server;
}

/**
 * POST /mcp: one JSON-RPC message (or batch) answered as JSON, as the authenticated person. `http`
 * is the API the tools mirror (its schemas and its routes' permissions).
 */
export async function handleMcpRequest(
  services: Services,
  http: McpApi,
  principal: Principal,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  const server = buildMcpServer({ services, http, principal, request });
  const transport = new NodeStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  reply.raw.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  reply.hijack();
  await transport.handleRequest(request.raw, reply.raw, request.body);
}
