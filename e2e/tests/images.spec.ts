import { expect, test } from '@playwright/test';
import { adminStorageState } from './support/accounts.ts';
import { collectPageProblems } from './support/page-problems.ts';
import { solidPng } from './support/png.ts';

test.use({ storageState: adminStorageState });

test('the image library uploads by dropping files, finds, renames and deletes an image', async ({ page }) => {
  const problems = collectPageProblems(page);
  const unique = `harbour-${Date.now()}`;
  await page.goto('/');
  await page
    .getByRole('navigation', { name: 'Main navigation' })
    .getByRole('link', { name: 'Images' })
    .click();
  await expect(page.getByRole('heading', { name: 'Images', level: 1 })).toBeVisible();

  // The drop zone's file input takes several files; one is not an image and is refused on its own line.
  await page.locator('input[type="file"]').setInputFiles([
    { name: `${unique}.png`, mimeType: 'image/png', buffer: solidPng(40, 30, [20, 120, 200]) },
    { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not an image') },
    // Claims to be a PNG: only the server, reading the bytes, can tell.
    { name: 'disguised.png', mimeType: 'image/png', buffer: Buffer.from('not an image either') },
  ]);
  const uploads = page.getByRole('list', { name: 'Uploads' });
  await expect(uploads.getByRole('listitem').filter({ hasText: 'notes.txt' })).toContainText(
    'Not a JPEG, PNG, GIF or WebP image.',
  );
  await expect(uploads.getByRole('listitem').filter({ hasText: 'disguised.png' })).toContainText(
    'The file must be a JPEG, PNG, GIF or WebP image.',
  );
  await expect(uploads.getByRole('listitem').filter({ hasText: `${unique}.png` })).toContainText('Uploaded');

  await page.getByRole('searchbox', { name: 'Search images' }).fill(unique);
  const card = page.getByRole('listitem').filter({ has: page.getByRole('img', { name: unique }) });
  await expect(card).toHaveCount(1);
  await expect(card).toContainText('40 × 30');

  await card.getByRole('button', { name: `Actions for ${unique}` }).click();
  await page.getByRole('menuitem', { name: 'Rename' }).click();
  const dialog = page.getByRole('dialog', { name: 'Rename image' });
  await dialog.getByLabel('Name').fill(`${unique} renamed`);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  const renamed = page
    .getByRole('listitem')
    .filter({ has: page.getByRole('img', { name: `${unique} renamed` }) });
  await expect(renamed).toHaveCount(1);

  await renamed.getByRole('button', { name: `Actions for ${unique} renamed` }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  await page.getByRole('dialog', { name: 'Delete image' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText(`No image matches “${unique}”.`)).toBeVisible();
  expect(problems).toEqual([]);
});
