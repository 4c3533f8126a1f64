import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/client.ts';
import { sessionCookieName } from '../../http/openapi.ts';
import { createFileStorage } from '../../storage/index.ts';
import { type ChildServer, startChildServer } from '../../test/child-server.ts';
import { createTestOrganization, type TestOrganization } from '../../test/factories.ts';
import { createTestDatabase, testConfig } from '../../test/harness.ts';

/**
 * Each process keeps design systems and dynamic content for its renders; a change made through
 * one process must show in the next render of the other (the database announces it on commit).
 */
describe.runIf(process.env.TEST_DATABASE_URL)('renders on two server processes of one database', () => {
  let database: DatabaseHandle;
  let organization: TestOrganization;
  const servers: ChildServer[] = [];
  let session: Record<string, string>;

  beforeAll(async () => {
    const testDatabase = await createTestDatabase();
    database = await testDatabase.open();
    organization = await createTestOrganization({
      services: { database, storage: createFileStorage(testConfig().storage) },
    });
    const environment = { ...testDatabase.processEnvironment, RUN_JOB_WORKERS: 'false' };
    servers.push(...(await Promise.all([startChildServer(environment), startChildServer(environment)])));
    const signIn = await fetch(`${servers[0]?.url}/api/v1/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: organization.admin.email, password: organization.admin.password }),
    });
    const cookie = signIn.headers.getSetCookie().find((header) => header.startsWith(`${sessionCookieName}=`));
    session = { cookie: cookie?.split(';')[0] ?? '' };
  }, 180_000);
  afterAll(async () => {
    for (const server of servers) server.process.kill('SIGKILL');
    await Promise.all(servers.map((server) => server.exited));
    await database?.close();
  });

  async function call(server: ChildServer | undefined, method: string, path: string, body?: unknown) {
    if (!server) throw new Error('no server');
    const response = await fetch(`${server.url}/api/v1/workspaces/${organization.workspaceId}${path}`, {
      method,
      headers: { ...session, origin: server.url, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  }

  it('a component changed on one process renders changed on the other', async () => {
    const [writer, reader] = servers;
    const system = await call(writer, 'POST', '/email_design_systems', {
      name: 'Two processes',
      access_scope: 'this_workspace_only',
    });
    const components = `/email_design_systems/${system.body.id}/components`;
    const container = await call(writer, 'POST', components, {
      name: 'container',
      label: 'Container',
      container: true,
      template: '<body>{{ children }}</body>',
      field_definitions: [],
    });
    const heading = await call(writer, 'POST', components, {
      name: 'heading',
      label: 'Heading',
      template: '<h1>round 0</h1>',
      field_definitions: [],
    });
    const render = async () =>
      (
        await call(reader, 'POST', '/renders', {
          email_design_system_id: system.body.id,
          content: {
            container_component_instance: { component_id: container.body.id },
            component_instances: [{ component_id: heading.body.id }],
          },
        })
      ).body.html;

    let seenOnFirstRender = 0;
    const waits: number[] = [];
    for (let round = 1; round <= 10; round++) {
      expect(await render()).toBe(`<body><h1>round ${round - 1}</h1></body>`);
      const changed = await call(writer, 'PATCH', `${components}/${heading.body.id}`, {
        template: `<h1>round ${round}</h1>`,
      });
      expect(changed.status).toBe(200);
      const started = performance.now();
      let renders = 0;
      for (;;) {
        renders += 1;
        if ((await render()) === `<body><h1>round ${round}</h1></body>`) break;
        if (performance.now() - started > 1_000) throw new Error(`round ${round}: the change never showed`);
      }
      waits.push(performance.now() - started);
      if (renders === 1) seenOnFirstRender += 1;
    }
    console.info(
      `component change on one process → shown by the other's next render in ${seenOnFirstRender} of 10 rounds; ` +
        `longest wait ${Math.max(...waits).toFixed(1)} ms`,
    );
    expect(seenOnFirstRender).toBe(10);
  }, 60_000);
});
