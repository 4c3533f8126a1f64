import { expect, test } from '@playwright/test';
import { adminStorageState } from './support/accounts.ts';
import { collectPageProblems } from './support/page-problems.ts';

test.use({ storageState: adminStorageState });

test('a conditional built with the Handlebars preset shows its compiled syntax', async ({ page }) => {
  const problems = collectPageProblems(page);
  const profileName = `Iterable ${Date.now()}`;
  const conditionalLabel = `Membership ${Date.now()}`;

  await page.goto('/');
  await page.getByRole('link', { name: 'Dynamic content' }).first().click();
  await expect(page.getByRole('heading', { name: 'Dynamic content' })).toBeVisible();

  await page.getByRole('button', { name: 'New profile' }).click();
  const profileDialog = page.getByRole('dialog', { name: 'New dynamic content profile' });
  await profileDialog.getByLabel('Name').fill(profileName);
  await profileDialog.getByRole('combobox', { name: 'Template engine preset' }).click();
  await page.getByRole('option', { name: 'Handlebars (Iterable)' }).click();
  await profileDialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('cell', { name: profileName, exact: true })).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(profileName) })).toContainText(
    'Handlebars (Iterable)',
  );

  await page.getByRole('tab', { name: 'Conditionals' }).click();
  await expect(page).toHaveURL(/tab=conditionals/);
  await page.getByRole('button', { name: 'New conditional' }).click();
  const dialog = page.getByRole('dialog', { name: 'New conditional' });
  await dialog.getByRole('textbox', { name: 'Label', exact: true }).fill(conditionalLabel);
  await dialog.getByLabel('Branch label').fill('Gold members');
  await dialog.getByLabel('Branch key').fill('gold');
  await dialog.getByRole('button', { name: 'Add branch' }).click();
  await dialog.getByLabel('Branch label').nth(1).fill('Everyone else');
  await dialog.getByLabel('Branch key').nth(1).fill('others');
  await dialog.getByLabel('Opening of gold').first().fill('{% if tier == "gold" %}');
  await dialog.getByLabel('Opening of others').first().fill('{% else %}');
  await dialog.getByLabel('Closing').first().fill('{% endif %}');
  // Exports without a profile show one branch: the last unless another is chosen.
  const shownWithoutProfile = dialog.getByRole('combobox', { name: 'Shown when exported without a profile' });
  await expect(shownWithoutProfile).toHaveValue('Everyone else');
  await shownWithoutProfile.click();
  await page.getByRole('option', { name: 'Gold members' }).click();
  await expect(shownWithoutProfile).toHaveValue('Gold members');

  const profile = dialog.getByTestId(`profile-syntax-${profileName}`);
  await profile.getByText('Preset picker').click();
  await profile.getByLabel('The last branch is the else branch').check();
  await profile.getByRole('button', { name: 'Add condition to gold' }).click();
  await profile.getByLabel('Attribute').fill('tier');
  await profile.getByLabel('Value').fill('gold');
  await expect(profile.getByTestId('compiled-syntax')).toHaveText(
    ['{{#if (eq tier "gold")}}   ← gold', '{{else}}   ← others', '{{/if}}'].join('\n'),
  );
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();

  // Reopened, the saved conditional shows the same compiled syntax.
  const row = page.getByRole('row', { name: new RegExp(conditionalLabel) });
  await expect(row).toContainText('Gold members');
  await row.getByRole('button', { name: `Actions for ${conditionalLabel}` }).click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  const reopened = page.getByRole('dialog', { name: conditionalLabel });
  await expect(reopened.getByTestId('compiled-syntax')).toContainText('{{#if (eq tier "gold")}}');
  await expect(reopened.getByRole('combobox', { name: 'Shown when exported without a profile' })).toHaveValue(
    'Gold members',
  );

  expect(problems).toEqual([]);
});
