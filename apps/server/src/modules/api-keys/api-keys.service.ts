import { and, count, desc, eq, inArray, isNull, or, type SQL } from 'drizzle-orm';
import type { Static } from 'typebox';
import type { Database } from '../../db/client.ts';
import { apiKeys, users } from '../../db/schema.ts';
import { NotFoundError } from '../../http/errors.ts';
import { rolesWithinReach } from '../../http/grants.ts';
import { listBody, type PageRequest } from '../../http/pagination.ts';
import type { Principal } from '../../http/principal.ts';
import { randomToken, tokenDigest } from '../../security/tokens.ts';
import type { Services } from '../../services.ts';
import { toUserReference } from '../users/users.serializers.ts';
import type { ApiKey } from './api-keys.schemas.ts';

/** Keys start with this, so secret scanners (and people) recognise a leaked Letterset key. */
export const apiKeyPrefix = 'ls_';
const shownPrefixLength = apiKeyPrefix.length + 6;

const columns = {
  key: apiKeys,
  creator: {
    id: users.id,
    firstName: users.firstName,
    lastName: users.lastName,
    profileImageUrl: users.profileImageUrl,
  },
};

function toApiKeyResponse(row: {
  key: typeof apiKeys.$inferSelect;
  creator: Parameters<typeof toUserReference>[0];
}): Static<typeof ApiKey> {
  return {
    id: row.key.id,
    name: row.key.name,
    prefix: row.key.prefix,
    creator: toUserReference(row.creator),
    last_used_at: row.key.lastUsedAt,
    created_at: row.key.createdAt,
  };
}

/**
 * The live keys the caller may see and revoke: their own, and with `manage_api_keys` those of the
 * people whose every key the caller holds (so an Admin sees all, a Developer not an Admin's).
 * Keys of removed people are not live: they stopped working with their owner.
 */
async function visibleKeys(db: Database, principal: Principal): Promise<SQL | undefined> {
  const others = principal.permissions.has('manage_api_keys') ? await rolesWithinReach(db, principal) : [];
  return and(
    eq(apiKeys.organizationId, principal.organizationId),
    isNull(apiKeys.revokedAt),
    isNull(users.deletedAt),
    others.length > 0
      ? or(eq(apiKeys.userId, principal.userId), inArray(users.roleId, others))
      : eq(apiKeys.userId, principal.userId),
  );
}

export async function listApiKeys(
  services: Pick<Services, 'database'>,
  principal: Principal,
  page: PageRequest,
) {
  const where = await visibleKeys(services.database.db, principal);
  const [rows, [total]] = await Promise.all([
    services.database.db
      .select(columns)
      .from(apiKeys)
      .innerJoin(users, eq(users.id, apiKeys.userId))
      .where(where)
      .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id))
      .limit(page.limit)
      .offset(page.offset),
    services.database.db
      .select({ value: count() })
      .from(apiKeys)
      .innerJoin(users, eq(users.id, apiKeys.userId))
      .where(where),
  ]);
  return listBody(rows.map(toApiKeyResponse), total?.value ?? 0, page);
}

export async function createApiKey(services: Pick<Services, 'database'>, principal: Principal, name: string) {
  const key = `${apiKeyPrefix}${randomToken()}`;
  const [created] = await services.database.db
    .insert(apiKeys)
    .values({
      organizationId: principal.organizationId,
      userId: principal.userId,
      name,
      prefix: key.slice(0, shownPrefixLength),
      tokenHash: tokenDigest(key),
    })
    .returning({ id: apiKeys.id });
  const [row] = await services.database.db
    .select(columns)
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(eq(apiKeys.id, created?.id ?? 0));
  if (!row) throw new Error('api key insert returned nothing');
  return { ...toApiKeyResponse(row), key };
}

/**
 * Revoked keys stop working at once and leave the list; the row stays for the audit log. A key the
 * caller may not see (someone else's, without `manage_api_keys` or without every key its owner
 * holds) answers 404, as one that does not exist: the list never showed it.
 */
export async function revokeApiKey(
  services: Pick<Services, 'database'>,
  principal: Principal,
  id: number,
): Promise<void> {
  const visible = await visibleKeys(services.database.db, principal);
  const [key] = await services.database.db
    .select({ id: apiKeys.id })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(and(eq(apiKeys.id, id), visible));
  if (!key) throw new NotFoundError();
  const revoked = await services.database.db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.id, key.id), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  if (revoked.length === 0) throw new NotFoundError();
}
