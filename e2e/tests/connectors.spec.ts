import { expect, test } from '@playwright/test';
import { adminStorageState } from './support/accounts.ts';
import { collectPageProblems } from './support/page-problems.ts';

test.use({ storageState: adminStorageState });

// The key the fake Iterable started by playwright.config.ts knows (apps/server/src/test/fakes/serve-fakes.ts).
const iterableKey = 'e2e-iterable-server-key-0001';

test('an Iterable connector: create it, test the connection, and find its key masked after a reload', async ({
  page,
}) => {
  const problems = collectPageProblems(page);
  const name = `Iterable ${Date.now()}`;

  await page.goto('/');
  await page
    .getByRole('navigation', { name: 'Main navigation' })
    .getByRole('link', { name: 'Connectors', exact: true })
    .click();
  await expect(page.getByRole('heading', { name: 'Connectors', exact: true })).toBeVisible();

  await page.getByRole('button', { name: 'New connector' }).click();
  const dialog = page.getByRole('dialog', { name: 'New connector' });
  await dialog.getByLabel('Name').fill(name);
  await expect(dialog.getByRole('combobox', { name: 'Platform' })).toHaveValue('Iterable');
  await dialog.getByLabel('API key').fill('wrong-key');
  await dialog.getByRole('button', { name: 'Save' }).click();
  const saved = page.getByRole('dialog', { name });
  await expect(saved.getByLabel('API key')).toHaveValue('••••');

  // A wrong key is refused by the platform, in words; the right one connects.
  await saved.getByRole('button', { name: 'Test connection' }).click();
  await expect(saved.getByTestId('connection-test-result')).toContainText('Iterable refused the API key');
  await saved.getByLabel('API key').fill(iterableKey);
  await saved.getByRole('button', { name: 'Save' }).click();
  await expect(saved.getByLabel('API key')).toHaveValue('••••0001');
  await saved.getByRole('button', { name: 'Test connection' }).click();
  await expect(saved.getByTestId('connection-test-result')).toHaveText(
    'Connected: Iterable (US data centre) accepted the credentials.',
  );
  await saved.getByRole('button', { name: 'Close' }).click();

  await page.reload();
  const row = page.getByRole('row', { name: new RegExp(name) });
  await expect(row).toContainText('US data centre');
  await row.getByRole('button', { name: `Actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  const reopened = page.getByRole('dialog', { name });
  await expect(reopened.getByLabel('API key')).toHaveValue('••••0001');
  await expect(page.getByText(iterableKey)).toHaveCount(0);
  // Saving with the mask keeps the stored key.
  await reopened.getByLabel('Name').fill(`${name} renamed`);
  await reopened.getByRole('button', { name: 'Save' }).click();
  await reopened.getByRole('button', { name: 'Test connection' }).click();
  await expect(reopened.getByTestId('connection-test-result')).toContainText('accepted the credentials');

  expect(problems).toEqual([]);
});

test('a Marketing Cloud connector with a user sign-in: Connect, sign in, and back to a connected connector', async ({
  page,
}) => {
  const problems = collectPageProblems(page);
  const name = `Marketing Cloud ${Date.now()}`;
  await page.goto('/');
  await page
    .getByRole('navigation', { name: 'Main navigation' })
    .getByRole('link', { name: 'Connectors', exact: true })
    .click();
  await page.getByRole('button', { name: 'New connector' }).click();
  const dialog = page.getByRole('dialog', { name: 'New connector' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByRole('combobox', { name: 'Platform' }).click();
  await page.getByRole('option', { name: 'Salesforce Marketing Cloud' }).click();
  await dialog.getByLabel('Tenant subdomain').fill('mc563885gzs27c5t9-63k636tzgm');
  await dialog.getByLabel('Client id').fill('e2e-sfmc-web-client');
  await dialog.getByLabel('Client secret').fill('e2e-sfmc-client-secret-0001');
  await dialog.getByRole('combobox', { name: 'Sign-in' }).click();
  await page.getByRole('option', { name: /A Marketing Cloud user signs in/ }).click();
  await dialog.getByRole('button', { name: 'Save' }).click();
  const saved = page.getByRole('dialog', { name });
  await expect(saved.getByText('Not connected yet')).toBeVisible();

  // The fake Marketing Cloud signs the user in at once and sends the browser back to Letterset.
  await saved.getByRole('link', { name: 'Connect' }).click();
  await expect(page).toHaveURL(/\/workspaces\/\d+\/connectors$/);
  await expect(page.getByText(`${name} is connected to Marketing Cloud`)).toBeVisible();
  const row = page.getByRole('row', { name: new RegExp(name) });
  await expect(row).toContainText('user signed in');
  await row.getByRole('button', { name: `Actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  const reopened = page.getByRole('dialog', { name });
  await reopened.getByRole('button', { name: 'Test connection' }).click();
  await expect(reopened.getByTestId('connection-test-result')).toContainText('accepted the credentials');

  expect(problems).toEqual([]);
});
