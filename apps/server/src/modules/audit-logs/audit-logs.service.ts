import { and, count, desc, eq, gte, lt } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Static } from 'typebox';
import type { Database } from '../../db/client.ts';
import { auditLogs, users } from '../../db/schema.ts';
import { listBody, type PageRequest } from '../../http/pagination.ts';
import type { Principal } from '../../http/principal.ts';
import type { Services } from '../../services.ts';
import { toUserReference } from '../users/users.serializers.ts';
import type { AuditLogEntry, ListAuditLogsQuery } from './audit-logs.schemas.ts';

const actions = { POST: 'create', PUT: 'update', PATCH: 'update', DELETE: 'delete' } as const;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** `true` on a POST that changes nothing (a render): it is not an audit-log entry. */
    writesNothing?: boolean;
  }
}

/**
 * What a route writes, from its URL pattern: the static segments after /api/v1.
 * `/api/v1/teams/:team_id/users/:user_id` → `teams.users`.
 */
export function resourceTypeOf(routeUrl: string): string {
  return routeUrl
    .replace(/^\/api\/v1\//, '')
    .split('/')
    .filter((segment) => !segment.startsWith(':'))
    .join('.');
}

/** The written record's id: the last id in the path, else the `id` of the answer (a create). */
function resourceIdOf(request: FastifyRequest, payload: unknown): string | null {
  const params = request.params as Record<string, unknown>;
  const pathIds = Object.entries(params).filter(([name]) => name !== 'workspace_id');
  const fromPath = pathIds.at(-1)?.[1];
  if (fromPath !== undefined) return String(fromPath);
  if (typeof payload !== 'string' || !payload.startsWith('{')) return null;
  try {
    const body = JSON.parse(payload) as { id?: unknown; user?: { id?: unknown } };
    const id = body.id ?? body.user?.id;
    return id === undefined ? null : String(id);
  } catch {
    return null;
  }
}

/** Requests whose write an earlier entry already records (see `coveredByEarlierEntry`). */
const coveredRequests = new WeakSet<FastifyRequest>();

/**
 * Marks a write that an earlier entry of the log already stands for: the later saves of an editing
 * session, whose first save was recorded (an autosave every second would otherwise be an entry
 * every second, and the log would hide everything else).
 */
export function coveredByEarlierEntry(request: FastifyRequest): void {
  coveredRequests.add(request);
}

/** Records a successful write through the API. Reads, failures and anonymous calls are not written. */
export async function recordWrite(
  services: Pick<Services, 'database'>,
  request: FastifyRequest,
  statusCode: number,
  payload: unknown,
): Promise<void> {
  const action = actions[request.method as keyof typeof actions];
  const principal = request.principal;
  if (!action || !principal || statusCode >= 400 || !request.routeOptions.url?.startsWith('/api/')) return;
  if (request.routeOptions.config.writesNothing || coveredRequests.has(request)) return;
  await services.database.db.insert(auditLogs).values({
    organizationId: principal.organizationId,
    userId: principal.userId,
    apiKeyId: principal.apiKeyId,
    authMethod: principal.via,
    action,
    resourceType: resourceTypeOf(request.routeOptions.url),
    resourceId: resourceIdOf(request, payload),
    method: request.method,
    path: request.url.split('?')[0] ?? request.url,
    statusCode,
    requestId: request.id,
  });
}

/**
 * An entry a service writes for what the route's own entry cannot say: a publish by force names
 * the email under `emails.force_published`, beside the route's `workspaces.emails.publish`.
 * Written inside the caller's transaction, so it exists exactly when the write does.
 */
export async function recordAuditEntry(
  db: Database,
  principal: Principal,
  entry: {
    action: 'create' | 'update' | 'delete';
    resourceType: string;
    resourceId: string;
    method: string;
    path: string;
    requestId: string;
    details?: Record<string, unknown>;
  },
): Promise<void> {
  await db.insert(auditLogs).values({
    organizationId: principal.organizationId,
    userId: principal.userId,
    apiKeyId: principal.apiKeyId,
    authMethod: principal.via,
    statusCode: 200,
    ...entry,
  });
}

export async function listAuditLogs(
  services: Pick<Services, 'database'>,
  principal: Principal,
  query: Static<typeof ListAuditLogsQuery>,
  page: PageRequest,
) {
  const where = and(
    eq(auditLogs.organizationId, principal.organizationId),
    query.user_id !== undefined ? eq(auditLogs.userId, query.user_id) : undefined,
    query.resource_type !== undefined ? eq(auditLogs.resourceType, query.resource_type) : undefined,
    query.from !== undefined ? gte(auditLogs.createdAt, new Date(query.from)) : undefined,
    query.to !== undefined ? lt(auditLogs.createdAt, new Date(query.to)) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    services.database.db
      .select({
        entry: auditLogs,
        user: {
          id: users.id,
          firstName: users.firstName,
          lastName: users.lastName,
          profileImageUrl: users.profileImageUrl,
        },
      })
      .from(auditLogs)
      .leftJoin(users, eq(users.id, auditLogs.userId))
      .where(where)
      .orderBy(desc(auditLogs.createdAt), desc(auditLogs.id))
      .limit(page.limit)
      .offset(page.offset),
    services.database.db.select({ value: count() }).from(auditLogs).where(where),
  ]);
  const results: Static<typeof AuditLogEntry>[] = rows.map(({ entry, user }) => ({
    id: entry.id,
    action: entry.action,
    resource_type: entry.resourceType,
    resource_id: entry.resourceId,
    method: entry.method,
    path: entry.path,
    status_code: entry.statusCode,
    auth_method: entry.authMethod,
    api_key_id: entry.apiKeyId,
    user: user ? toUserReference(user) : null,
    request_id: entry.requestId,
    details: entry.details ?? null,
    created_at: entry.createdAt,
  }));
  return listBody(results, total?.value ?? 0, page);
}
