import { expect, test as setup } from '@playwright/test';
import { admin, adminStorageState } from './support/accounts.ts';
import { collectPageProblems } from './support/page-problems.ts';

// Runs once on the empty server before the app tests: the first-run screen creates the
// organization, and the Admin's session is kept for the tests that follow.
setup('first run creates the organization and signs its Admin in', async ({ page }) => {
  const problems = collectPageProblems(page);
  await page.goto('/');
  await expect(page).toHaveURL(/\/setup$/);
  await expect(page.getByRole('heading', { name: 'Create your organization' })).toBeVisible();

  await page.getByLabel('Organization name').fill(admin.organization);
  await page.getByLabel('First name').fill(admin.firstName);
  await page.getByLabel('Last name').fill(admin.lastName);
  await page.getByLabel('Email').fill(admin.email);
  await page.getByRole('textbox', { name: 'Password' }).fill('too short');
  await page.getByRole('button', { name: 'Create organization' }).click();
  await expect(page.getByText('must be at least 10 characters')).toBeVisible();

  await page.getByRole('textbox', { name: 'Password' }).fill(admin.password);
  await page.getByRole('button', { name: 'Create organization' }).click();
  await expect(page).toHaveURL(/\/workspaces\/\d+$/);
  await expect(page.getByRole('heading', { name: 'Main workspace' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Account menu' })).toHaveText(
    `${admin.firstName} ${admin.lastName}`,
  );

  await page.context().storageState({ path: adminStorageState });
  expect(problems).toEqual([]);
});
