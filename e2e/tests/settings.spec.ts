import { expect, type Page, test } from '@playwright/test';
import { adminStorageState } from './support/accounts.ts';
import { invitationLinkFor } from './support/outbox.ts';
import { collectPageProblems } from './support/page-problems.ts';
import { showRowOnAnyPage } from './support/paginated-list.ts';

test.use({ storageState: adminStorageState });

const adminOnlyItems = ['Users', 'Roles', 'Audit log'];

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
  // The account page also has fields labelled Email: wait until the sign-in page replaces it.
  await expect(invitedPage).toHaveURL(/\/sign-in/);
  await invitedPage.getByRole('textbox', { name: 'Email' }).fill(email);
  await invitedPage.getByRole('textbox', { name: 'Password' }).fill(password);
  await invitedPage.getByRole('button', { name: 'Sign in' }).click();
  await expect(invitedPage.getByRole('button', { name: 'Account menu' })).toHaveText('Edith Editor');
  await expect(mainNavigation(invitedPage).getByRole('link', { name: 'Images' })).toBeVisible();
  for (const item of adminOnlyItems) {
    await expect(mainNavigation(invitedPage).getByRole('link', { name: item, exact: true })).toHaveCount(0);
  }
  // Everyone sees their own API keys; creating one takes manage_api_keys, which an Editor lacks.
  await mainNavigation(invitedPage).getByRole('link', { name: 'API keys', exact: true }).click();
  await expect(invitedPage.getByText('No API keys yet')).toBeVisible();
  await expect(invitedPage.getByRole('button', { name: 'Create API key' })).toHaveCount(0);
  await invited.close();

  await page.reload();
  await expect(row).toContainText('Active');
  expect(problems).toEqual([]);
  expect(invitedProblems).toEqual([]);
});

test('an invitation link that does not work (used, replaced or unknown) says so and leads to sign-in', async ({
  browser,
}) => {
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  const problems = collectPageProblems(page);
  await page.goto('/invitations/no-such-invitation-token');
  await expect(page.getByRole('heading', { name: 'This invitation link no longer works' })).toBeVisible();
  await page.getByRole('link', { name: 'Go to sign-in' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await context.close();
  // The API's 404 for the link is the expected answer, which Chromium logs like any failed request.
  expect(problems).toEqual([
    'Failed to load resource: the server responded with a status of 404 (Not Found)',
  ]);
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

test('workspaces and teams: create, colour a badge, add a member, and delete in the right order', async ({
  page,
}) => {
  const problems = collectPageProblems(page);
  const workspaceName = `Nordic ${Date.now()}`;
  const teamName = `Lifecycle ${Date.now()}`;

  await page.goto('/settings/workspaces');
  await page.getByRole('button', { name: 'New workspace' }).click();
  const workspaceDialog = page.getByRole('dialog', { name: 'New workspace' });
  await workspaceDialog.getByRole('button', { name: 'Create workspace' }).click();
  await expect(workspaceDialog.getByText('Give the workspace a name')).toBeVisible();
  await workspaceDialog.getByLabel('Name').fill(workspaceName);
  await workspaceDialog.getByRole('button', { name: 'Create workspace' }).click();
  const workspaceRow = page.getByRole('row').filter({ hasText: workspaceName });
  await expect(workspaceRow).toContainText('Members added by hand');
  // The creator is its first member, and the workspace switcher offers it at once.
  await page.getByRole('combobox', { name: 'Workspace' }).click();
  await expect(page.getByRole('option', { name: workspaceName })).toBeVisible();
  await page.keyboard.press('Escape');

  await mainNavigation(page).getByRole('link', { name: 'Teams' }).click();
  await page.getByRole('button', { name: 'New team' }).click();
  const teamDialog = page.getByRole('dialog', { name: 'New team' });
  await teamDialog.getByLabel('Name').fill(teamName);
  await teamDialog.getByRole('combobox', { name: 'Workspace' }).click();
  await page.getByRole('option', { name: workspaceName }).click();
  await teamDialog.getByRole('textbox', { name: 'Badge colour' }).click();
  await page.getByRole('button', { name: '#fd7e14' }).click();
  await expect(teamDialog.getByText('orange', { exact: true })).toBeVisible();
  await teamDialog.getByRole('button', { name: 'Create team' }).click();
  await expect(teamDialog).toBeHidden();
  const teamRow = page.getByRole('row').filter({ hasText: teamName });
  await showRowOnAnyPage(page, teamRow);
  await expect(teamRow).toContainText(workspaceName);

  await teamRow.getByRole('button', { name: 'Members' }).click();
  const members = page.getByRole('dialog', { name: `Members of ${teamName}` });
  await members.getByRole('combobox', { name: 'Add a person' }).fill('ada@');
  await page.getByRole('option', { name: /Ada Admin/ }).click();
  await members.getByRole('button', { name: 'Add' }).click();
  await expect(members.getByRole('row').filter({ hasText: 'ada@northwind.test' })).toBeVisible();
  await page.keyboard.press('Escape');

  // A workspace with teams is kept, and the reason is shown.
  await mainNavigation(page).getByRole('link', { name: 'Workspaces' }).click();
  await showRowOnAnyPage(page, workspaceRow);
  await workspaceRow.getByRole('button', { name: `Delete ${workspaceName}` }).click();
  await page
    .getByRole('dialog', { name: 'Delete workspace' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(page.getByText('This workspace still has 1 team(s); move or delete them first')).toBeVisible();

  await mainNavigation(page).getByRole('link', { name: 'Teams' }).click();
  await showRowOnAnyPage(page, teamRow);
  await teamRow.getByRole('button', { name: `Delete ${teamName}` }).click();
  await page.getByRole('dialog', { name: 'Delete team' }).getByRole('button', { name: 'Delete' }).click();
  await expect(teamRow).toHaveCount(0);

  await mainNavigation(page).getByRole('link', { name: 'Workspaces' }).click();
  await showRowOnAnyPage(page, workspaceRow);
  await workspaceRow.getByRole('button', { name: `Delete ${workspaceName}` }).click();
  await page
    .getByRole('dialog', { name: 'Delete workspace' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(workspaceRow).toHaveCount(0);
  expect(problems).toEqual([]);
});

test('a custom role is built from the permission checklist, then deleted', async ({ page }) => {
  const problems = collectPageProblems(page);
  const roleName = `Translators ${Date.now()}`;
  await page.goto('/settings');
  await expect(page).toHaveURL(/\/settings\/users$/);
  await mainNavigation(page).getByRole('link', { name: 'Roles' }).click();

  await page.getByRole('button', { name: /^Admin/ }).click();
  await expect(page.getByText('Built-in roles cannot be changed.', { exact: false })).toBeVisible();
  await expect(page.getByRole('checkbox', { name: 'Create emails' })).toBeDisabled();

  await page.getByRole('button', { name: 'New role' }).click();
  await page.getByRole('textbox', { name: 'Name' }).fill(roleName);
  await page.getByRole('checkbox', { name: 'Update emails' }).check();
  await page.getByRole('checkbox', { name: 'All of Image library' }).check();
  await expect(page.getByText('4 granted')).toBeVisible();
  await page.getByRole('button', { name: 'Create role' }).click();
  const listed = page
    .getByRole('navigation', { name: 'Roles' })
    .getByRole('button', { name: new RegExp(roleName) });
  await expect(listed).toContainText('4 permissions');

  await page.getByRole('button', { name: 'Delete role' }).click();
  await page.getByRole('dialog', { name: 'Delete role' }).getByRole('button', { name: 'Delete' }).click();
  await expect(listed).toHaveCount(0);
  expect(problems).toEqual([]);
});
