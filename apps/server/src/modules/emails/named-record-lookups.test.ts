import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyHeadersFor, createTestOrganization } from '../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../test/harness.ts';
import { createRecordFixture, type RecordFixture } from '../../test/record-fixture.ts';

/**
 * A request that names a record (a project, a design system, a brand profile, a link tracking
 * profile) is answered 422 on that field when the record does not exist, and only then: when the
 * look-up fails for another reason (here the table is gone, as in a broken database), the answer
 * is the server's failure, not a 422 that blames the input.
 */
describe('look-ups of the records a request names', () => {
  let app: TestApp;
  let fixture: RecordFixture;
  let admin: Record<string, string>;
  /** The content of the fixture's layout: valid for its design system. */
  let layoutContent: unknown;
  const missingId = 2_000_000_000;

  beforeAll(async () => {
    app = await buildTestApp();
    const organization = await createTestOrganization(app);
    fixture = await createRecordFixture(app, organization);
    admin = await apiKeyHeadersFor(app, organization, organization.admin);
    const layout = await app.inject({
      method: 'GET',
      url: `/api/v1/workspaces/${fixture.organization.workspaceId}/layouts/${fixture.layoutId}`,
      headers: admin,
    });
    layoutContent = layout.json().content;
  });
  afterAll(() => app.close());

  async function withTableGone<T>(table: string, run: () => Promise<T>): Promise<T> {
    await app.services.database.db.execute(sql.raw(`alter table ${table} rename to ${table}_gone`));
    try {
      return await run();
    } finally {
      await app.services.database.db.execute(sql.raw(`alter table ${table}_gone rename to ${table}`));
    }
  }

  const cases: {
    name: string;
    table: string;
    field: string;
    request: (id: number) => { method: 'POST' | 'PATCH'; url: string; payload: object };
  }[] = [
    {
      name: 'an email’s project, at creation',
      table: 'projects',
      field: 'project_id',
      request: (id) => ({
        method: 'POST',
        url: `/api/v1/workspaces/${fixture.organization.workspaceId}/emails`,
        payload: { name: 'Named', project_id: id, email_design_system_id: fixture.designSystemId },
      }),
    },
    {
      name: 'an email’s design system, at creation',
      table: 'email_design_systems',
      field: 'email_design_system_id',
      request: (id) => ({
        method: 'POST',
        url: `/api/v1/workspaces/${fixture.organization.workspaceId}/emails`,
        payload: { name: 'Named', project_id: fixture.projectId, email_design_system_id: id },
      }),
    },
    {
      name: 'an email’s brand profile',
      table: 'brand_profiles',
      field: 'brand_profile_id',
      request: (id) => ({
        method: 'PATCH',
        url: `/api/v1/workspaces/${fixture.organization.workspaceId}/emails/${fixture.emailId}`,
        payload: { brand_profile_id: id },
      }),
    },
    {
      name: 'an email’s link tracking profile',
      table: 'link_tracking_profiles',
      field: 'link_tracking_profile_id',
      request: (id) => ({
        method: 'PATCH',
        url: `/api/v1/workspaces/${fixture.organization.workspaceId}/emails/${fixture.emailId}`,
        payload: { link_tracking_profile_id: id },
      }),
    },
    {
      name: 'a layout’s design system, at creation',
      table: 'email_design_systems',
      field: 'email_design_system_id',
      request: (id) => ({
        method: 'POST',
        url: `/api/v1/workspaces/${fixture.organization.workspaceId}/layouts`,
        payload: {
          name: 'Named',
          email_design_system_id: id,
          content: layoutContent,
        },
      }),
    },
    {
      name: 'a layout’s brand profile',
      table: 'brand_profiles',
      field: 'brand_profile_id',
      request: (id) => ({
        method: 'PATCH',
        url: `/api/v1/workspaces/${fixture.organization.workspaceId}/layouts/${fixture.layoutId}`,
        payload: { brand_profile_id: id },
      }),
    },
  ];

  it.each(cases)('$name: 422 on the field when it does not exist', async ({ field, request }) => {
    const response = await app.inject({ ...request(missingId), headers: admin });
    expect(response.statusCode, response.body).toBe(422);
    expect(Object.keys(response.json().errors)).toContain(field);
  });

  it.each(cases)(
    '$name: the server’s failure, not a 422, when the look-up fails',
    async ({ table, request }) => {
      const existing: Record<string, number> = {
        projects: fixture.projectId,
        email_design_systems: fixture.designSystemId,
        brand_profiles: fixture.brandProfileId,
        link_tracking_profiles: fixture.linkTrackingProfileId,
      };
      const response = await withTableGone(table, () =>
        app.inject({ ...request(existing[table] ?? missingId), headers: admin }),
      );
      expect(response.statusCode, response.body).toBe(500);
      expect(response.json()).toEqual({ code: 'internal_error', message: expect.any(String) });
    },
  );
});
