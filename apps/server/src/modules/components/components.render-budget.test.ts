import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestOrganization, signInAs } from '../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../test/harness.ts';

const budgetMs = 500;
/** The runaway of the resource-exhaustion report: it can never finish within a budget. */
const runawayLoop = '{% for i in (1..10000) %}{% for j in (1..10000) %}{% endfor %}{% endfor %}x';
/** Runs away only when its field keeps its default value. */
const slowOnDefaults = '{% for i in (1..rows) %}{% for j in (1..rows) %}{% endfor %}{% endfor %}';

/**
 * A component whose template cannot finish within the render budget on its fields' default values
 * is refused at save, create and update alike, with a 422 naming it; the check renders in the pool.
 */
describe('saving a component that cannot render within the budget', () => {
  let app: TestApp;
  let admin: Record<string, string>;
  let componentsUrl: string;

  beforeAll(async () => {
    app = await buildTestApp({ config: { renderBudgetMs: budgetMs, renderThreads: 1 } });
    const organization = await createTestOrganization(app);
    admin = await signInAs(app, organization.admin);
    const base = `/api/v1/workspaces/${organization.workspaceId}`;
    const system = await app.inject({
      method: 'POST',
      url: `${base}/email_design_systems`,
      headers: admin,
      payload: { name: 'Budget', access_scope: 'this_workspace_only' },
    });
    componentsUrl = `${base}/email_design_systems/${system.json().id}/components`;
  });
  afterAll(() => app.close());

  const save = (method: 'POST' | 'PATCH', url: string, payload: object) =>
    app.inject({ method, url, headers: admin, payload });

  const templateError = (name: string) =>
    new RegExp(
      `^Component ${name} cannot render within the ${budgetMs} ms render budget with its fields’ default values: `,
    );

  it('refuses a runaway component on create, naming it, within about the budget', async () => {
    const started = performance.now();
    const response = await save('POST', componentsUrl, {
      name: 'runaway_loop',
      label: 'Runaway',
      template: runawayLoop,
      field_definitions: [],
    });
    expect(response.statusCode).toBe(422);
    expect(Object.keys(response.json().errors)).toEqual(['template']);
    expect(response.json().errors.template[0]).toMatch(templateError('runaway_loop'));
    // The first render also starts the pool's thread.
    expect(performance.now() - started).toBeLessThan(budgetMs * 2 + 3000);
    const listed = await app.inject({ method: 'GET', url: componentsUrl, headers: admin });
    expect(listed.json().results.map((component: { name: string }) => component.name)).not.toContain(
      'runaway_loop',
    );
  });

  it('refuses a container that runs away too', async () => {
    const response = await save('POST', componentsUrl, {
      name: 'runaway_container',
      label: 'Container',
      container: true,
      template: `<main>{{ children }}</main>${runawayLoop}`,
      field_definitions: [],
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors.template[0]).toMatch(templateError('runaway_container'));
  });

  it('refuses an update whose template, or whose default values, make it run away', async () => {
    const created = await save('POST', componentsUrl, {
      name: 'table_rows',
      label: 'Rows',
      template: slowOnDefaults,
      field_definitions: [{ type: 'number', label: 'Rows', liquid_variable: 'rows', default_value: 3 }],
    });
    expect(created.statusCode, created.body).toBe(200);
    const url = `${componentsUrl}/${created.json().id}`;

    const newTemplate = await save('PATCH', url, { template: runawayLoop });
    expect(newTemplate.statusCode).toBe(422);
    expect(newTemplate.json().errors.template[0]).toMatch(templateError('table_rows'));

    const newDefault = await save('PATCH', url, {
      field_definitions: [{ type: 'number', label: 'Rows', liquid_variable: 'rows', default_value: 100_000 }],
    });
    expect(newDefault.statusCode).toBe(422);
    expect(newDefault.json().errors.template[0]).toMatch(templateError('table_rows'));

    const stored = await app.inject({ method: 'GET', url, headers: admin });
    expect(stored.json().template).toBe(slowOnDefaults);
    expect(stored.json().field_definitions[0].default_value).toBe(3);

    // A template that finishes still saves, right after the refusals (the pool replaced nothing it needs).
    const renamed = await save('PATCH', url, { label: 'Table rows', template: '<p>{{ rows }}</p>' });
    expect(renamed.statusCode, renamed.body).toBe(200);
  });
});
