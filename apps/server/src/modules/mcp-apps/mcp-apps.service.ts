import { and, count, desc, eq } from 'drizzle-orm';
import type { Static } from 'typebox';
import { mcpApps, organizations, users } from '../../db/schema.ts';
import { NotFoundError, ValidationError } from '../../http/errors.ts';
import { listBody, type PageRequest } from '../../http/pagination.ts';
import type { Principal } from '../../http/principal.ts';
import { randomToken, tokenDigest } from '../../security/tokens.ts';
import type { Services } from '../../services.ts';
import { toUserReference, userReferenceColumns } from '../users/users.serializers.ts';
import type { CreateMcpAppBody, McpApp, McpConsentBody, UpdateMcpAppBody } from './mcp-apps.schemas.ts';
import {
  clientIdPrefix,
  clientSecretPrefix,
  codeChallengePattern,
  issueAuthorizationCode,
  issuerOf,
  mcpResourceOf,
  redirectUriProblem,
  redirectUriRegistered,
  redirectWith,
  resourceAccepted,
} from './mcp-oauth.ts';

type McpAppRow = typeof mcpApps.$inferSelect;

function toMcpAppResponse(
  row: McpAppRow,
  creator: Parameters<typeof toUserReference>[0] | null,
): Static<typeof McpApp> {
  return {
    id: row.id,
    name: row.name,
    client_id: row.clientId,
    redirect_uris: row.redirectUris,
    created_by: creator?.id ? toUserReference(creator) : null,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

function selectApps(services: Pick<Services, 'database'>) {
  return services.database.db
    .select({ app: mcpApps, creator: userReferenceColumns })
    .from(mcpApps)
    .leftJoin(users, eq(users.id, mcpApps.createdById));
}

export async function listMcpApps(
  services: Pick<Services, 'database'>,
  principal: Principal,
  page: PageRequest,
) {
  const where = eq(mcpApps.organizationId, principal.organizationId);
  const [rows, [total]] = await Promise.all([
    selectApps(services)
      .where(where)
      .orderBy(desc(mcpApps.createdAt), desc(mcpApps.id))
      .limit(page.limit)
      .offset(page.offset),
    services.database.db.select({ value: count() }).from(mcpApps).where(where),
  ]);
  return listBody(
    rows.map((row) => toMcpAppResponse(row.app, row.creator)),
    total?.value ?? 0,
    page,
  );
}

/** 422 naming each redirect URI that is not safe to send a code to. */
function checkRedirectUris(uris: readonly string[]): void {
  const problems: Record<string, string[]> = {};
  uris.forEach((uri, index) => {
    const problem = redirectUriProblem(uri);
    if (problem) problems[`redirect_uris.${index}`] = [problem];
  });
  if (Object.keys(problems).length > 0) throw new ValidationError(problems);
}

/** Registers an app; the answer carries its client secret, this once. */
export async function createMcpApp(
  services: Pick<Services, 'database'>,
  principal: Principal,
  input: Static<typeof CreateMcpAppBody>,
) {
  checkRedirectUris(input.redirect_uris);

  const clientSecret = `${clientSecretPrefix}${randomToken()}`;
  const [created] = await services.database.db
    .insert(mcpApps)
    .values({
      organizationId: principal.organizationId,
      name: input.name,
      clientId: `${clientIdPrefix}${randomToken().slice(0, 24)}`,
      clientSecretHash: tokenDigest(clientSecret),
      redirectUris: input.redirect_uris,
      createdById: principal.userId,
    })
    .returning();
  if (!created) throw new Error('mcp app insert returned nothing');
  const [row] = await selectApps(services).where(eq(mcpApps.id, created.id));
  return { ...toMcpAppResponse(created, row?.creator ?? null), client_secret: clientSecret };
}

/**
 * Renames an app or changes its redirect URIs (an assistant moved its callback): the client id,
 * the secret and everyone's connection stay. A code already issued still goes back to the URI
 * it was issued for, which the exchange checks.
 */
export async function updateMcpApp(
  services: Pick<Services, 'database'>,
  principal: Principal,
  id: number,
  input: Static<typeof UpdateMcpAppBody>,
) {
  if (input.redirect_uris) checkRedirectUris(input.redirect_uris);
  const own = and(eq(mcpApps.id, id), eq(mcpApps.organizationId, principal.organizationId));
  const changes = {
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.redirect_uris !== undefined ? { redirectUris: input.redirect_uris } : {}),
  };
  if (Object.keys(changes).length > 0) await services.database.db.update(mcpApps).set(changes).where(own);
  const [row] = await selectApps(services).where(own);
  if (!row) throw new NotFoundError();
  return toMcpAppResponse(row.app, row.creator);
}

/** Its codes and tokens go with it: every assistant connected through it stops at once (401). */
export async function deleteMcpApp(
  services: Pick<Services, 'database'>,
  principal: Principal,
  id: number,
): Promise<void> {
  const deleted = await services.database.db
    .delete(mcpApps)
    .where(and(eq(mcpApps.id, id), eq(mcpApps.organizationId, principal.organizationId)))
    .returning({ id: mcpApps.id });
  if (deleted.length === 0) throw new NotFoundError();
}

/** An app of the caller's own organization: people consent only to their organization's apps. */
async function findOwnClient(services: Pick<Services, 'database'>, principal: Principal, clientId: string) {
  const [row] = await services.database.db
    .select({ app: mcpApps, organizationName: organizations.name })
    .from(mcpApps)
    .innerJoin(organizations, eq(organizations.id, mcpApps.organizationId))
    .where(and(eq(mcpApps.clientId, clientId), eq(mcpApps.organizationId, principal.organizationId)));
  if (!row) throw new NotFoundError('No MCP app of your organization has this client id');
  return row;
}

export async function describeMcpClient(
  services: Pick<Services, 'database'>,
  principal: Principal,
  clientId: string,
) {
  const { app: client, organizationName } = await findOwnClient(services, principal, clientId);
  return { client_id: client.clientId, name: client.name, organization_name: organizationName };
}

/**
 * The person's answer on the consent screen. The request is checked again here (the screen's
 * address can be typed by anyone); Allow issues a code for the person, Deny says access_denied.
 */
export async function answerConsent(
  services: Pick<Services, 'config' | 'database'>,
  principal: Principal,
  input: Static<typeof McpConsentBody>,
) {
  const { app: client } = await findOwnClient(services, principal, input.client_id);
  if (!redirectUriRegistered(client.redirectUris, input.redirect_uri)) {
    throw ValidationError.field('redirect_uri', 'is not one of the app’s registered redirect URIs');
  }
  if (!codeChallengePattern.test(input.code_challenge)) {
    throw ValidationError.field('code_challenge', 'must be BASE64URL(SHA-256(code_verifier)), 43 characters');
  }
  if (!resourceAccepted(services.config, input.resource)) {
    throw ValidationError.field('resource', `must be ${mcpResourceOf(services.config)}`);
  }
  const issuer = issuerOf(services.config);
  if (!input.allow) {
    return {
      redirect_url: redirectWith(input.redirect_uri, {
        error: 'access_denied',
        error_description: 'The person declined to connect the app',
        state: input.state,
        iss: issuer,
      }),
    };
  }
  const code = await issueAuthorizationCode(services, {
    mcpAppId: client.id,
    userId: principal.userId,
    codeChallenge: input.code_challenge,
    redirectUri: input.redirect_uri,
  });
  return { redirect_url: redirectWith(input.redirect_uri, { code, state: input.state, iss: issuer }) };
}
