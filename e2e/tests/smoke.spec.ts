import { expect, test } from '@playwright/test';
import { admin } from './support/accounts.ts';
import { collectPageProblems } from './support/page-problems.ts';

test('signing out and in again; a deep link survives the sign-in', async ({ page }) => {
  const problems = collectPageProblems(page);
  await page.goto('/workspaces/1');
  await expect(page).toHaveURL(/\/sign-in\?redirect=%2Fworkspaces%2F1$/);
  await expect(page).toHaveTitle('Letterset');

  await page.getByLabel('Email').fill(admin.email);
  await page.getByRole('textbox', { name: 'Password' }).fill('not the password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toContainText(/wrong|incorrect|invalid/i);

  await page.getByRole('textbox', { name: 'Password' }).fill(admin.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/workspaces\/1$/);
  await expect(page.getByRole('heading', { name: 'Main workspace' })).toBeVisible();

  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
  await page.goto('/');
  await expect(page).toHaveURL(/\/sign-in/);
  expect(problems).toEqual([]);
});

test('an unknown app address shows the not-found page, while unknown API paths stay JSON 404s', async ({
  page,
  request,
}) => {
  await page.goto('/no/such/screen');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();

  const missing = await request.get('/api/v1/nothing-here', { headers: { accept: 'text/html' } });
  expect(missing.status()).toBe(404);
  expect(await missing.json()).toEqual({
    code: 'not_found',
    message: 'No route for GET /api/v1/nothing-here',
  });
});

test('the OpenAPI document is served for other origins to fetch', async ({ request }) => {
  const response = await request.get('/openapi.yml', { headers: { origin: 'http://docs.localhost' } });
  expect(response.status()).toBe(200);
  expect(response.headers()['access-control-allow-origin']).toBe('*');
  expect(await response.text()).toMatch(/^openapi: 3\.0\.1$/m);
});
