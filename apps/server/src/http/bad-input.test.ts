import { readFile } from 'node:fs/promises';
import { isDeepStrictEqual } from 'node:util';
import { getTableName, is } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import type { LightMyRequestResponse } from 'fastify';
import { Value } from 'typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { Database } from '../db/client.ts';
import * as tables from '../db/schema.ts';
import {
  type BadRequest,
  badRequestsFor,
  isUpdate,
  minimumVariantsPerOperation,
  type SmallUpdate,
  smallUpdatesFor,
  type VariantContext,
} from '../test/bad-input-variants.ts';
import { apiKeyHeadersFor, createTestOrganization } from '../test/factories.ts';
import { buildTestApp, type TestApp } from '../test/harness.ts';
import {
  type OpenApiDocument,
  type Operation,
  operationsOf,
  schemaResolver,
} from '../test/openapi-operations.ts';
import { createRecordFixture, fillPath, type RecordFixture } from '../test/record-fixture.ts';
import { errorCatalogue } from './errors.ts';
import { committedOpenApiPath } from './openapi-document.ts';
import { uploadFieldsAllowance } from './request-limits.ts';
import { ErrorCodeSchema, ErrorSchema, limits, ValidationErrorSchema } from './schemas.ts';

/** Fixed, so a failure replays; BAD_INPUT_SEED=<n> explores other variants. */
const seed = Number(process.env.BAD_INPUT_SEED ?? 20_261_125);

/**
 * Columns that record use rather than data: a request with an API key stamps when it was last used
 * (at most once a minute, so a long run stamps again), and that write moves its updated_at too.
 */
const usageColumns: Record<string, string[]> = { api_keys: ['lastUsedAt', 'updatedAt'] };

/** Every row of every table, as sorted JSON lines per table. */
async function snapshotRows(db: Database): Promise<Record<string, string[]>> {
  const snapshot: Record<string, string[]> = {};
  for (const table of Object.values(tables)) {
    if (!is(table, PgTable)) continue;
    const name = getTableName(table);
    const rows = await db.select().from(table);
    snapshot[name] = rows
      .map((row) => {
        const kept = { ...(row as Record<string, unknown>) };
        for (const column of usageColumns[name] ?? []) delete kept[column];
        return JSON.stringify(kept);
      })
      .sort();
  }
  return snapshot;
}

/** What is wrong with an answer to bad input, or null when it is as documented. */
function problemWith(operation: Operation, response: LightMyRequestResponse): string | null {
  const status = response.statusCode;
  if (status >= 500) return `answered ${status}`;
  if (status < 400) return operation.readOnly ? null : `accepted bad input with ${status}`;
  return errorBodyProblem(response);
}

/** The schemas the error bodies refer to, for checking a body against them. */
const sharedErrorSchemas = { ErrorCode: ErrorCodeSchema };

/** What is wrong with a 4xx answer's status or body, or null when it is as documented. */
function errorBodyProblem(response: LightMyRequestResponse): string | null {
  const status = response.statusCode;
  if (!(status in errorCatalogue)) return `answered ${status}, which the error catalogue does not have`;
  let body: unknown;
  try {
    body = response.json();
  } catch {
    return `answered ${status} with a body that is not JSON`;
  }
  if (status === 422) {
    const keys = Object.keys(body as object).sort();
    const errors = (body as { errors?: object }).errors ?? {};
    if (
      !Value.Check(sharedErrorSchemas, ValidationErrorSchema, body) ||
      keys.join() !== 'code,errors,message'
    )
      return `answered 422 with ${response.body.slice(0, 200)}, not {message, code, errors}`;
    if (Object.keys(errors).length === 0) return 'answered 422 naming no field';
    return null;
  }
  if (!Value.Check(sharedErrorSchemas, ErrorSchema, body) || (body as { message: string }).message === '')
    return `answered ${status} with ${response.body.slice(0, 200)}, not {message, code}`;
  return null;
}

function describeRequest(request: BadRequest): string {
  const payload =
    request.payload === undefined
      ? ''
      : ` payload (${request.payload.length} ${typeof request.payload === 'string' ? 'chars' : 'bytes'}): ${JSON.stringify(String(request.payload).slice(0, 160))}`;
  return `${request.method} ${request.url.slice(0, 300)} ${JSON.stringify(request.headers)}${payload}`;
}

describe('bad input, generated for every operation of the OpenAPI document', () => {
  let app: TestApp;
  let fixture: RecordFixture;
  let admin: Record<string, string>;
  let operations: Operation[];
  let context: VariantContext;

  beforeAll(async () => {
    app = await buildTestApp();
    const organization = await createTestOrganization(app);
    fixture = await createRecordFixture(app, organization);
    admin = await apiKeyHeadersFor(app, organization, organization.admin);
    const document: OpenApiDocument = parse(await readFile(committedOpenApiPath, 'utf8'));
    // An event stream stays open for as long as its reader does, which `inject` cannot end: its
    // refusals are tested on a real socket by the email events tests.
    operations = operationsOf(document).filter((operation) => !operation.streams);
    const ids: Record<string, number | string> = {
      workspace_id: fixture.organization.workspaceId,
      team_id: fixture.teamId,
      role_id: fixture.roleId,
      user_id: fixture.userId,
      project_id: fixture.projectId,
      email_design_system_id: fixture.designSystemId,
      brand_profile_id: fixture.brandProfileId,
      layout_id: fixture.layoutId,
      component_id: fixture.componentId,
      feed_id: fixture.feedId,
      link_tracking_profile_id: fixture.linkTrackingProfileId,
      conditional_id: fixture.conditionalId,
      dynamic_content_profile_id: fixture.dynamicContentProfileId,
    };
    context = {
      resolve: schemaResolver(document),
      path(operation: Operation, replace?: { name: string; text: string }) {
        const marker = 'bad-input-marker';
        const template = operation.path
          .split('/')
          .map((segment) => (replace && segment === `:${replace.name}` ? marker : segment))
          .join('/');
        return fillPath(template, fixture).replace(marker, replace?.text ?? '');
      },
      recordId: (field: string) => ids[field],
      jsonBodyLimit: app.initialConfig.bodyLimit ?? 0,
      uploadBodyLimit: app.services.config.maxImageBytes + uploadFieldsAllowance,
      maxNestingDepth: limits.nestingDepth,
    };
  });
  afterAll(() => app.close());

  it('starts from requests about real records: every read, sent unchanged, answers 2xx', async () => {
    const reads = operations.filter((operation) => operation.readOnly);
    expect(reads.length).toBeGreaterThan(40);
    for (const operation of reads) {
      // Invitation links exist only in the invitation email; the fixture's token names none.
      if (operation.pathParameters.some((parameter) => parameter.name === 'token')) continue;
      // A required query parameter (the locale of a comment list) gets its documented example.
      const required = operation.queryParameters
        .filter((parameter) => parameter.required)
        .map((parameter) => {
          const schema = context.resolve(parameter.schema);
          return `${parameter.name}=${encodeURIComponent(String(schema.example ?? schema.enum?.[0]))}`;
        });
      const url = `${context.path(operation)}${required.length > 0 ? `?${required.join('&')}` : ''}`;
      const response = await app.inject({ method: 'GET', url, headers: admin });
      expect(response.statusCode, `${operation.id}: ${response.body.slice(0, 200)}`).toBeLessThan(300);
    }
  });

  it('is answered 4xx with a documented body, never 5xx, and changes nothing', async () => {
    // One read first: it stamps the key's last use, which is not what this test watches.
    await app.inject({ method: 'GET', url: '/api/v1/me', headers: admin });
    const before = await snapshotRows(app.services.database.db);
    const started = performance.now();
    const problems: string[] = [];
    let requests = 0;
    let serverErrors = 0;
    const failingOperations = new Set<string>();
    for (const operation of operations) {
      const variants = badRequestsFor(operation, context, seed);
      expect(variants.length, operation.id).toBeGreaterThanOrEqual(minimumVariantsPerOperation);
      for (const request of variants) {
        const response = await app.inject({
          method: request.method,
          url: request.url,
          headers: { ...admin, ...request.headers },
          ...(request.payload === undefined ? {} : { payload: request.payload }),
        });
        requests += 1;
        if (response.statusCode >= 500) serverErrors += 1;
        const problem = problemWith(operation, response);
        if (problem) {
          failingOperations.add(operation.id);
          problems.push(`${operation.id} (${request.kind}) ${problem}: ${describeRequest(request)}`);
        }
      }
    }
    const seconds = ((performance.now() - started) / 1000).toFixed(1);

    const readiness = await app.inject({ method: 'GET', url: '/readyz' });
    const after = await snapshotRows(app.services.database.db);
    const changedTables = Object.keys(before).filter(
      (table) => JSON.stringify(before[table]) !== JSON.stringify(after[table]),
    );

    console.log(
      `bad-input suite: ${requests.toLocaleString('en-US')} requests over ${operations.length} operations, ` +
        `${serverErrors} answered 5xx (${failingOperations.size} operations with problems; seed ${seed}; ${seconds} s)`,
    );
    if (problems.length > 0) console.log(problems.join('\n'));
    if (changedTables.length > 0) console.log(`tables changed: ${changedTables.join(', ')}`);

    expect(problems).toEqual([]);
    expect(readiness.statusCode).toBe(200);
    expect(changedTables).toEqual([]);
  }, 600_000);

  // Last: unlike the bad input above, a minimal update may change the records it names.
  it('answers every update sent {} or a minimal body without 5xx: {} leaves the record as it was', async () => {
    const updates = operations.filter(isUpdate);
    expect(updates.length).toBeGreaterThan(20);
    const problems: string[] = [];
    let requests = 0;
    for (const operation of updates) {
      const read = operations.find((other) => other.readOnly && other.path === operation.path);
      const readRecord = async (): Promise<Record<string, unknown> | undefined> => {
        if (!read) return undefined;
        const response = await app.inject({ method: 'GET', url: context.path(read), headers: admin });
        return response.statusCode === 200 ? response.json() : undefined;
      };
      for (const request of smallUpdatesFor(operation, context, await readRecord())) {
        const before = await readRecord();
        const rowsBefore =
          request.changes === 'nothing' ? await snapshotRows(app.services.database.db) : undefined;
        const response = await app.inject({
          method: request.method,
          url: request.url,
          headers: { ...admin, ...request.headers },
          payload: request.payload,
        });
        requests += 1;
        const problem = smallUpdateProblem(response, request, before, await readRecord());
        const changedTables = rowsBefore
          ? changedTablesSince(rowsBefore, await snapshotRows(app.services.database.db))
          : [];
        if (problem) problems.push(`${operation.id} (${request.kind}) ${problem}: ${request.payload}`);
        else if (response.statusCode < 300 && changedTables.length > 0)
          problems.push(`${operation.id} (${request.kind}) changed ${changedTables.join(', ')}`);
      }
    }
    console.log(`small updates: ${requests} requests over ${updates.length} update operations`);
    expect(problems).toEqual([]);
  }, 300_000);
});

/** Every accepted write request is an audit-log entry, an update of nothing included. */
const requestRecords = ['audit_logs'];

/** The tables of records whose rows differ between two snapshots. */
function changedTablesSince(before: Record<string, string[]>, after: Record<string, string[]>): string[] {
  return Object.keys(before).filter(
    (table) =>
      !requestRecords.includes(table) && JSON.stringify(before[table]) !== JSON.stringify(after[table]),
  );
}

/** Written by any write, even one that sets a field to the value it had. */
const stampFields = ['updated_at', 'lock_version'];

function withoutStamps(record: Record<string, unknown> | undefined) {
  if (!record) return record;
  return Object.fromEntries(Object.entries(record).filter(([name]) => !stampFields.includes(name)));
}

/** What is wrong with the answer to an empty or minimal update, or null when it is fine. */
function smallUpdateProblem(
  response: LightMyRequestResponse,
  request: SmallUpdate,
  before: Record<string, unknown> | undefined,
  after: Record<string, unknown> | undefined,
): string | null {
  const status = response.statusCode;
  if (status >= 500) return `answered ${status} ${response.body.slice(0, 200)}`;
  if (status >= 400) return errorBodyProblem(response);
  if (request.changes === 'nothing') {
    // The answer may say more than a read does (what the write did, e.g. secrets it cleared).
    const answer = response.json() as Record<string, unknown>;
    const differing = Object.keys(before ?? {}).filter(
      (name) => !isDeepStrictEqual(answer[name], before?.[name]),
    );
    if (differing.length > 0)
      return `answered a record that is not the one read before it: ${differing
        .map((name) => `${name} ${JSON.stringify(answer[name])} instead of ${JSON.stringify(before?.[name])}`)
        .join('; ')
        .slice(0, 600)}`;
    if (!isDeepStrictEqual(after, before)) return 'changed the record';
  }
  if (request.changes === 'only-stamps' && !isDeepStrictEqual(withoutStamps(after), withoutStamps(before)))
    return `changed the record from ${JSON.stringify(before).slice(0, 300)} to ${JSON.stringify(after).slice(0, 300)}`;
  return null;
}
