import path from 'node:path';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { adminStorageState } from './tests/support/accounts.ts';
import { pngFromPixels } from './tests/support/png.ts';

const pictures = path.join(import.meta.dirname, '..', 'apps', 'docs', 'static', 'img');

test.use({ storageState: adminStorageState });

async function capture(page: Page, name: string) {
  // Animations and the blinking caret would make every run's pictures differ.
  await page.screenshot({ path: path.join(pictures, `${name}.png`), animations: 'disabled', caret: 'hide' });
}

/** The editor's preview frame runs no script, so its text is read from the page. */
async function expectPreviewToShow(page: Page, text: string) {
  await expect
    .poll(() =>
      page.evaluate(
        () =>
          document.querySelector<HTMLIFrameElement>('iframe[title="Email preview"]')?.contentDocument?.body
            .innerText ?? '',
      ),
    )
    .toContain(text);
}

async function seed(request: APIRequestContext): Promise<number> {
  const me = (await (await request.get('/api/v1/me')).json()) as { workspaces: { id: number }[] };
  const workspaceId = me.workspaces[0]?.id;
  if (!workspaceId) throw new Error('the Admin has no workspace');

  const images: [string, [number, number, number], [number, number, number]][] = [
    ['Spring sale hero', [255, 140, 90], [255, 210, 120]],
    ['Logo on dark', [30, 40, 70], [70, 90, 160]],
    ['Product: canvas tote', [90, 160, 120], [200, 230, 190]],
    ['Newsletter header', [80, 120, 230], [170, 200, 255]],
    ['Footer pattern', [200, 200, 210], [240, 240, 245]],
    ['Team photo', [150, 90, 160], [230, 180, 220]],
  ];
  for (const [name, from, to] of images) {
    const buffer = pngFromPixels(480, 320, (x, y) => {
      const t = (x / 480 + y / 320) / 2;
      return [0, 1, 2].map((i) => Math.round((from[i] ?? 0) + ((to[i] ?? 0) - (from[i] ?? 0)) * t)) as [
        number,
        number,
        number,
      ];
    });
    const upload = await request.post(`/api/v1/workspaces/${workspaceId}/images`, {
      multipart: { name, file: { name: `${name}.png`, mimeType: 'image/png', buffer } },
    });
    expect(upload.status()).toBe(200);
  }

  const roles = (
    (await (await request.get('/api/v1/roles?per=100')).json()) as { results: { id: number; name: string }[] }
  ).results;
  const roleId = (name: string) => roles.find((role) => role.name === name)?.id;
  const people: [string, string, string][] = [
    ['Grace', 'Hopper', 'Developer'],
    ['Edith', 'Clarke', 'Editor'],
    ['Vera', 'Rubin', 'Viewer'],
  ];
  for (const [first_name, last_name, role] of people) {
    const invite = await request.post('/api/v1/users', {
      data: {
        first_name,
        last_name,
        email: `${first_name.toLowerCase()}@northwind.test`,
        role_id: roleId(role),
        workspace_ids: [workspaceId],
      },
    });
    expect(invite.status()).toBe(200);
  }
  await request.post('/api/v1/roles', {
    data: {
      name: 'Reviewer',
      role_permissions: ['email_commenting', 'submit_for_approval', 'publish_emails'],
    },
  });
  for (const [name, badge_color] of [
    ['Lifecycle', 'teal'],
    ['Promotions', 'orange'],
  ] as const) {
    const team = await request.post('/api/v1/teams', {
      data: { name, badge_color, workspace_id: workspaceId },
    });
    expect(team.status()).toBe(200);
  }
  for (const name of ['Sending platform', 'CI exports']) {
    expect((await request.post('/api/v1/api_keys', { data: { name } })).status()).toBe(200);
  }
  return workspaceId;
}

test('screenshots of the main screens for the docs', async ({ page, browser, request }) => {
  const workspaceId = await seed(request);

  const signedOut = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const signInPage = await signedOut.newPage();
  await signInPage.setViewportSize({ width: 1280, height: 800 });
  await signInPage.goto('/sign-in');
  await expect(signInPage.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await capture(signInPage, 'sign-in');
  await signedOut.close();

  await page.goto(`/workspaces/${workspaceId}/images`);
  await expect(page.getByRole('img', { name: 'Team photo' })).toBeVisible();
  await expect(page.getByRole('img', { name: 'Spring sale hero' })).toBeVisible();
  await capture(page, 'image-library');

  await page.goto('/settings/users');
  await expect(page.getByRole('row').filter({ hasText: 'vera@northwind.test' })).toBeVisible();
  await capture(page, 'users');

  await page.goto('/settings/roles');
  await page.getByRole('button', { name: /^Editor/ }).click();
  await expect(page.getByRole('heading', { name: 'Editor' })).toBeVisible();
  await capture(page, 'roles');

  await page.goto('/settings/api-keys');
  await expect(page.getByRole('row').filter({ hasText: 'CI exports' })).toBeVisible();
  await capture(page, 'api-keys');

  await page.goto('/settings/workspaces');
  await page
    .getByRole('row')
    .filter({ hasText: 'Main workspace' })
    .getByRole('button', { name: 'Members' })
    .click();
  await expect(page.getByRole('dialog', { name: 'Members of Main workspace' })).toContainText(
    'vera@northwind.test',
  );
  await capture(page, 'workspaces');

  await page.goto('/settings/teams');
  await expect(page.getByRole('row').filter({ hasText: 'Promotions' })).toBeVisible();
  await capture(page, 'teams');

  await page.goto('/settings/audit-log');
  await expect(page.getByRole('row').filter({ hasText: 'api_keys' }).first()).toBeVisible();
  await capture(page, 'audit-log');

  await page.goto('/account');
  await page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
  await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  await page.getByRole('region', { name: 'Two-factor authentication' }).scrollIntoViewIfNeeded();
  await capture(page, 'profile-two-factor');
});

interface StarterComponent {
  id: number;
  name: string;
  container: boolean;
}

/** A project with a filled-in email from the Letterset Starter, and a conditional, through the API. */
async function seedAuthoring(request: APIRequestContext, workspaceId: number) {
  const api = async <T>(method: 'get' | 'post' | 'patch', url: string, data?: object): Promise<T> => {
    const response = await request[method](`/api/v1${url}`, data ? { data } : {});
    expect(response.ok(), `${method} ${url}: ${await response.text()}`).toBe(true);
    return (await response.json()) as T;
  };
  const workspace = `/workspaces/${workspaceId}`;
  const systems = await api<{ results: { id: number; name: string }[] }>(
    'get',
    `${workspace}/email_design_systems`,
  );
  const starterId = systems.results.find((system) => system.name === 'Letterset Starter')?.id;
  if (!starterId) throw new Error('the organization has no Letterset Starter');
  const { results: components } = await api<{ results: StarterComponent[] }>(
    'get',
    `${workspace}/email_design_systems/${starterId}/components?per=100`,
  );
  const componentId = (name: string) => {
    const component = components.find((candidate) => candidate.name === name);
    if (!component) throw new Error(`the starter has no ${name} component`);
    return component.id;
  };

  const team = await api<{ id: number }>('post', '/teams', {
    name: 'Spring campaigns',
    workspace_id: workspaceId,
    badge_color: 'purple',
  });
  for (const name of ['Spring sale', 'Welcome series', 'Product launches']) {
    await api('post', `${workspace}/projects`, { name, team_id: team.id });
  }
  const projects = await api<{ results: { id: number; name: string }[] }>('get', `${workspace}/projects`);
  const projectId = projects.results.find((project) => project.name === 'Spring sale')?.id;
  const email = await api<{ id: number; email_content: Record<string, unknown> }>(
    'post',
    `${workspace}/emails`,
    {
      name: 'Spring sale: last call',
      email_design_system_id: starterId,
      project_id: projectId,
      locales: ['en-US', 'de-DE'],
    },
  );
  const instance = (name: string, values: Record<string, string>) => ({
    id: crypto.randomUUID(),
    component_id: componentId(name),
    field_values: {
      null_branch: {
        'en-US': Object.fromEntries(Object.entries(values).map(([key, value]) => [key, { value }])),
      },
    },
  });
  const saleComponents = [
    instance('header', {}),
    instance('hero', {
      headline: 'The spring sale ends Sunday',
      subheadline: '30% off everything in store and online.',
      button_text: 'Shop the sale',
      button_url: 'https://shop.example.com/sale',
    }),
    instance('rich_text', {
      body: '<p>Our <strong>biggest sale of the season</strong> is almost over. Pick up the pieces you have been eyeing before they are gone.</p>',
    }),
    instance('button', { text: 'See what is left', url: 'https://shop.example.com/sale' }),
    instance('footer', {}),
  ];
  await api('patch', `${workspace}/emails/${email.id}`, {
    email_content: {
      ...email.email_content,
      subject: { branch_content: { null_branch: { 'en-US': 'Last call: 30% off everything' } } },
      component_instances: saleComponents,
    },
  });
  const layoutOf = (components: ReturnType<typeof instance>[]) => ({
    container_component_instance: email.email_content.container_component_instance,
    component_instances: components.map((component) => ({ ...component, id: crypto.randomUUID() })),
  });
  const saleLayout = await api<{ id: number }>('post', `${workspace}/layouts`, {
    name: 'Sale announcement',
    email_design_system_id: starterId,
    locales: ['en-US'],
    content: layoutOf(saleComponents),
  });
  await api('post', `${workspace}/layouts`, {
    name: 'Product newsletter',
    email_design_system_id: starterId,
    locales: ['en-US'],
    content: layoutOf([
      instance('header', {}),
      instance('heading', { text: 'New this week' }),
      instance('product_card', { name: 'Canvas tote', price: '$24.00' }),
      instance('product_card', { name: 'Straw hat', price: '$32.00' }),
      instance('footer', {}),
    ]),
  });
  await api('post', `${workspace}/conditionals`, {
    label: 'Loyalty tier',
    branches: [
      { key: 'gold', label: 'Gold members' },
      { key: 'other', label: 'Everyone else' },
    ],
    default_value: {
      closing: '{% endif %}',
      branch_values: { gold: "{% if tier == 'gold' %}", other: '{% else %}' },
    },
  });
  return { starterId, heroId: componentId('hero'), emailId: email.id, layoutId: saleLayout.id };
}

test('screenshots of the authoring screens for the docs', async ({ page, request }) => {
  const me = (await (await request.get('/api/v1/me')).json()) as { workspaces: { id: number }[] };
  const workspaceId = me.workspaces[0]?.id ?? 1;
  const { starterId, heroId, emailId, layoutId } = await seedAuthoring(request, workspaceId);
  await page.goto(`/workspaces/${workspaceId}/projects`);
  await expect(page.getByRole('row').filter({ hasText: 'Welcome series' })).toBeVisible();
  await capture(page, 'projects');

  await page.goto(`/workspaces/${workspaceId}/design-systems`);
  await expect(page.getByText('Letterset Starter').first()).toBeVisible();
  await capture(page, 'design-systems');

  await page.goto(`/workspaces/${workspaceId}/design-systems/${starterId}/components/${heroId}`);
  await expect(page.locator('iframe').first()).toBeVisible();
  await expect(page.locator('.cm-content').first()).toContainText('headline');
  await capture(page, 'component-builder');

  await page.goto(`/workspaces/${workspaceId}/dynamic-content?tab=conditionals`);
  await expect(page.getByText('Loyalty tier').first()).toBeVisible();
  await capture(page, 'dynamic-content');

  await page.goto(`/workspaces/${workspaceId}/emails/${emailId}/edit`);
  await expectPreviewToShow(page, 'The spring sale ends Sunday');
  await capture(page, 'email-editor');
  // The editor takes the whole window: at 1440 px too the email keeps its width beside the side panels.
  await page.setViewportSize({ width: 1440, height: 900 });
  await expect(page.getByRole('list', { name: 'Components in this email' })).toBeVisible();
  await capture(page, 'email-editor-1440');

  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`/workspaces/${workspaceId}/design-systems/${starterId}?tab=layouts`);
  await expect(page.locator('iframe[title="Preview of Sale announcement"]')).toBeVisible();
  await expect(page.locator('iframe[title="Preview of Product newsletter"]')).toBeVisible();
  await capture(page, 'layouts');

  await page.goto(`/workspaces/${workspaceId}/layouts/${layoutId}/edit`);
  await expectPreviewToShow(page, 'The spring sale ends Sunday');
  await page.getByRole('tab', { name: 'Layout' }).click();
  await capture(page, 'layout-editor');
});
