import { randomUUID } from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs, emails, emailVersions } from '../../db/schema.ts';
import { minutesPassForEmail } from '../../test/email-clock.ts';
import {
  createStarterProject,
  createTestOrganization,
  createTestUser,
  type StarterProject,
  signInAs,
  signInMemberWith,
  type TestOrganization,
} from '../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../test/harness.ts';
import { recordVersion } from './email-version-records.ts';

type Headers = Record<string, string>;
type Method = 'GET' | 'POST' | 'PATCH';

interface HistoryEntry {
  kind: string;
  version: { version_id: string; name: string | null; restored_from_version_id: string | null };
  first_version_id: string;
  started_at: string;
  ended_at: string;
  saves: number;
  last_updated_by: { id: number } | null;
  name: string | null;
  changes: string;
  change_count: number;
  restored_from: { version_id: string; created_at: string | null; name: string | null } | null;
}

describe('email history', () => {
  let app: TestApp;
  let organization: TestOrganization;
  let admin: Headers;
  let colleague: Headers;
  let colleagueId: number;
  let base: string;
  let project: StarterProject;
  let heroLabel: string;
  let headlineLabel: string;

  const call = (method: Method, url: string, headers: Headers = admin, payload?: object) =>
    app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  const createEmail = async () => {
    const response = await call('POST', `${base}/emails`, admin, {
      name: 'Spring sale',
      email_design_system_id: project.starter.id,
      project_id: project.projectId,
    });
    if (response.statusCode !== 200) throw new Error(`create failed: ${response.body}`);
    return response.json() as { id: number };
  };
  const heroId = randomUUID();
  /** Saves the email with one hero whose headline is `headline` (each call one version). */
  const saveHeadline = async (emailId: number, headline: string, headers: Headers = admin) => {
    const email = (await call('GET', `${base}/emails/${emailId}`, headers)).json();
    const response = await call('PATCH', `${base}/emails/${emailId}`, headers, {
      email_content: {
        ...email.email_content,
        component_instances: [
          {
            id: heroId,
            component_id: project.starter.components.hero,
            field_values: { null_branch: { 'en-US': { headline: { value: headline } } } },
          },
        ],
      },
    });
    if (response.statusCode !== 200) throw new Error(`save failed: ${response.body}`);
  };
  const history = async (emailId: number, query = '', headers: Headers = admin) => {
    const response = await call('GET', `${base}/emails/${emailId}/history${query}`, headers);
    expect(response.statusCode).toBe(200);
    return response.json() as {
      results: HistoryEntry[];
      pagination: { total: number; page: number; per: number };
    };
  };
  const versionsOf = (emailId: number) =>
    app.services.database.db
      .select()
      .from(emailVersions)
      .where(eq(emailVersions.emailId, emailId))
      .orderBy(asc(emailVersions.id));
  const minutesPass = (emailId: number, minutes: number) =>
    minutesPassForEmail(app.services.database.db, emailId, minutes);
  const versionIdsOf = async (emailId: number) =>
    (await versionsOf(emailId)).map((version) => version.versionId);

  beforeAll(async () => {
    app = await buildTestApp();
    organization = await createTestOrganization(app);
    admin = await signInAs(app, organization.admin);
    base = `/api/v1/workspaces/${organization.workspaceId}`;
    project = await createStarterProject(app, organization, admin, {
      team: 'History team',
      project: 'Letters',
    });
    const colleagueUser = await createTestUser(app, organization, { role: 'Editor', firstName: 'Grace' });
    colleagueId = colleagueUser.id;
    await call('POST', `/api/v1/teams/${project.teamId}/users`, admin, { user_id: colleagueId });
    colleague = await signInAs(app, colleagueUser);
    const hero = (
      await call(
        'GET',
        `${base}/email_design_systems/${project.starter.id}/components/${project.starter.components.hero}`,
      )
    ).json();
    heroLabel = hero.label;
    headlineLabel = hero.field_definitions.find(
      (field: { liquid_variable: string }) => field.liquid_variable === 'headline',
    ).label;
  });
  afterAll(async () => {
    await app.close();
  });

  it('groups saves into sessions per person, split by someone else, a gap over 30 minutes and an AI write', async () => {
    const email = await createEmail();
    await saveHeadline(email.id, 'One');
    await saveHeadline(email.id, 'Two');
    await saveHeadline(email.id, 'Theirs', colleague);
    await saveHeadline(email.id, 'Three');
    await minutesPass(email.id, 31);
    await saveHeadline(email.id, 'Four');
    const [row] = await app.services.database.db.select().from(emails).where(eq(emails.id, email.id));
    if (!row) throw new Error('no email row');
    await recordVersion(app.services.database.db, row, { userId: organization.admin.id }, 'translation');
    await saveHeadline(email.id, 'Five');
    // created | One, Two (one version) | Theirs | Three | (31 minutes later) Four | AI | Five
    const versions = await versionsOf(email.id);
    const ids = versions.map((version) => version.versionId);
    expect(versions.map((version) => version.saveCount)).toEqual([1, 2, 1, 1, 1, 1, 1]);

    const { results, pagination } = await history(email.id);
    expect(pagination.total).toBe(7);
    expect(results.map((entry) => [entry.kind, entry.saves, entry.version.version_id])).toEqual([
      ['editing_session', 1, ids[6]],
      ['ai_feature', 1, ids[5]],
      ['editing_session', 1, ids[4]],
      ['editing_session', 1, ids[3]],
      ['editing_session', 1, ids[2]],
      ['editing_session', 2, ids[1]],
      ['created', 1, ids[0]],
    ]);
    expect(results[6]).toMatchObject({ changes: 'Created the email', first_version_id: ids[0] });
    expect(results[5]).toMatchObject({
      first_version_id: ids[1],
      // From the first of the session's saves to the last.
      started_at: versions[1]?.firstSavedAt?.toISOString(),
      ended_at: versions[1]?.createdAt.toISOString(),
      last_updated_by: { id: organization.admin.id },
      name: null,
      changes: `Added ${heroLabel}`,
    });
    expect(results[4]?.last_updated_by?.id).toBe(colleagueId);
    // Described against the version before the entry, with the design system's labels.
    expect(results[4]?.changes).toBe(`Edited ${heroLabel} ${headlineLabel.toLowerCase()}`);
    expect(results[4]?.change_count).toBe(1);
    // The AI version wrote the same content: nothing changed.
    expect(results[1]?.changes).toBe('');

    const secondPage = await history(email.id, '?per=2&page=2');
    expect(secondPage.pagination).toEqual({ per: 2, page: 2, total: 7 });
    expect(secondPage.results.map((entry) => entry.version.version_id)).toEqual([ids[4], ids[3]]);
    expect((await history(email.id, '?page=9')).results).toEqual([]);
    // The session of One and Two is one version, holding the last of its saves.
    const listed = (await call('GET', `${base}/emails/${email.id}/versions`)).json();
    expect(listed.pagination.total).toBe(7);
    expect(listed.results[5].email_data.email_content.component_instances[0].field_values).toEqual({
      null_branch: { 'en-US': { headline: { value: 'Two' } } },
    });
  });

  it('continues a session across pauses of up to 30 minutes, and starts another after a longer one', async () => {
    const email = await createEmail();
    await saveHeadline(email.id, 'One');
    await minutesPass(email.id, 29);
    await saveHeadline(email.id, 'Two');
    expect((await history(email.id)).results.map((entry) => entry.saves)).toEqual([2, 1]);
    await minutesPass(email.id, 31);
    await saveHeadline(email.id, 'Three');
    expect((await history(email.id)).results.map((entry) => entry.saves)).toEqual([1, 2, 1]);
    expect(await versionIdsOf(email.id)).toHaveLength(3);
  });

  it('names a version, which then ends its session and shows its name; null clears it', async () => {
    const email = await createEmail();
    await saveHeadline(email.id, 'One');
    await saveHeadline(email.id, 'Two');
    const [, open] = await versionIdsOf(email.id);
    const named = await call('PATCH', `${base}/emails/${email.id}/versions/${open}`, admin, {
      name: '  Sent to legal  ',
    });
    expect(named.statusCode).toBe(200);
    expect(named.json()).toMatchObject({ version_id: open, name: 'Sent to legal' });
    // The named version keeps what it holds: the next save is a version of its own.
    await saveHeadline(email.id, 'Three');
    const ids = await versionIdsOf(email.id);
    expect(ids[1]).toBe(open);

    const { results } = await history(email.id);
    expect(results.map((entry) => [entry.saves, entry.name, entry.version.version_id])).toEqual([
      [1, null, ids[2]],
      [2, 'Sent to legal', ids[1]],
      [1, null, ids[0]],
    ]);
    const versions = (await call('GET', `${base}/emails/${email.id}/versions`)).json().results;
    expect(versions[1]).toMatchObject({ version_id: ids[1], name: 'Sent to legal' });

    const [entry] = await app.services.database.db
      .select()
      .from(auditLogs)
      .where(
        and(eq(auditLogs.resourceType, 'emails.versions.name'), eq(auditLogs.resourceId, ids[1] as string)),
      );
    expect(entry).toMatchObject({
      action: 'update',
      userId: organization.admin.id,
      details: { email_id: email.id, name: 'Sent to legal', previous_name: null },
    });

    const cleared = await call('PATCH', `${base}/emails/${email.id}/versions/${ids[1]}`, admin, {
      name: null,
    });
    expect(cleared.json().name).toBeNull();
    expect((await history(email.id)).results.map((entry) => entry.saves)).toEqual([3, 1]);
  });

  it('refuses a blank, too long or missing name (422), without update_emails (403) and for unknown versions (404)', async () => {
    const email = await createEmail();
    const [version] = await versionsOf(email.id);
    const url = `${base}/emails/${email.id}/versions/${version?.versionId}`;
    for (const payload of [
      { name: '   ' },
      { name: 'x'.repeat(101) },
      { name: 5 },
      {},
      { name: 'A', extra: 1 },
    ]) {
      const response = await call('PATCH', url, admin, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(422);
      expect(Object.keys(response.json().errors).length, JSON.stringify(payload)).toBeGreaterThan(0);
    }
    expect((await call('PATCH', url, admin, { name: '   ' })).json().errors).toEqual({
      name: ["can't be blank (send null to clear the name)"],
    });
    expect((await call('PATCH', url, admin, { name: 'x'.repeat(100) })).statusCode).toBe(200);
    expect(
      (await call('PATCH', `${base}/emails/${email.id}/versions/nope`, admin, { name: 'A' })).statusCode,
    ).toBe(404);

    const reader = await signInMemberWith(app, organization, {
      adminHeaders: admin,
      teamId: project.teamId,
      permissions: [],
    });
    expect((await call('PATCH', url, reader, { name: 'Mine' })).statusCode).toBe(403);
    // Reading the history needs no key beyond seeing the email.
    expect((await call('GET', `${base}/emails/${email.id}/history`, reader)).statusCode).toBe(200);

    const other = await createTestOrganization(app);
    const otherAdmin = await signInAs(app, other.admin);
    const otherBase = `/api/v1/workspaces/${other.workspaceId}`;
    expect(
      (
        await call('PATCH', `${otherBase}/emails/${email.id}/versions/${version?.versionId}`, otherAdmin, {
          name: 'A',
        })
      ).statusCode,
    ).toBe(404);
    expect((await call('GET', `${otherBase}/emails/${email.id}/history`, otherAdmin)).statusCode).toBe(404);
    expect((await call('GET', `${base}/emails/${email.id}/history`, otherAdmin)).statusCode).toBe(404);
  });

  it('shows a restore as an entry of its own that names the version it restored', async () => {
    const email = await createEmail();
    await saveHeadline(email.id, 'One');
    const [, first] = await versionIdsOf(email.id);
    await call('PATCH', `${base}/emails/${email.id}/versions/${first}`, admin, { name: 'First draft' });
    await saveHeadline(email.id, 'Two');
    const restored = await call('POST', `${base}/emails/${email.id}/versions/${first}/restore`);
    expect(restored.statusCode).toBe(200);
    expect(
      restored.json().email_content.component_instances[0].field_values.null_branch['en-US'].headline.value,
    ).toBe('One');
    // A restore ends the session: this save is a version of its own after it.
    await saveHeadline(email.id, 'Three');

    const { results } = await history(email.id);
    expect(results.map((entry) => entry.kind)).toEqual([
      'editing_session',
      'restore',
      // The name given to One ends its session: Two starts another.
      'editing_session',
      'editing_session',
      'created',
    ]);
    const [, firstRow] = await versionsOf(email.id);
    const restore = results[1] as HistoryEntry;
    expect(restore).toMatchObject({
      saves: 1,
      version: { restored_from_version_id: first },
      restored_from: {
        version_id: first,
        created_at: firstRow?.createdAt.toISOString(),
        name: 'First draft',
      },
      changes: `Edited ${heroLabel} ${headlineLabel.toLowerCase()}`,
    });
  });
});
