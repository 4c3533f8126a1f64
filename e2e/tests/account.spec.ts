import { expect, test } from '@playwright/test';
import { adminStorageState } from './support/accounts.ts';
import { invitationLinkFor } from './support/outbox.ts';
import { collectPageProblems } from './support/page-problems.ts';
import { totpCode } from './support/totp.ts';

// The Admin's session only invites the person; everything else happens in their own browser.
test.use({ storageState: adminStorageState });

test('a person edits their profile and turns on two-factor authentication, then signs in with a code', async ({
  browser,
  request,
}) => {
  const email = `tess-${Date.now()}@northwind.test`;
  const password = 'tess password 1234';
  const roles = (await (await request.get('/api/v1/roles?per=100')).json()) as {
    results: { id: number; name: string }[];
  };
  const viewer = roles.results.find((role) => role.name === 'Viewer');
  const invite = await request.post('/api/v1/users', {
    data: { first_name: 'Tess', last_name: 'Token', email, role_id: viewer?.id },
  });
  expect(invite.status()).toBe(200);

  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  const problems = collectPageProblems(page);
  await page.goto(await invitationLinkFor(email));
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await page.getByRole('textbox', { name: 'Repeat the password' }).fill(password);
  await page.getByRole('button', { name: 'Set password and sign in' }).click();

  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Profile' }).click();
  await expect(page.getByRole('heading', { name: 'Profile', level: 1 })).toBeVisible();

  await page.getByLabel('First name').fill('Tessa');
  await page.getByRole('button', { name: 'Save name' }).click();
  await expect(page.getByRole('button', { name: 'Account menu' })).toHaveText('Tessa Token');

  const mentions = page.getByRole('checkbox', { name: 'Someone mentions me in a comment' });
  await expect(mentions).toBeChecked();
  await mentions.click();
  await expect(mentions).not.toBeChecked();
  await page.reload();
  await expect(page.getByRole('checkbox', { name: 'Someone mentions me in a comment' })).not.toBeChecked();

  // The API's 422 lands on the field it names.
  const passwordSection = page.getByRole('region', { name: 'Password' });
  await passwordSection.getByRole('textbox', { name: 'Current password' }).fill('not my password');
  await passwordSection
    .getByRole('textbox', { name: 'New password', exact: true })
    .fill('a brand new password');
  await passwordSection
    .getByRole('textbox', { name: 'Repeat the new password' })
    .fill('a brand new password');
  await passwordSection.getByRole('button', { name: 'Change password' }).click();
  await expect(passwordSection.getByText('is not your current password')).toBeVisible();

  const twoFactor = page.getByRole('region', { name: 'Two-factor authentication' });
  await twoFactor.getByRole('button', { name: 'Set up two-factor authentication' }).click();
  await expect(twoFactor.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  const secret = (await twoFactor.getByLabel('Authenticator key').textContent())?.trim() ?? '';
  await twoFactor.getByLabel('Code from the app').fill('000000');
  await twoFactor.getByRole('button', { name: 'Turn on' }).click();
  await expect(twoFactor.getByText('is not right; check your authenticator app')).toBeVisible();
  await twoFactor.getByLabel('Code from the app').fill(totpCode(secret));
  await twoFactor.getByRole('button', { name: 'Turn on' }).click();
  await expect(twoFactor.getByText('Signing in asks for a code from your authenticator app.')).toBeVisible();

  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  // The account page also has fields labelled Email: wait until the sign-in page replaces it.
  await expect(page).toHaveURL(/\/sign-in/);
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByRole('textbox', { name: 'Password' }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByLabel('Two-factor code').fill(totpCode(secret));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('button', { name: 'Account menu' })).toHaveText('Tessa Token');

  await context.close();
  expect(problems).toEqual([]);
});
