import { expect, test } from '@playwright/test';

test('the web app is served by the API server and sees it ready', async ({ page }) => {
  const problems: string[] = [];
  page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
  page.on('pageerror', (error) => problems.push(error.message));

  await page.goto('/');
  await expect(page).toHaveTitle('Letterset');
  await expect(page.getByRole('heading', { name: 'Letterset' })).toBeVisible();
  await expect(page.getByRole('status')).toHaveText('Server ready (database: pglite)');
  expect(problems).toEqual([]);
});

test('a deep link to an app route loads the app, while unknown API paths stay JSON 404s', async ({
  page,
  request,
}) => {
  await page.goto('/design-systems/12');
  await expect(page.getByRole('heading', { name: 'Letterset' })).toBeVisible();

  const missing = await request.get('/api/v1/nothing-here', { headers: { accept: 'text/html' } });
  expect(missing.status()).toBe(404);
  expect(await missing.json()).toEqual({ message: 'No route for GET /api/v1/nothing-here' });
});

test('the OpenAPI document is served for other origins to fetch', async ({ request }) => {
  const response = await request.get('/openapi.yml', { headers: { origin: 'http://docs.localhost' } });
  expect(response.status()).toBe(200);
  expect(response.headers()['access-control-allow-origin']).toBe('*');
  expect(await response.text()).toMatch(/^openapi: 3\.0\.1$/m);
});
