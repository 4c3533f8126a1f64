import { and, count, desc, eq, isNull } from 'drizzle-orm';
import type { Static } from 'typebox';
import type { App } from '../../app.ts';
import { apiKeys, users } from '../../db/schema.ts';
import type { Principal } from '../../http/access.ts';
import { NotFoundError } from '../../http/errors.ts';
import { listBody, type PageRequest } from '../../http/pagination.ts';
import { randomToken, tokenDigest } from '../../security/tokens.ts';
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

export async function listApiKeys(app: App, principal: Principal, page: PageRequest) {
  const where = and(eq(apiKeys.organizationId, principal.organizationId), isNull(apiKeys.revokedAt));
  const [rows, [total]] = await Promise.all([
    app.database.db
      .select(columns)
      .from(apiKeys)
      .innerJoin(users, eq(users.id, apiKeys.userId))
      .where(where)
      .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id))
      .limit(page.limit)
      .offset(page.offset),
    app.database.db.select({ value: count() }).from(apiKeys).where(where),
  ]);
  return listBody(rows.map(toApiKeyResponse), total?.value ?? 0, page);
}

export async function createApiKey(app: App, principal: Principal, name: string) {
  const key = `${apiKeyPrefix}${randomToken()}`;
  const [created] = await app.database.db
    .insert(apiKeys)
    .values({
      organizationId: principal.organizationId,
      userId: principal.userId,
      name,
      prefix: key.slice(0, shownPrefixLength),
      tokenHash: tokenDigest(key),
    })
    .returning({ id: apiKeys.id });
  const [row] = await app.database.db
    .select(columns)
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(eq(apiKeys.id, created?.id ?? 0));
  if (!row) throw new Error('api key insert returned nothing');
  return { ...toApiKeyResponse(row), key };
}

/** Revoked keys stop working at once and leave the list; the row stays for the audit log. */
export async function revokeApiKey(app: App, principal: Principal, id: number): Promise<void> {
  const revoked = await app.database.db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(
      and(
        eq(apiKeys.id, id),
        eq(apiKeys.organizationId, principal.organizationId),
        isNull(apiKeys.revokedAt),
      ),
    )
    .returning({ id: apiKeys.id });
  if (revoked.length === 0) throw new NotFoundError();
}
