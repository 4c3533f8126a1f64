import path from 'node:path';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { adminStorageState } from './tests/support/accounts.ts';
import { invitationLinkFor } from './tests/support/outbox.ts';
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

test('screenshots of review and collaboration for the docs', async ({ page, request, browser }) => {
  test.setTimeout(120_000);
  const me = (await (await request.get('/api/v1/me')).json()) as { workspaces: { id: number }[] };
  const workspaceId = me.workspaces[0]?.id ?? 1;
  const workspace = `/api/v1/workspaces/${workspaceId}`;
  const api = async <T>(method: 'get' | 'post', url: string, data?: object): Promise<T> => {
    const response = await request[method](url, data ? { data } : {});
    expect(response.ok(), `${method} ${url}: ${await response.text()}`).toBe(true);
    return (await response.json()) as T;
  };
  const emails = await api<{ results: { id: number; name: string }[] }>(
    'get',
    `${workspace}/emails?search=${encodeURIComponent('Spring sale: last call')}`,
  );
  const emailId = emails.results[0]?.id;
  if (!emailId) throw new Error('the authoring screenshots made no sale email');
  const email = await api<{
    email_content: { component_instances: { id: string }[] };
  }>('get', `${workspace}/emails/${emailId}`);
  const teams = await api<{ results: { id: number; name: string }[] }>('get', '/api/v1/teams?per=100');
  const teamId = teams.results.find((team) => team.name === 'Spring campaigns')?.id;
  const users = await api<{ results: { id: number; first_name: string; email: string }[] }>(
    'get',
    '/api/v1/users?per=100',
  );
  const userId = (first: string) => users.results.find((user) => user.first_name === first)?.id ?? 0;
  for (const first of ['Vera', 'Edith']) {
    await api('post', `/api/v1/teams/${teamId}/users`, { user_id: userId(first) });
  }
  await api('post', '/api/v1/review_groups', {
    name: 'Brand and legal',
    stages: [
      {
        position: 1,
        approval_type: 'one_of',
        members: [{ user_id: userId('Vera') }, { user_id: userId('Edith') }],
      },
      { position: 2, approval_type: 'all_of', members: [{ user_id: userId('Vera') }] },
    ],
  });
  const [, hero, body] = email.email_content.component_instances;
  const comment = async (text: string, instanceId: string | undefined, y: number, x = 120) =>
    api<{ id: number }>('post', `${workspace}/emails/${emailId}/email_comments`, {
      locale: 'en-US',
      body: text,
      pin_data: {
        component_instance_id: instanceId,
        branch_key: null,
        coordinates: { center_offset_x_px: x, y },
      },
    });
  const thread = await comment(
    `Can we say “ends Sunday at midnight”? @[Edith Clarke](user:${userId('Edith')})`,
    hero?.id,
    60,
  );
  await comment('Should the sale terms link to the legal page?', body?.id, 20, -160);
  await api('post', `${workspace}/emails/${emailId}/email_comments`, {
    locale: 'en-US',
    body: 'Midnight in which time zone? Let’s keep Sunday.',
    parent_id: thread.id,
  });

  await page.goto('/settings/review-groups');
  await expect(page.getByText('Brand and legal')).toBeVisible();
  await capture(page, 'review-groups');

  // The Admin submits the email to the group.
  await page.goto(`/workspaces/${workspaceId}/emails/${emailId}/edit`);
  await expectPreviewToShow(page, 'The spring sale ends Sunday');
  await page.getByRole('button', { name: 'Submit for approval' }).click();
  const submit = page.getByRole('dialog', { name: 'Submit for approval' });
  await submit.getByText('Review group', { exact: true }).click();
  await submit.getByRole('combobox', { name: 'Review group' }).click();
  await page.getByRole('option', { name: /Brand and legal/ }).click();
  await capture(page, 'submit-for-approval');
  await submit.getByRole('button', { name: 'Submit', exact: true }).click();
  await expect(submit).toBeHidden();

  // Vera, a reviewer of both stages, signs in from her invitation.
  const reviewer = await browser.newContext({
    storageState: { cookies: [], origins: [] },
    viewport: { width: 1280, height: 800 },
  });
  const vera = await reviewer.newPage();
  await vera.goto(await invitationLinkFor('vera@northwind.test'));
  await vera.getByRole('textbox', { name: 'Password', exact: true }).fill('a long reviewer password');
  await vera.getByRole('textbox', { name: 'Repeat the password' }).fill('a long reviewer password');
  await vera.getByRole('button', { name: 'Set password and sign in' }).click();
  await expect(vera.getByRole('button', { name: 'Account menu' })).toBeVisible();
  await vera.goto(`/workspaces/${workspaceId}`);
  await expect(vera.getByRole('region', { name: 'Waiting on your review' })).toContainText(
    'Spring sale: last call',
  );
  await vera.getByRole('button', { name: /^Notifications/ }).click();
  await expect(vera.getByRole('list', { name: 'Notifications' })).toBeVisible();
  await capture(vera, 'home-page');
  await vera.keyboard.press('Escape');

  await vera.goto(`/workspaces/${workspaceId}/emails/${emailId}/edit`);
  await expectPreviewToShow(vera, 'The spring sale ends Sunday');
  await vera.getByRole('tab', { name: 'Review' }).click();
  await expect(vera.getByTestId('pin-overlay').getByRole('button', { name: 'Pin 2' })).toBeVisible();
  await capture(vera, 'review-panel');

  await vera.getByRole('button', { name: 'Approve', exact: true }).click();
  const approve = vera.getByRole('dialog', { name: 'Approve' });
  await approve.getByRole('textbox').fill('On brand.');
  await approve.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(approve).toBeHidden();
  await vera.getByRole('button', { name: 'Request changes', exact: true }).click();
  const changes = vera.getByRole('dialog', { name: 'Request changes' });
  await changes.getByRole('textbox').fill('Please link the sale terms before this goes out.');
  await capture(vera, 'request-changes');
  await changes.getByRole('button', { name: 'Request changes', exact: true }).click();
  await expect(changes).toBeHidden();

  // The submitter's timeline shows who decided what.
  await page.getByRole('button', { name: 'Review timeline' }).click();
  await expect(page.getByText('Please link the sale terms before this goes out.')).toBeVisible();
  await capture(page, 'review-timeline');

  // On a phone the preview fills the screen; comments open in a sheet.
  const phone = await browser.newContext({
    storageState: await reviewer.storageState(),
    viewport: { width: 390, height: 844 },
  });
  const onPhone = await phone.newPage();
  await onPhone.goto(`/workspaces/${workspaceId}/emails/${emailId}/edit`);
  await expectPreviewToShow(onPhone, 'The spring sale ends Sunday');
  await expect(onPhone.getByTestId('pin-overlay').getByRole('button', { name: 'Pin 1' })).toBeVisible();
  await capture(onPhone, 'review-phone');
  await onPhone
    .getByRole('toolbar', { name: 'Review on the phone' })
    .getByRole('button', { name: 'Comments' })
    .click();
  await expect(onPhone.getByRole('dialog', { name: 'Comments' })).toContainText(
    'Midnight in which time zone?',
  );
  await capture(onPhone, 'review-phone-comments');
  await phone.close();
  await reviewer.close();
});
