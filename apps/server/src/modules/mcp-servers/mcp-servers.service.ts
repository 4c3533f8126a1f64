/**
 * MCP servers (AI connectors) as records: listed, read, added, changed and deleted, their URL and
 * headers checked on the way in. Health checks and tools: mcp-server-health.ts; each person's
 * enabled servers: enabled-mcp-servers.service.ts; the OAuth callback: mcp-oauth-callback.ts.
 */
import { and, asc, eq, inArray, isNotNull } from 'drizzle-orm';
import type { Static } from 'typebox';
import { changesAnything } from '../../db/record-updates.ts';
import { enabledMcpServers, mcpServers, mcpServerTools } from '../../db/schema.ts';
import { findWorkspaceRecord, pageOfWorkspaceRecords } from '../../db/workspace-records.ts';
import { ValidationError } from '../../http/errors.ts';
import { listBody, type PageRequest } from '../../http/pagination.ts';
import type { Principal } from '../../http/principal.ts';
import { sameDestination } from '../../security/secret-destination.ts';
import { maskSecret } from '../../security/secrets.ts';
import type { Services } from '../../services.ts';
import { type McpServerRow, mcpUrlProblem, openHeaders, sealHeaders } from './mcp-connection.ts';
import { oauthSettingsOf, startOAuthFlowUrl } from './mcp-oauth.ts';
import type { CreateMcpServerBody, McpServer, UpdateMcpServerBody } from './mcp-servers.schemas.ts';

type EnabledRow = typeof enabledMcpServers.$inferSelect;
type ToolRow = typeof mcpServerTools.$inferSelect;
type McpServerResponse = Static<typeof McpServer>;

/** Headers the transport sets itself: a configured value would break the protocol. */
const reservedHeaders = new Set([
  'accept',
  'content-type',
  'content-length',
  'host',
  'connection',
  'transfer-encoding',
  'mcp-session-id',
  'mcp-protocol-version',
  'last-event-id',
]);

/** The person's own enabled rows for these servers, by server id. */
export async function enabledRowsOf(
  services: Pick<Services, 'database'>,
  userId: number,
  serverIds: number[],
): Promise<Map<number, EnabledRow>> {
  if (serverIds.length === 0) return new Map();
  const rows = await services.database.db
    .select()
    .from(enabledMcpServers)
    .where(and(eq(enabledMcpServers.userId, userId), inArray(enabledMcpServers.mcpServerId, serverIds)));
  return new Map(rows.map((row) => [row.mcpServerId, row]));
}

/** Whether the person can use the server's tools: enabled, and connected when it needs OAuth. */
export function isUsable(server: McpServerRow, enabled: EnabledRow | undefined): boolean {
  return Boolean(enabled?.enabled && (!server.oauth || enabled.sealedTokens));
}

async function toResponses(
  services: Pick<Services, 'database' | 'secrets' | 'config'>,
  principal: Principal,
  rows: McpServerRow[],
): Promise<McpServerResponse[]> {
  const ids = rows.map((row) => row.id);
  const [tools, enabled] = await Promise.all([
    ids.length === 0
      ? Promise.resolve([] as ToolRow[])
      : services.database.db
          .select()
          .from(mcpServerTools)
          .where(inArray(mcpServerTools.mcpServerId, ids))
          .orderBy(asc(mcpServerTools.name)),
    enabledRowsOf(services, principal.userId, ids),
  ]);
  return Promise.all(
    rows.map(async (row) => {
      const mine = enabled.get(row.id);
      const headers = openHeaders(services.secrets, row);
      return {
        id: row.id,
        name: row.name,
        url: row.url,
        healthcheck_status: row.healthcheckStatus,
        healthcheck_error: row.healthcheckError,
        healthchecked_at: row.healthcheckedAt,
        headers: Object.fromEntries(
          Object.entries(headers).map(([name, value]) => [name, maskSecret(value)]),
        ),
        tools: tools
          .filter((tool) => tool.mcpServerId === row.id)
          .map((tool) => ({
            id: tool.id,
            name: tool.name,
            description: tool.description,
            enabled: tool.enabled,
            created_at: tool.createdAt,
          })),
        logo_url: row.logoUrl,
        oauth: row.oauth,
        start_oauth_flow_url:
          row.oauth && !isUsable(row, mine)
            ? await startOAuthFlowUrl(services, row, {
                userId: principal.userId,
                afterOauthRedirectUrl: mine?.afterOauthRedirectUrl ?? null,
              })
            : null,
        workspace_id: row.workspaceId,
        created_at: row.createdAt,
        updated_at: row.updatedAt,
      };
    }),
  );
}

export async function listMcpServers(
  services: Pick<Services, 'database' | 'secrets' | 'config'>,
  principal: Principal,
  workspaceId: number,
  page: PageRequest,
) {
  const { rows, total } = await pageOfWorkspaceRecords(services, mcpServers, workspaceId, page);
  return listBody(await toResponses(services, principal, rows), total, page);
}

export async function getMcpServer(
  services: Pick<Services, 'database' | 'secrets' | 'config'>,
  principal: Principal,
  workspaceId: number,
  id: number,
) {
  const row = await findWorkspaceRecord(services, mcpServers, workspaceId, id);
  const [response] = await toResponses(services, principal, [row]);
  return response as McpServerResponse;
}

function checkUrl(services: Pick<Services, 'config'>, url: string): string {
  const trimmed = url.trim();
  const problem = mcpUrlProblem(trimmed, services.config.outboundFetch.allowPrivateNetwork);
  if (problem) throw ValidationError.field('url', problem);
  return trimmed;
}

/**
 * The headers to store: a value sent back masked keeps the stored one, but only while the server
 * keeps its origin (`keepsDestination`); moved to another scheme, host or port, a masked value
 * names a header to drop, listed in `cleared`.
 */
function checkHeaders(
  sent: Record<string, string>,
  stored: Record<string, string> = {},
  keepsDestination = true,
): { headers: Record<string, string>; cleared: string[] } {
  const errors: Record<string, string[]> = {};
  const headers: Record<string, string> = {};
  const cleared: string[] = [];
  const seen = new Set<string>();
  for (const [name, value] of Object.entries(sent)) {
    const lower = name.toLowerCase();
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/.test(name))
      errors[`headers.${name}`] = ["is not a valid header name (letters, digits and !#$%&'*+.^_`|~-)"];
    else if (reservedHeaders.has(lower)) errors[`headers.${name}`] = ['is set by Letterset itself'];
    else if (seen.has(lower)) errors[`headers.${name}`] = ['is given twice (header names ignore case)'];
    else if (value.trim() === '') errors[`headers.${name}`] = ['needs a value'];
    seen.add(lower);
    const previous = Object.entries(stored).find(([storedName]) => storedName.toLowerCase() === lower)?.[1];
    if (previous === undefined || value !== maskSecret(previous)) headers[name] = value.trim();
    else if (keepsDestination) headers[name] = previous;
    else cleared.push(`headers.${name}`);
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  return { headers, cleared };
}

export async function createMcpServer(
  services: Pick<Services, 'database' | 'secrets' | 'config'>,
  principal: Principal,
  workspaceId: number,
  input: Static<typeof CreateMcpServerBody>,
) {
  const url = checkUrl(services, input.url);
  const { headers } = checkHeaders(input.headers ?? {});
  const [row] = await services.database.db
    .insert(mcpServers)
    .values({
      organizationId: principal.organizationId,
      workspaceId,
      name: input.name,
      url,
      sealedHeaders: sealHeaders(services.secrets, headers),
      createdById: principal.userId,
    })
    .returning();
  if (!row) throw new Error('mcp server insert returned nothing');
  return getMcpServer(services, principal, workspaceId, row.id);
}

export async function updateMcpServer(
  services: Pick<Services, 'database' | 'secrets' | 'config'>,
  principal: Principal,
  workspaceId: number,
  id: number,
  input: Static<typeof UpdateMcpServerBody>,
) {
  const row = await findWorkspaceRecord(services, mcpServers, workspaceId, id);
  // An update of nothing writes nothing: the server reads as it was, updated_at included.
  if (!changesAnything(input))
    return { ...(await getMcpServer(services, principal, workspaceId, id)), secrets_cleared: [] };
  const url = input.url === undefined ? row.url : checkUrl(services, input.url);
  const moved = url !== row.url;
  // The headers were entered for the old origin: sent to another only if this change gives them again.
  const keepsDestination = sameDestination(row.url, url);
  const storedHeaders = openHeaders(services.secrets, row);
  const headerChange =
    input.headers !== undefined || !keepsDestination
      ? checkHeaders(
          // Left out, the headers stay as they are: as if sent back masked.
          input.headers ??
            Object.fromEntries(
              Object.entries(storedHeaders).map(([name, value]) => [name, maskSecret(value)]),
            ),
          storedHeaders,
          keepsDestination,
        )
      : undefined;
  const secretsCleared = [...(headerChange?.cleared ?? [])];
  await services.database.db.transaction(async (tx) => {
    await tx
      .update(mcpServers)
      .set({
        ...(input.name !== undefined ? { name: input.name } : {}),
        url,
        ...(headerChange !== undefined
          ? { sealedHeaders: sealHeaders(services.secrets, headerChange.headers) }
          : {}),
        // Another server: what was found about this one no longer holds.
        ...(moved
          ? {
              healthcheckStatus: 'pending' as const,
              healthcheckError: null,
              healthcheckedAt: null,
              oauth: false,
              oauthSettings: null,
              logoUrl: null,
            }
          : {}),
        updatedAt: new Date(),
      })
      .where(eq(mcpServers.id, id));
    // People's tokens were issued for the old server: they must never be sent to the new one.
    if (moved) {
      const forgotten = await tx
        .select({ id: enabledMcpServers.id })
        .from(enabledMcpServers)
        .where(and(eq(enabledMcpServers.mcpServerId, id), isNotNull(enabledMcpServers.sealedTokens)));
      await tx
        .update(enabledMcpServers)
        .set({
          // A connection to an OAuth server was the sign-in: it has to be made again.
          ...(row.oauth ? { enabled: false } : {}),
          sealedTokens: null,
          tokensExpireAt: null,
          sealedOauthFlow: null,
          updatedAt: new Date(),
        })
        .where(eq(enabledMcpServers.mcpServerId, id));
      if (forgotten.length > 0) secretsCleared.push('oauth_tokens');
      if (oauthSettingsOf(row)?.client?.sealed_client_secret) secretsCleared.push('oauth_client_secret');
    }
  });
  return { ...(await getMcpServer(services, principal, workspaceId, id)), secrets_cleared: secretsCleared };
}

export async function deleteMcpServer(services: Pick<Services, 'database'>, workspaceId: number, id: number) {
  await findWorkspaceRecord(services, mcpServers, workspaceId, id);
  await services.database.db.delete(mcpServers).where(eq(mcpServers.id, id));
}
