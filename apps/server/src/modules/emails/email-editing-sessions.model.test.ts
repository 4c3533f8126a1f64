import { randomUUID } from 'node:crypto';
import { and, asc, eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs, emails, emailVersions } from '../../db/schema.ts';
import { minutesPassForEmail } from '../../test/email-clock.ts';
import {
  createStarterProject,
  createTestOrganization,
  createTestUser,
  type StarterProject,
  signInAs,
  type TestOrganization,
} from '../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../test/harness.ts';
import { recordVersion } from './email-version-records.ts';

type Headers = Record<string, string>;
type Person = 'author' | 'colleague';

/** What people (and the system) do to an email between two looks at its versions. */
type Step =
  | { kind: 'save'; by: Person }
  | { kind: 'rename'; by: Person }
  | { kind: 'pause'; minutes: number }
  | { kind: 'name_latest_version' }
  | { kind: 'ai_write' }
  | { kind: 'restore_first_version' };

const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('save' as const),
      by: fc.constantFrom<Person>('author', 'colleague'),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('rename' as const),
      by: fc.constantFrom<Person>('author', 'colleague'),
    }),
  },
  // Pauses stay clear of the 30-minute edge, which the grouping's own property test covers exactly.
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('pause' as const),
      minutes: fc.constantFrom(1, 12, 29, 31, 45),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'name_latest_version' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'ai_write' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'restore_first_version' as const }) },
);

/** The versions the email should have, oldest first, and the session a save may continue. */
interface Model {
  versions: { saves: number; headline: string | null }[];
  open: { by: Person; minutesSinceSave: number } | null;
  /** PATCH entries the audit log should hold: a session's first save and every rename. */
  auditedPatches: number;
}

/**
 * Autosave replaces the version of an open editing session instead of adding one. The model says
 * when a save continues a session (the same person, within 30 minutes, nothing else written in
 * between) and what every version then holds; the API must agree after every step of generated
 * sequences, and the newest version must always hold the email's current content.
 */
describe('editing sessions: versions and audit entries per session (model-based)', () => {
  let app: TestApp;
  let organization: TestOrganization;
  let project: StarterProject;
  let base: string;
  const headers = {} as Record<Person, Headers>;
  const userIds = {} as Record<Person, number>;

  beforeAll(async () => {
    app = await buildTestApp();
    organization = await createTestOrganization(app);
    headers.author = await signInAs(app, organization.admin);
    userIds.author = organization.admin.id;
    base = `/api/v1/workspaces/${organization.workspaceId}`;
    project = await createStarterProject(app, organization, headers.author, {
      team: 'Session team',
      project: 'Sessions',
    });
    const colleague = await createTestUser(app, organization, { role: 'Editor', firstName: 'Ada' });
    await app.inject({
      method: 'POST',
      url: `/api/v1/teams/${project.teamId}/users`,
      headers: headers.author,
      payload: { user_id: colleague.id },
    });
    headers.colleague = await signInAs(app, colleague);
    userIds.colleague = colleague.id;
  });
  afterAll(() => app?.close());

  const call = async (method: 'GET' | 'POST' | 'PATCH', url: string, by: Person, payload?: object) => {
    const response = await app.inject({ method, url, headers: headers[by], ...(payload ? { payload } : {}) });
    expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(200);
    return response.json();
  };
  const heroId = randomUUID();
  const headlineOf = (content: { component_instances: { field_values: object }[] }): string | null =>
    (
      content.component_instances[0]?.field_values as
        | { null_branch: { 'en-US': { headline: { value: string } } } }
        | undefined
    )?.null_branch['en-US'].headline.value ?? null;
  const versionsOf = (emailId: number) =>
    app.services.database.db
      .select()
      .from(emailVersions)
      .where(eq(emailVersions.emailId, emailId))
      .orderBy(asc(emailVersions.id));

  function applyToModel(model: Model, step: Step, headline: string): void {
    const latest = model.versions.at(-1);
    switch (step.kind) {
      case 'save': {
        const continues =
          model.open !== null && model.open.by === step.by && model.open.minutesSinceSave <= 30;
        if (continues && latest) {
          latest.saves += 1;
          latest.headline = headline;
        } else {
          model.versions.push({ saves: 1, headline });
          model.auditedPatches += 1;
        }
        model.open = { by: step.by, minutesSinceSave: 0 };
        return;
      }
      case 'rename':
        model.open = null;
        model.auditedPatches += 1;
        return;
      case 'pause':
        if (model.open) model.open.minutesSinceSave += step.minutes;
        return;
      case 'name_latest_version':
        model.open = null;
        return;
      case 'ai_write':
        model.versions.push({ saves: 1, headline: latest?.headline ?? null });
        model.open = null;
        return;
      case 'restore_first_version': {
        // Bringing back what is already there records no version; the email is written all the same.
        const restored = model.versions[0]?.headline ?? null;
        if (restored !== latest?.headline) model.versions.push({ saves: 1, headline: restored });
        model.open = null;
        return;
      }
    }
  }

  async function runOnApi(emailId: number, step: Step, headline: string): Promise<void> {
    const url = `${base}/emails/${emailId}`;
    const db = app.services.database.db;
    switch (step.kind) {
      case 'save': {
        const email = await call('GET', url, step.by);
        await call('PATCH', url, step.by, {
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
        return;
      }
      case 'rename':
        await call('PATCH', url, step.by, { name: `Renamed ${headline}` });
        return;
      case 'pause':
        await minutesPassForEmail(db, emailId, step.minutes);
        return;
      case 'name_latest_version': {
        const latest = (await versionsOf(emailId)).at(-1);
        await call('PATCH', `${url}/versions/${latest?.versionId}`, 'author', { name: headline });
        return;
      }
      case 'ai_write': {
        // As an AI feature writes: the email row, then a version of its own.
        await db.transaction(async (tx) => {
          const [row] = await tx
            .update(emails)
            .set({ lockVersion: sql`${emails.lockVersion} + 1` })
            .where(eq(emails.id, emailId))
            .returning();
          if (!row) throw new Error('no email row');
          await recordVersion(tx, row, { userId: userIds.author }, 'translation');
        });
        return;
      }
      case 'restore_first_version': {
        const [first] = await versionsOf(emailId);
        await call('POST', `${url}/versions/${first?.versionId}/restore`, 'author');
        return;
      }
    }
  }

  it('agrees with the model after every step of generated sequences', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(stepArbitrary, { minLength: 1, maxLength: 12 }), async (steps) => {
        const created = await call('POST', `${base}/emails`, 'author', {
          name: 'Sessions',
          email_design_system_id: project.starter.id,
          project_id: project.projectId,
        });
        const model: Model = { versions: [{ saves: 1, headline: null }], open: null, auditedPatches: 0 };
        for (const [index, step] of steps.entries()) {
          const headline = `Step ${index}`;
          applyToModel(model, step, headline);
          await runOnApi(created.id, step, headline);
          const where = `step ${index} of ${JSON.stringify(steps)}`;

          const versions = await versionsOf(created.id);
          expect(
            versions.map((version) => ({
              saves: version.saveCount,
              headline: headlineOf(version.emailData.email_content as never),
            })),
            where,
          ).toEqual(model.versions);
          // The newest version is what the email holds now.
          const email = await call('GET', `${base}/emails/${created.id}`, 'author');
          expect(headlineOf(email.email_content), where).toBe(model.versions.at(-1)?.headline);
          // The history counts every save once.
          const history = await call('GET', `${base}/emails/${created.id}/history?per=100`, 'author');
          const saves = history.results.reduce(
            (sum: number, entry: { saves: number }) => sum + entry.saves,
            0,
          );
          expect(saves, where).toBe(model.versions.reduce((sum, version) => sum + version.saves, 0));
        }
        const patches = await app.services.database.db
          .select()
          .from(auditLogs)
          .where(and(eq(auditLogs.method, 'PATCH'), eq(auditLogs.path, `${base}/emails/${created.id}`)));
        expect(patches, JSON.stringify(steps)).toHaveLength(model.auditedPatches);
      }),
      { numRuns: 12 },
    );
  });
});
