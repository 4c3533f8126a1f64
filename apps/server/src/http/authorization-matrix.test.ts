import { randomUUID } from 'node:crypto';
import { builtInRoleNames, isPermissionKey, type PermissionKey, permissionKeys } from '@letterset/core';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roles, teamMemberships } from '../db/schema.ts';
import { apiKeyHeadersFor, createTestOrganization, createTestUser } from '../test/factories.ts';
import { buildTestApp, type TestApp } from '../test/harness.ts';
import {
  type OpenApiDocument,
  type Operation,
  operationsOf,
  type Resolve,
  schemaResolver,
} from '../test/openapi-operations.ts';
import { createRecordFixture, fillPath, type RecordFixture } from '../test/record-fixture.ts';
import { limits } from './schemas.ts';

/**
 * The authorization matrix, generated from the OpenAPI document the server serves: every
 * operation is called by the four built-in roles and by custom roles cut around the operation's
 * documented `x-permission`, and by nobody at all. A caller whose role lacks the key is refused
 * with 403 naming it; a caller who holds it is never refused (401 or 403); nobody gets 401 unless
 * the operation is public. The matrix names no operation's key: it reads each from the document,
 * so an operation whose documented key is missing or is not the one enforced fails, and the
 * checks of the keys themselves below catch a route that declares a wrong one.
 */

/** What an operation's `x-permission` says, read strictly. */
type Declared = { kind: 'public' } | { kind: 'signed_in' } | { kind: 'keys'; keys: PermissionKey[] };

function declaredPermission(operation: Operation): Declared | { problem: string } {
  const documented = operation.permission;
  if (documented === 'public' || documented === 'signed_in') return { kind: documented };
  const keys = [documented ?? []].flat();
  if (keys.length === 0) return { problem: 'has no x-permission' };
  const unknown = keys.filter((key) => !isPermissionKey(key));
  if (unknown.length > 0) return { problem: `names ${unknown.join(', ')}, which is not a permission key` };
  if (new Set(keys).size !== keys.length) return { problem: `repeats a key in ${keys.join(', ')}` };
  return { kind: 'keys', keys: keys as PermissionKey[] };
}

/**
 * Operations that deliberately answer 404 rather than 403 to a role without their key, so as
 * not to reveal that the record exists, and why. None does today: every route's key is checked
 * before its records are looked up, so the 403 reveals nothing about them.
 */
const deliberatelyHidden: Record<string, string> = {};

/**
 * Where a collection's create, update and delete need a key of a different name than its own
 * `create_<collection>`, `update_<collection>`, `delete_<collection>` or `manage_<collection>`, and why.
 */
const conventionExceptions: Record<string, string> = {
  'POST /api/v1/teams/:team_id/users': 'adding a member changes the team (update_teams), not a user',
  'POST /api/v1/workspaces/:workspace_id/users':
    'letting a person into a workspace is workspace access (manage_workspace_access), not a new user',
  'DELETE /api/v1/api_keys/:id':
    'people revoke their own keys; revoking someone else’s is bounded by that person’s keys, which the route checks itself',
};

/**
 * Keys that no operation names as its own, and why. Any other key that stops being named (a
 * route that lost its key to `signed_in` or to another one) fails the test.
 */
const keysNoOperationNames: Partial<Record<PermissionKey, string>> = {
  add_remove_reorder_email_components: 'checked by an email update on the components it changes',
  add_remove_conditional_from_components: 'checked by an email update on the conditionals it changes',
  add_remove_locales_from_emails: 'checked by an email update and a translation on the locales they add',
  force_publish_emails: 'checked by publishing with force: true',
  access_all_projects: 'widens which projects and emails a person sees, on every operation',
  access_all_workspaces: 'widens which workspaces a person may enter, on every operation',
  access_all_teams: 'no operation checks it yet',
  manage_billing: 'Letterset has no billing operations',
  manage_organization_sso_settings: 'Letterset has no single sign-on settings yet',
};

/** The key a collection's conventional create, update or delete needs, when there is such a key. */
function conventionalKeys(operation: Operation): string[] {
  const segments = operation.path.split('/');
  const last = segments.at(-1) ?? '';
  const collection = operation.method === 'POST' ? last : last === ':id' ? (segments.at(-2) ?? '') : '';
  const verb = { POST: 'create', PATCH: 'update', DELETE: 'delete' }[operation.method as string];
  if (!verb || collection === '' || collection.startsWith(':')) return [];
  const resource = collection === 'images' ? 'library_images' : collection;
  return [`${verb}_${resource}`, `manage_${resource}`].filter(isPermissionKey);
}

/** Someone calling the API with a key of their own, and the permissions the server says they have. */
interface Caller {
  label: string;
  keys: ReadonlySet<string>;
  headers: Record<string, string>;
}

/** What a call should meet: 401 (no credentials), 403 (a role without the key), or neither. */
type Side = 'unauthenticated' | 'refused' | 'allowed';

/** The id parameter of the record a write acts on: its last one other than the workspace's. */
function actedOnRecordParameter(operation: Operation): Operation['pathParameters'][number] | undefined {
  return operation.pathParameters.findLast(
    (parameter) =>
      parameter.name !== 'workspace_id' && (parameter.name === 'id' || parameter.name.endsWith('_id')),
  );
}

/** An id of the parameter's documented type that names no record. */
function missingRecordId(schema: Operation['pathParameters'][number]['schema'], resolve: Resolve): string {
  const resolved = resolve(schema);
  if (resolved.type === 'integer') return String(limits.largestId);
  return randomUUID();
}

function messageOf(response: LightMyRequestResponse): string {
  try {
    return String((response.json() as { message?: unknown }).message ?? '');
  } catch {
    return '';
  }
}

describe('authorization matrix, generated from the OpenAPI document', () => {
  let app: TestApp;
  let fixture: RecordFixture;
  let document: OpenApiDocument;
  let operations: Operation[];
  let resolve: Resolve;
  let builtIns: Caller[];
  let noKeys: Caller;
  const anonymous: Caller = { label: 'nobody (no credentials)', keys: new Set(), headers: {} };
  /** By the operation's key set: a role with every key but those, and one role per key with only it. */
  const cutRoles = new Map<string, { allBut: Caller; only: Caller[] }>();

  const keySetName = (keys: readonly string[]) => [...keys].sort().join(' or ');

  beforeAll(async () => {
    app = await buildTestApp();
    const organization = await createTestOrganization(app, 'Matrix');
    fixture = await createRecordFixture(app, organization);
    const served = await app.inject({ method: 'GET', url: '/openapi.json' });
    expect(served.statusCode).toBe(200);
    document = served.json();
    operations = operationsOf(document);
    resolve = schemaResolver(document);
    const setupStarted = performance.now();

    /** A member of the workspace and the fixture's team (so of its project and email), with a key of their own. */
    const callerWithRole = async (label: string, roleId: number): Promise<Caller> => {
      const user = await createTestUser(app, organization, { roleId });
      await app.services.database.db
        .insert(teamMemberships)
        .values({ teamId: fixture.teamId, userId: user.id });
      const headers = await apiKeyHeadersFor(app, organization, user);
      const me = await app.inject({ method: 'GET', url: '/api/v1/me', headers });
      if (me.statusCode !== 200) throw new Error(`/me as ${label} answered ${me.statusCode}: ${me.body}`);
      return { label, keys: new Set<string>(me.json().permissions), headers };
    };

    // Custom roles, written at once: every key but the operation's, and each of its keys alone.
    const wanted = new Map<string, readonly PermissionKey[]>([['Matrix: no keys', []]]);
    for (const operation of operations) {
      const declared = declaredPermission(operation);
      if (!('kind' in declared) || declared.kind !== 'keys') continue;
      const omitted = new Set<string>(declared.keys);
      wanted.set(
        `Matrix: all but ${keySetName(declared.keys)}`,
        permissionKeys.filter((key) => !omitted.has(key)),
      );
      for (const key of declared.keys) wanted.set(`Matrix: only ${key}`, [key]);
    }
    const created = await app.services.database.db
      .insert(roles)
      .values(
        [...wanted].map(([name, keys]) => ({
          organizationId: organization.organizationId,
          name,
          permissions: [...keys],
        })),
      )
      .returning({ id: roles.id, name: roles.name });
    const customCallers = new Map<string, Caller>();
    for (const role of created) {
      const caller = await callerWithRole(role.name, role.id);
      // The role holds what was asked, no more and no less: otherwise the matrix below proves nothing.
      expect([...caller.keys].sort(), role.name).toEqual([...(wanted.get(role.name) ?? [])].sort());
      customCallers.set(role.name, caller);
    }
    const custom = (name: string) => {
      const caller = customCallers.get(name);
      if (!caller) throw new Error(`no caller for ${name}`);
      return caller;
    };

    builtIns = [];
    for (const name of builtInRoleNames) {
      builtIns.push(await callerWithRole(name, organization.roleIds[name]));
    }
    noKeys = custom('Matrix: no keys');
    for (const operation of operations) {
      const declared = declaredPermission(operation);
      if (!('kind' in declared) || declared.kind !== 'keys') continue;
      const name = keySetName(declared.keys);
      cutRoles.set(name, {
        allBut: custom(`Matrix: all but ${name}`),
        only: declared.keys.map((key) => custom(`Matrix: only ${key}`)),
      });
    }
    console.log(
      `authorization matrix: ${created.length} custom roles and their callers made in ${((performance.now() - setupStarted) / 1000).toFixed(1)} s`,
    );
  }, 180_000);
  afterAll(() => app.close());

  it('says who may call every operation: x-permission and the description', () => {
    expect(operations.length).toBeGreaterThan(150);
    const problems: string[] = [];
    for (const operation of operations) {
      const declared = declaredPermission(operation);
      if (!('kind' in declared)) {
        problems.push(`${operation.id} ${declared.problem}`);
        continue;
      }
      const documented = (document.paths[operation.path.replaceAll(/:(\w+)/g, '{$1}')]?.[
        operation.method.toLowerCase()
      ] ?? {}) as { description?: string; security?: unknown[] };
      const sentence = documented.description?.split('\n').at(-1) ?? '';
      const named = declared.kind === 'keys' ? declared.keys.map((key) => `\`${key}\``) : [];
      if (!sentence.startsWith('**Permission:**') || named.some((key) => !sentence.includes(key))) {
        problems.push(`${operation.id}'s description does not end with its permission: “${sentence}”`);
      }
      // The document's security requirement says the same: none exactly when the operation is public.
      const needsNoCredentials = Array.isArray(documented.security) && documented.security.length === 0;
      if (needsNoCredentials !== (declared.kind === 'public')) {
        problems.push(`${operation.id} is ${declared.kind} but its security says otherwise`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('names every permission key on some operation, except the keys checked elsewhere', () => {
    const named = new Set(operations.flatMap((operation) => [operation.permission ?? []].flat()));
    const unnamed = permissionKeys.filter((key) => !named.has(key));
    expect(unnamed.sort()).toEqual(Object.keys(keysNoOperationNames).sort());
  });

  it('declares the key of the collection and the change it makes', () => {
    const problems: string[] = [];
    let checked = 0;
    for (const operation of operations) {
      const expected = conventionalKeys(operation);
      const where = `${operation.method} ${operation.path}`;
      if (expected.length === 0 || where in conventionExceptions) continue;
      checked += 1;
      const declared = [operation.permission ?? []].flat();
      if (!expected.some((key) => declared.includes(key))) {
        problems.push(
          `${operation.id} (${where}) declares ${declared.join(' or ') || 'nothing'}, not ${expected.join(' or ')}`,
        );
      }
    }
    for (const id of Object.keys(deliberatelyHidden)) {
      expect(
        operations.some((operation) => operation.id === id),
        `${id} is listed as hidden but is not in the document`,
      ).toBe(true);
    }
    for (const where of Object.keys(conventionExceptions)) {
      const [method, path] = where.split(' ');
      expect(
        operations.some((operation) => operation.method === method && operation.path === path),
        `${where} is listed as an exception but is not in the document`,
      ).toBe(true);
    }
    expect(checked).toBeGreaterThan(40);
    expect(problems).toEqual([]);
  });

  it('refuses every role without the key with 403 naming it, never refuses one that holds it, and asks anyone else to sign in', async () => {
    const started = performance.now();
    const problems: string[] = [];
    let checks = 0;
    let holderChecksSkipped = 0;

    const requestFor = (operation: Operation, side: Side) => {
      // A refused call is turned away before its body or records are read: real records, no body.
      if (side !== 'allowed' || operation.readOnly) {
        const required = operation.readOnly
          ? operation.queryParameters
              .filter((parameter) => parameter.required)
              .map((parameter) => {
                const schema = resolve(parameter.schema);
                return `${parameter.name}=${encodeURIComponent(String(schema.example ?? schema.enum?.[0]))}`;
              })
          : [];
        return `${fillPath(operation.path, fixture)}${required.length > 0 ? `?${required.join('&')}` : ''}`;
      }
      // A write by a holder is sent without its body (a 422 before anything changes); one that
      // takes no body (deletes, runs, tests of outside connections) names a record that does not
      // exist, so that it reaches its handler and answers 404 without touching the fixture or
      // calling out.
      const record = operation.body ? undefined : actedOnRecordParameter(operation);
      if (!record) return fillPath(operation.path, fixture);
      const marker = 'matrix-missing-record';
      const template = operation.path.replace(`:${record.name}`, marker);
      return fillPath(template, fixture).replace(marker, missingRecordId(record.schema, resolve));
    };

    const judge = (
      operation: Operation,
      declared: Declared,
      side: Side,
      response: LightMyRequestResponse,
    ): string | null => {
      const status = response.statusCode;
      const message = messageOf(response);
      if (side === 'unauthenticated') return status === 401 ? null : `answered ${status} to nobody, not 401`;
      if (side === 'refused') {
        if (operation.id in deliberatelyHidden) return status === 404 ? null : `answered ${status}, not 404`;
        if (status !== 403) return `answered ${status} (${response.body.slice(0, 160)}), not 403`;
        const keys = declared.kind === 'keys' ? declared.keys : [];
        const unnamed = keys.filter((key) => !message.includes(key));
        return unnamed.length > 0 ? `answered 403 “${message}”, not naming ${unnamed.join(', ')}` : null;
      }
      if (status === 401 || status === 403) return `refused a holder: ${status} “${message}”`;
      if (status >= 500) return `answered ${status}: ${response.body.slice(0, 160)}`;
      return null;
    };

    const sides: { side: Side; operation: Operation; declared: Declared; caller: Caller }[] = [];
    for (const operation of operations) {
      const declared = declaredPermission(operation);
      if (!('kind' in declared)) {
        problems.push(`${operation.id} ${declared.problem}`);
        continue;
      }
      const keys = declared.kind === 'keys' ? declared.keys : [];
      const holds = (caller: Caller) => keys.length === 0 || keys.some((key) => caller.keys.has(key));
      const callers = [...builtIns];
      if (declared.kind === 'keys') {
        const cut = cutRoles.get(keySetName(keys));
        if (!cut) throw new Error(`no roles cut for ${operation.id}`);
        callers.push(cut.allBut, ...cut.only);
      } else {
        callers.push(noKeys);
      }
      for (const caller of callers) {
        sides.push({ side: holds(caller) ? 'allowed' : 'refused', operation, declared, caller });
      }
      sides.push({
        side: declared.kind === 'public' ? 'allowed' : 'unauthenticated',
        operation,
        declared,
        caller: anonymous,
      });
    }
    // Refusals first: they change nothing, so every one of them meets the fixture as it was made.
    sides.sort((a, b) => Number(a.side === 'allowed') - Number(b.side === 'allowed'));

    for (const { side, operation, declared, caller } of sides) {
      // An event stream stays open for as long as its reader does, which inject cannot end; its
      // refusals are checked here, its answers to holders by the email events tests.
      if (side === 'allowed' && operation.streams && !operation.body) {
        holderChecksSkipped += 1;
        continue;
      }
      const response = await app.inject({
        method: operation.method,
        url: requestFor(operation, side),
        headers: caller.headers,
      });
      checks += 1;
      const problem = judge(operation, declared, side, response);
      if (problem) {
        problems.push(
          `${operation.id} (${operation.method} ${operation.path}, ${operation.permission}) as ${caller.label}: ${problem}`,
        );
      }
    }

    const refusals = sides.filter((entry) => entry.side !== 'allowed').length;
    console.log(
      `authorization matrix: ${checks} calls over ${operations.length} operations ` +
        `(${refusals} expected refusals (401 or 403), ${checks - refusals} holders; ${holderChecksSkipped} holder calls skipped: event streams), ` +
        `${builtIns.length} built-in roles and the custom roles, ` +
        `${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    expect(refusals).toBeGreaterThan(100);
    expect(problems).toEqual([]);
  }, 180_000);
});
