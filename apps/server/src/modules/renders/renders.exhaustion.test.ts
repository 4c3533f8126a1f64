import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { components, emails } from '../../db/schema.ts';
import {
  createTestEmail,
  createTestOrganization,
  signInAs,
  type TestOrganization,
} from '../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../test/harness.ts';
import { whileCheckingHealth } from '../../test/health-checks.ts';

/** The runaway of the report: 10^8 empty iterations, which Liquid's own limit stops. */
const runawayLoop = '{% for i in (1..10000) %}{% for j in (1..10000) %}{% endfor %}{% endfor %}x';
/**
 * One output whose single filter call runs for seconds on any machine (about 6 s on an idle one)
 * while allocating little (150,000 items, far inside Liquid's allocation limit): for each item
 * the sort splits and walks a property path of 1,000 names. Liquid checks its time only between
 * tags and outputs, so only the pool can stop this one, by terminating its worker.
 */
const unstoppableFilter = `{{ (1..150000) | sort_natural: "${Array.from({ length: 1000 }, () => 'a').join('.')}" | size }}`;

const budgetMs = 1000;
/** The budget, the pool's grace past it, and room for a loaded machine. */
const answerWithinMs = budgetMs * 2 + 1000;

/**
 * A runaway template costs its own request its budget and nobody else anything: the server, on a
 * real socket, keeps answering `/healthz` in well under 100 ms while renders run away, and the
 * render answers 422 naming the component within about the budget.
 */
// Up to two retries: on a machine other processes share, a pause of the whole process can delay a
// check past its bound; a render on the event loop blocks every try for the whole budget.
describe('renders that run away', { retry: 2 }, () => {
  let app: TestApp;
  let organization: TestOrganization;
  let session: Record<string, string>;
  let url: string;
  let systemId: number;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    app = await buildTestApp({ config: { renderBudgetMs: budgetMs, renderThreads: 2 } });
    organization = await createTestOrganization(app);
    session = await signInAs(app, organization.admin);
    url = await app.listen({ port: 0, host: '127.0.0.1' });
    const system = await call('POST', '/email_design_systems', {
      name: 'Exhaustion',
      access_scope: 'this_workspace_only',
    });
    expect(system.status, JSON.stringify(system.body)).toBe(200);
    systemId = system.body.id;
    const add = async (payload: object) =>
      (await call('POST', `/email_design_systems/${systemId}/components`, payload)).body.id as number;
    ids.container = await add({
      name: 'container',
      label: 'Container',
      container: true,
      template: '<main>{{ children }}</main>',
      field_definitions: [],
    });
    ids.paragraph = await add({
      name: 'paragraph',
      label: 'Paragraph',
      template: '<p>{{ copy }}</p>',
      field_definitions: [{ type: 'text', label: 'Copy', liquid_variable: 'copy', default_value: 'Hello' }],
    });
    // Saving refuses these templates now; stored before the check existed, they still render.
    for (const [name, template] of [
      ['runaway_loop', runawayLoop],
      ['unstoppable_filter', unstoppableFilter],
    ] as const) {
      const [row] = await app.services.database.db
        .insert(components)
        .values({
          organizationId: organization.organizationId,
          emailDesignSystemId: systemId,
          name,
          label: name,
          template,
          fieldDefinitions: [],
        })
        .returning();
      ids[name] = row?.id ?? 0;
    }
    // The pool's threads start with the first render: start them before anything is timed.
    expect((await renderRequest([ids.paragraph ?? 0, ids.paragraph ?? 0])).status).toBe(200);
    await Promise.all([renderRequest([ids.paragraph ?? 0]), renderRequest([ids.paragraph ?? 0])]);
  }, 120_000);
  afterAll(() => app.close());

  async function call(method: string, path: string, body?: unknown) {
    const response = await fetch(`${url}/api/v1/workspaces/${organization.workspaceId}${path}`, {
      method,
      headers: { ...session, origin: url, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  }

  function renderRequest(componentIds: number[]) {
    return call('POST', '/renders', {
      email_design_system_id: systemId,
      content: {
        container_component_instance: { component_id: ids.container },
        component_instances: componentIds.map((id) => ({ component_id: id })),
      },
    });
  }

  function expectHealthy(run: { roundTrips: number[]; worstGapMs: number; elapsedMs: number }) {
    console.info(
      `healthz: ${run.roundTrips.length} checks, worst round trip ${Math.max(...run.roundTrips).toFixed(1)} ms, longest wait between answers ${run.worstGapMs.toFixed(1)} ms`,
    );
    // Checked throughout: about one check per 20 to 40 ms of the work.
    expect(run.roundTrips.length).toBeGreaterThan(run.elapsedMs / 100);
    expect(Math.max(...run.roundTrips)).toBeLessThan(100);
    // A check is due every 20 ms: a render on the event loop would leave a gap of the whole budget
    // (1000 ms). The margin is for a machine that others share, which may pause the process itself.
    expect(run.worstGapMs).toBeLessThan(250);
  }

  it('30 runaway instances through the render API: 422 naming the component within the budget, /healthz free', async () => {
    const run = await whileCheckingHealth(url, () =>
      renderRequest(Array.from({ length: 30 }, () => ids.runaway_loop ?? 0)),
    );
    expect(run.result.status).toBe(422);
    const message = run.result.body.errors['content.component_instances.0']?.[0];
    expect(message).toMatch(/^runaway_loop: rendering took longer than the time budget of 1000 ms/);
    expect(run.elapsedMs).toBeLessThan(answerWithinMs);
    expect(run.elapsedMs).toBeGreaterThan(budgetMs * 0.9);
    expectHealthy(run);
  });

  it('the same through the saved email’s locale render', async () => {
    const instances = Array.from({ length: 30 }, () => ({
      id: randomUUID(),
      component_id: ids.runaway_loop,
      field_values: {},
    }));
    const emailId = await createTestEmail(app, organization, {
      name: 'Runaway',
      content: {
        subject: { branch_content: { null_branch: { 'en-US': 'Runaway' } } },
        preheader: { branch_content: { null_branch: { 'en-US': '' } } },
        container_component_instance: { id: randomUUID(), component_id: ids.container, field_values: {} },
        component_instances: instances,
      },
    });
    await app.services.database.db
      .update(emails)
      .set({ emailDesignSystemId: systemId })
      .where(eq(emails.id, emailId));
    // The route's first answer compiles its serializers: not what is measured here.
    expect((await call('POST', `/emails/${emailId}/locales/fr-FR/render`, {})).status).toBe(422);
    const run = await whileCheckingHealth(url, () =>
      call('POST', `/emails/${emailId}/locales/en-US/render`, {}),
    );
    expect(run.result.status).toBe(422);
    expect(run.result.body.errors['email_content.component_instances.0']?.[0]).toMatch(/^runaway_loop: /);
    expect(run.elapsedMs).toBeLessThan(answerWithinMs);
    expectHealthy(run);
  });

  it('a template Liquid cannot stop: its worker is terminated, the request gets 422, the pool renders on', async () => {
    const run = await whileCheckingHealth(url, async () => {
      const runaway = renderRequest([ids.paragraph ?? 0, ids.unstoppable_filter ?? 0]);
      // Another request meanwhile is not held up: the other thread answers it.
      await sleep(100);
      const meanwhileStarted = performance.now();
      const meanwhile = await renderRequest([ids.paragraph ?? 0]);
      const meanwhileMs = performance.now() - meanwhileStarted;
      return { runaway: await runaway, meanwhile, meanwhileMs };
    });
    expect(run.result.meanwhile.status).toBe(200);
    expect(run.result.meanwhileMs).toBeLessThan(budgetMs / 2);
    expect(run.result.runaway.status).toBe(422);
    expect(run.result.runaway.body.errors).toEqual({
      'content.component_instances.1': [
        'unstoppable_filter: rendering took longer than the time budget of 1000 ms, which the whole render shares',
      ],
    });
    expect(run.elapsedMs).toBeLessThan(answerWithinMs);
    expectHealthy(run);
    // Right after, with the terminated worker replaced, renders answer as before.
    for (let attempt = 0; attempt < 4; attempt++) {
      const after = await renderRequest([ids.paragraph ?? 0]);
      expect(after.status).toBe(200);
      expect(after.body.html).toBe('<main><p>Hello</p></main>');
    }
  });

  it('refuses more component instances than an email may hold', async () => {
    const response = await renderRequest(Array.from({ length: 201 }, () => ids.paragraph ?? 0));
    expect(response.status).toBe(422);
    expect(Object.keys(response.body.errors)).toEqual(['content.component_instances']);
    expect((await renderRequest(Array.from({ length: 200 }, () => ids.paragraph ?? 0))).status).toBe(200);
  });
});
