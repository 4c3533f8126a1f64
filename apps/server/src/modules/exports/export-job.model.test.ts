import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exports } from '../../db/schema.ts';
import type { Services } from '../../services.ts';
import type { FileStorage } from '../../storage/file-storage.ts';
import { createTestOrganization, signInAs } from '../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../test/harness.ts';
import { solidImage } from '../../test/images.ts';
import { type ExportRunOutcome, runExport } from './export-runner.ts';
import { readStoredFile } from './export-writers.ts';

/**
 * The export job against a model of what the queue may do to it: run it, stop it at any point (a
 * shutdown aborts its signal), let storage fail at any call (a retry follows), and run a stale
 * attempt alongside a live one (an attempt that outlived its expiry). Whatever the order, the export
 * ends completed exactly once, with one complete zip, and stays as it ended.
 */

const locales = ['en-US', 'de-DE', 'fr-FR'];
/** Per clean run: one image read per locale (each shows its own picture), then the zip written. */
const storageCallsPerRun = locales.length + 1;

type Fault = { kind: 'none' } | { kind: 'abort' | 'storage_error'; atCall: number };
type Step = { kind: 'attempt'; fault: Fault } | { kind: 'concurrent'; stale: Fault };

const faultArbitrary: fc.Arbitrary<Fault> = fc.oneof(
  fc.constant<Fault>({ kind: 'none' }),
  fc.record({
    kind: fc.constantFrom('abort' as const, 'storage_error' as const),
    atCall: fc.integer({ min: 0, max: storageCallsPerRun - 1 }),
  }),
);
const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('attempt' as const), fault: faultArbitrary }),
  fc.record({ kind: fc.constant('concurrent' as const), stale: faultArbitrary }),
);

/** The app as one attempt sees it: its storage fails or its signal is aborted at the chosen call. */
function attemptWith(app: TestApp, fault: Fault): { services: Services; signal: AbortSignal } {
  const controller = new AbortController();
  let calls = 0;
  const trip = () => {
    const call = calls;
    calls += 1;
    if (fault.kind === 'none' || call !== fault.atCall) return;
    if (fault.kind === 'abort') controller.abort(new Error('the server is shutting down'));
    else throw new Error('storage is unreachable');
  };
  const storage: FileStorage = {
    get: async (key) => {
      trip();
      return app.services.storage.get(key);
    },
    put: async (key, body, options) => {
      trip();
      await app.services.storage.put(key, body, options);
    },
    delete: (key) => app.services.storage.delete(key),
    publicUrl: (key) => app.services.storage.publicUrl(key),
  };
  return { services: { ...app.services, storage }, signal: controller.signal };
}

async function attempt(
  app: TestApp,
  exportId: number,
  fault: Fault,
): Promise<ExportRunOutcome | 'interrupted'> {
  const faulty = attemptWith(app, fault);
  return runExport(faulty.services, exportId, faulty.signal).catch(() => 'interrupted' as const);
}

describe('the export job, against a model of crashes, retries and stale attempts', () => {
  let app: TestApp;
  let organizationId: number;
  let workspaceId: number;
  let emailId: number;

  beforeAll(async () => {
    app = await buildTestApp();
    const organization = await createTestOrganization(app);
    organizationId = organization.organizationId;
    workspaceId = organization.workspaceId;
    const admin = await signInAs(app, organization.admin);
    const base = `/api/v1/workspaces/${workspaceId}`;
    const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
      app.inject({ method, url, headers: admin, ...(payload ? { payload } : {}) });
    const systems = (await call('GET', `${base}/email_design_systems`)).json();
    const starter = systems.results.find((system: { name: string }) => system.name === 'Letterset Starter');
    const components = (
      await call('GET', `${base}/email_design_systems/${starter.id}/components?per=100`)
    ).json().results as { id: number; name: string }[];
    const team = (
      await call('POST', '/api/v1/teams', { name: 'Team', workspace_id: workspaceId, badge_color: 'blue' })
    ).json();
    await call('POST', `/api/v1/teams/${team.id}/users`, { user_id: organization.admin.id });
    const project = (await call('POST', `${base}/projects`, { name: 'Project', team_id: team.id })).json();
    const pictures: string[] = [];
    for (const [index] of locales.entries()) {
      const form = new FormData();
      form.append('name', `Picture ${index}`);
      form.append(
        'file',
        new Blob(
          [
            new Uint8Array(
              await solidImage(4 + index, 4)
                .png()
                .toBuffer(),
            ),
          ],
          { type: 'image/png' },
        ),
        'picture.png',
      );
      pictures.push(
        (await app.inject({ method: 'POST', url: `${base}/images`, headers: admin, payload: form })).json()
          .public_url,
      );
    }
    const email = (
      await call('POST', `${base}/emails`, {
        name: 'Modelled',
        email_design_system_id: starter.id,
        project_id: project.id,
        locales,
      })
    ).json();
    const heroValues = (locale: string, index: number) => ({
      headline: { value: `Headline ${locale}` },
      image_url: { value: pictures[index] },
      image_alt: { value: 'Picture' },
      button_url: { value: 'https://example.com' },
    });
    const patched = await call('PATCH', `${base}/emails/${email.id}`, {
      email_content: {
        ...email.email_content,
        component_instances: [
          {
            id: randomUUID(),
            component_id: components.find((component) => component.name === 'hero')?.id,
            field_values: {
              null_branch: Object.fromEntries(
                locales.map((locale, index) => [locale, heroValues(locale, index)]),
              ),
            },
          },
        ],
      },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    emailId = email.id;
  });
  afterAll(() => app.close());

  async function newExport(): Promise<number> {
    const [row] = await app.services.database.db
      .insert(exports)
      .values({
        organizationId,
        workspaceId,
        emailId,
        emailName: 'Modelled',
        emailStatus: 'draft',
        exportType: 'html',
        options: { locales, image_mode: 'include_in_zip' },
        metadata: { conditional_ids: [], personalization_tag_ids: [], image_ids: [] },
        localesTotal: locales.length,
      })
      .returning();
    if (!row) throw new Error('no export row');
    return row.id;
  }

  const rowOf = async (id: number) => {
    const [row] = await app.services.database.db.select().from(exports).where(eq(exports.id, id));
    if (!row) throw new Error('the export row is gone');
    return row;
  };

  it('ends completed once, with one whole zip, whatever the order of events', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(stepArbitrary, { minLength: 1, maxLength: 5 }), async (steps) => {
        const id = await newExport();
        let completedWith: { fileKey: string | null; completedAt: Date | null } | null = null;
        for (const step of steps) {
          const outcomes =
            step.kind === 'attempt'
              ? [await attempt(app, id, step.fault)]
              : await Promise.all([attempt(app, id, step.stale), attempt(app, id, { kind: 'none' })]);
          const row = await rowOf(id);

          // A finished export is left exactly as it was.
          if (completedWith) {
            expect(outcomes.every((outcome) => outcome === 'already_finished')).toBe(true);
            expect({ fileKey: row.fileKey, completedAt: row.completedAt }).toEqual(completedWith);
            continue;
          }
          // A shutdown during the last call (the zip's write) comes too late to stop the run.
          const clean =
            step.kind === 'concurrent' ||
            step.fault.kind === 'none' ||
            (step.fault.kind === 'abort' && step.fault.atCall === storageCallsPerRun - 1);
          // A run with no fault completes; at most one run ever reports completing it.
          expect(outcomes.filter((outcome) => outcome === 'completed')).toHaveLength(clean ? 1 : 0);
          expect(outcomes).not.toContain('failed');
          if (!clean) {
            // Interrupted or failed storage: still in progress, pointing at no file, ready to run again.
            expect(row).toMatchObject({ status: 'in_progress', fileKey: null, completedAt: null });
            expect(row.localesDone).toBeLessThanOrEqual(locales.length);
            continue;
          }
          expect(row).toMatchObject({ status: 'completed', localesDone: locales.length });
          expect(row.fileKey).toMatch(/^exports\//);
          const files = unzipSync(
            new Uint8Array(await readStoredFile(app.services.storage, row.fileKey ?? '')),
          );
          for (const locale of locales) {
            expect(Object.keys(files).filter((name) => name.startsWith(`${locale}/images/`))).toHaveLength(1);
            expect(files[`${locale}/index.html`]).toBeDefined();
          }
          completedWith = { fileKey: row.fileKey, completedAt: row.completedAt };
        }
      }),
      { numRuns: 25 },
    );
  }, 180_000);
});
