import { expect, type Page, test } from '@playwright/test';
import { adminStorageState } from './support/accounts.ts';
import { invitationLinkFor } from './support/outbox.ts';
import { collectPageProblems } from './support/page-problems.ts';

test.use({ storageState: adminStorageState });

const adminOnlyItems = ['Users', 'Roles', 'API keys', 'Audit log'];

function mainNavigation(page: Page) {
  return page.getByRole('navigation', { name: 'Main navigation' });
}

test('an invited Editor sets a password from the email link and sees no admin settings', async ({
  page,
  browser,
  request,
}) => {
  const problems = collectPageProblems(page);
  const email = `edith-${Date.now()}@northwind.test`;
  const password = 'editor password 42';
  const roles = (await (await request.get('/api/v1/roles?per=100')).json()) as {
    results: { name: string; builtin: boolean; role_permissions: string[] }[];
  };
  const editor = roles.results.find((role) => role.builtin && role.name === 'Editor');
  expect(editor?.role_permissions).not.toContain('create_users');

  await page.goto('/settings/users');
  for (const item of adminOnlyItems) {
    await expect(mainNavigation(page).getByRole('link', { name: item, exact: true })).toBeVisible();
  }
  await page.getByRole('button', { name: 'Invite a person' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite a person' });
  await dialog.getByLabel('First name').fill('Edith');
  await dialog.getByLabel('Last name').fill('Editor');
  await dialog.getByLabel('Email').fill('not an email');
  await dialog.getByRole('combobox', { name: 'Role' }).click();
  await page.getByRole('option', { name: 'Editor', exact: true }).click();
  await dialog.getByRole('button', { name: 'Send invitation' }).click();
  await expect(dialog.getByText('Enter an email address')).toBeVisible();
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Invitation sent' })).toContainText(email);

  await page.getByRole('searchbox', { name: 'Search users' }).fill(email);
  const row = page.getByRole('row').filter({ hasText: email });
  await expect(row).toContainText('Invited');
  await expect(row.getByRole('combobox', { name: 'Role of Edith Editor' })).toHaveValue('Editor');

  const link = await invitationLinkFor(email);
  const invited = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const invitedPage = await invited.newPage();
  const invitedProblems = collectPageProblems(invitedPage);
  await invitedPage.goto(link);
  await expect(invitedPage.getByRole('heading', { name: 'Join your organization' })).toBeVisible();
  await expect(invitedPage.getByText(email)).toBeVisible();
  await invitedPage.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await invitedPage.getByRole('textbox', { name: 'Repeat the password' }).fill(password);
  await invitedPage.getByRole('button', { name: 'Set password and sign in' }).click();
  await expect(invitedPage.getByRole('button', { name: 'Account menu' })).toHaveText('Edith Editor');

  // Signing in again with the chosen password proves it was set.
  await invitedPage.getByRole('button', { name: 'Account menu' }).click();
  await invitedPage.getByRole('menuitem', { name: 'Sign out' }).click();
  await invitedPage.getByLabel('Email').fill(email);
  await invitedPage.getByRole('textbox', { name: 'Password' }).fill(password);
  await invitedPage.getByRole('button', { name: 'Sign in' }).click();
  await expect(invitedPage.getByRole('button', { name: 'Account menu' })).toHaveText('Edith Editor');
  await expect(mainNavigation(invitedPage).getByRole('link', { name: 'Images' })).toBeVisible();
  for (const item of adminOnlyItems) {
    await expect(mainNavigation(invitedPage).getByRole('link', { name: item, exact: true })).toHaveCount(0);
  }
  await invited.close();

  await page.reload();
  await expect(row).toContainText('Active');
  expect(problems).toEqual([]);
  expect(invitedProblems).toEqual([]);
});

test('an API key created in the settings works until it is revoked', async ({
  page,
  playwright,
  baseURL,
}) => {
  const problems = collectPageProblems(page);
  const name = `CI exports ${Date.now()}`;
  await page.goto('/');
  await mainNavigation(page).getByRole('link', { name: 'API keys' }).click();
  await page.getByRole('button', { name: 'Create API key' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create API key' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByRole('button', { name: 'Create key' }).click();
  await expect(dialog.getByText('This is the only time the key is shown')).toBeVisible();
  const key = (await dialog.getByLabel('New API key').textContent())?.trim() ?? '';
  expect(key.length).toBeGreaterThan(20);
  await dialog.getByRole('button', { name: 'Copy key' }).click();
  await expect(dialog.getByRole('button', { name: 'Copied' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Done' }).click();

  // A request context of its own: no session cookie, only the key.
  const client = await playwright.request.newContext({ baseURL });
  const authorized = { headers: { authorization: `Bearer ${key}` } };
  const before = await client.get('/api/v1/me', authorized);
  expect(before.status()).toBe(200);
  expect(((await before.json()) as { user: { email: string } }).user.email).toBe('ada@northwind.test');

  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText(key.slice(0, 6));
  await row.getByRole('button', { name: `Revoke ${name}` }).click();
  await page.getByRole('dialog', { name: 'Revoke API key' }).getByRole('button', { name: 'Revoke' }).click();
  await expect(row).toHaveCount(0);

  expect((await client.get('/api/v1/me', authorized)).status()).toBe(401);
  await client.dispose();
  expect(problems).toEqual([]);
});
