import { type PermissionKey, permissionKeys } from '@letterset/core';
import { and, asc, eq, isNull } from 'drizzle-orm';
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys, roles, users } from '../db/schema.ts';
import { apiKeyHeadersFor, createTestOrganization, createTestUser } from '../test/factories.ts';
import { buildTestApp, type TestApp } from '../test/harness.ts';
import { countAdministrators } from './grants.ts';

/**
 * Keys that grant or guard grants, and a few others: custom roles drawn from them often hold
 * subsets of one another, so generated grants are sometimes allowed and sometimes not.
 */
const grantKeys: PermissionKey[] = [
  'update_users',
  'create_users',
  'delete_users',
  'update_roles',
  'create_roles',
  'manage_api_keys',
  'email_commenting',
];
const someKeys = fc.oneof(
  { weight: 3, arbitrary: fc.subarray(grantKeys) },
  { weight: 1, arbitrary: fc.subarray([...permissionKeys]) },
);
// Uniform: small indices (the Admin, the first key) would otherwise be picked most of the time.
const index = fc.noBias(fc.nat({ max: 20 }));
const grantAction = fc.oneof(
  fc.record({ kind: fc.constant('assign_role' as const), actor: index, target: index, role: index }),
  // `ownKeysOnly`: the keys are cut down to the actor's own, so that many such grants are allowed.
  fc.record({
    kind: fc.constant('create_role' as const),
    actor: index,
    keys: someKeys,
    ownKeysOnly: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant('update_role_keys' as const),
    actor: index,
    role: index,
    keys: someKeys,
    ownKeysOnly: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('invite' as const), actor: index, role: index }),
  fc.record({ kind: fc.constant('revoke_key' as const), actor: index, key: index }),
  fc.record({ kind: fc.constant('remove_person' as const), actor: index, target: index }),
);
type GrantAction = typeof grantAction extends fc.Arbitrary<infer T> ? T : never;

/** The key each action's route declares: a success without it would be an escalation too. */
const routeKey: Record<GrantAction['kind'], PermissionKey | null> = {
  assign_role: 'update_users',
  create_role: 'create_roles',
  update_role_keys: 'update_roles',
  invite: 'create_users',
  revoke_key: null,
  remove_person: 'delete_users',
};

/** Who holds what in one organization, read from the database. */
interface Snapshot {
  /** Live people's keys, by user id. */
  people: Map<number, Set<string>>;
  roles: Map<number, Set<string>>;
  /** Unrevoked API keys: owner by key id. */
  keys: Map<number, number>;
  administrators: number;
}

describe('grant escalation (property)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp();
  });
  afterAll(() => app.close());

  async function snapshot(organizationId: number): Promise<Snapshot> {
    const db = app.services.database.db;
    const [people, roleRows, keyRows, administrators] = await Promise.all([
      db
        .select({ id: users.id, permissions: roles.permissions })
        .from(users)
        .innerJoin(roles, eq(roles.id, users.roleId))
        .where(and(eq(users.organizationId, organizationId), isNull(users.deletedAt))),
      db.select().from(roles).where(eq(roles.organizationId, organizationId)).orderBy(asc(roles.id)),
      db
        .select({ id: apiKeys.id, userId: apiKeys.userId })
        .from(apiKeys)
        .where(and(eq(apiKeys.organizationId, organizationId), isNull(apiKeys.revokedAt))),
      countAdministrators(db, organizationId),
    ]);
    return {
      people: new Map(people.map((person) => [person.id, new Set(person.permissions)])),
      roles: new Map(roleRows.map((role) => [role.id, new Set(role.permissions)])),
      keys: new Map(keyRows.map((key) => [key.id, key.userId])),
      administrators,
    };
  }

  const pick = <T>(list: readonly T[], at: number): T => list[at % list.length] as T;
  const added = (after: Set<string>, before: Set<string> | undefined) =>
    [...after].filter((key) => !before?.has(key));
  // Plain set differences, not core's keysBeyond: the property must not trust the rule it checks.
  const lacking = (holder: Set<string>, keys: Iterable<string>) =>
    [...keys].filter((key) => !holder.has(key));

  it('never lets an actor grow its own keys or hand out a key it lacks, and always keeps an administrator', async () => {
    const successes: Record<GrantAction['kind'], number> = {
      assign_role: 0,
      create_role: 0,
      update_role_keys: 0,
      invite: 0,
      revoke_key: 0,
      remove_person: 0,
    };
    let invitations = 0;

    await fc.assert(
      fc.asyncProperty(
        fc.array(someKeys, { minLength: 2, maxLength: 4 }),
        fc.array(index, { minLength: 2, maxLength: 4 }),
        fc.array(grantAction, { minLength: 1, maxLength: 6 }),
        async (customRoles, peopleRoles, actions) => {
          const organization = await createTestOrganization(app);
          const builtInRoleIds = Object.values(organization.roleIds);
          const db = app.services.database.db;
          const customRoleIds: number[] = [];
          for (const [position, keys] of customRoles.entries()) {
            const [row] = await db
              .insert(roles)
              .values({
                organizationId: organization.organizationId,
                name: `Generated ${position}`,
                permissions: keys,
              })
              .returning({ id: roles.id });
            if (row) customRoleIds.push(row.id);
          }
          // The Admin first, then people with generated roles (the built-in roles are there to be
          // given); each has an API key.
          const people = [organization.admin.id];
          for (const roleAt of peopleRoles) {
            people.push(
              (await createTestUser(app, organization, { roleId: pick(customRoleIds, roleAt) })).id,
            );
          }
          const headersOf = new Map<number, Record<string, string>>();
          for (const id of people) {
            headersOf.set(id, await apiKeyHeadersFor(app, organization, { id, email: '', password: '' }));
          }

          for (const action of actions) {
            const before = await snapshot(organization.organizationId);
            const actor = pick(people, action.actor);
            const roleIds = [...before.roles.keys()];
            const headers = headersOf.get(actor) ?? {};
            const customRoleIds = [...before.roles.keys()].filter((id) => !builtInRoleIds.includes(id));
            const keysToSend = ({ keys, ownKeysOnly }: { keys: PermissionKey[]; ownKeysOnly: boolean }) =>
              ownKeysOnly ? keys.filter((key) => before.people.get(actor)?.has(key)) : keys;
            let request: InjectOptions;
            switch (action.kind) {
              case 'assign_role':
                request = {
                  method: 'PATCH',
                  url: `/api/v1/users/${pick(people, action.target)}`,
                  payload: { role_id: pick(roleIds, action.role) },
                };
                break;
              case 'create_role':
                request = {
                  method: 'POST',
                  url: '/api/v1/roles',
                  payload: { name: `Made ${roleIds.length}`, role_permissions: keysToSend(action) },
                };
                break;
              case 'update_role_keys':
                request = {
                  method: 'PATCH',
                  url: `/api/v1/roles/${pick(customRoleIds, action.role)}`,
                  payload: { role_permissions: keysToSend(action) },
                };
                break;
              case 'invite':
                invitations += 1;
                request = {
                  method: 'POST',
                  url: '/api/v1/users',
                  payload: {
                    first_name: 'Invited',
                    last_name: 'Person',
                    email: `invited-${invitations}-${organization.organizationId}@example.com`,
                    role_id: pick(roleIds, action.role),
                  },
                };
                break;
              case 'revoke_key':
                request = {
                  method: 'DELETE',
                  url: `/api/v1/api_keys/${pick([...before.keys.keys(), 2_000_000_000], action.key)}`,
                };
                break;
              case 'remove_person':
                request = { method: 'DELETE', url: `/api/v1/users/${pick(people, action.target)}` };
                break;
            }
            const response = await app.inject({ ...request, headers });
            const after = await snapshot(organization.organizationId);
            const actorKeys = before.people.get(actor) ?? new Set<string>();
            const context = `${JSON.stringify(action)} → ${response.statusCode} ${response.body}`;

            expect(response.statusCode, context).toBeLessThan(500);
            if (response.statusCode < 300) {
              successes[action.kind] += 1;
              const needed = routeKey[action.kind];
              if (needed) expect(actorKeys.has(needed), context).toBe(true);
            }
            // The actor's own keys never grow.
            expect(added(after.people.get(actor) ?? new Set(), actorKeys), context).toEqual([]);
            // Nobody, new people included, receives a key the actor lacks.
            for (const [person, keys] of after.people) {
              expect(lacking(actorKeys, added(keys, before.people.get(person))), context).toEqual([]);
            }
            // No role, new roles included, gains a key the actor lacks.
            for (const [role, keys] of after.roles) {
              expect(lacking(actorKeys, added(keys, before.roles.get(role))), context).toEqual([]);
            }
            // Someone else's key is revoked only by a holder of every key its owner holds.
            for (const [key, owner] of before.keys) {
              if (after.keys.has(key) || owner === actor) continue;
              expect(lacking(actorKeys, before.people.get(owner) ?? []), context).toEqual([]);
            }
            // People who lose keys or are removed are within the actor's keys as they were.
            for (const [person, keys] of before.people) {
              const lost = [...keys].filter((key) => !after.people.get(person)?.has(key));
              if (lost.length > 0 && person !== actor) expect(lacking(actorKeys, keys), context).toEqual([]);
            }
            expect(after.administrators, context).toBeGreaterThanOrEqual(1);
          }
        },
      ),
      { numRuns: 50 },
    );

    // The rule must have let grants through too, or the property proves nothing.
    for (const kind of ['assign_role', 'create_role', 'update_role_keys', 'invite', 'revoke_key'] as const) {
      expect(successes[kind], kind).toBeGreaterThan(0);
    }
  }, 120_000);
});
