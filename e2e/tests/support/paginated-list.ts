import { expect, type Locator, type Page } from '@playwright/test';

/**
 * Pages through a collection list until `row` shows. Other tests add rows to the same shared
 * organization, so a row this test created may sit on any page, and navigating back to the list
 * starts again at the first one.
 */
export async function showRowOnAnyPage(page: Page, row: Locator): Promise<void> {
  await expect
    .poll(async () => {
      if ((await row.count()) > 0) return true;
      for (const pageButton of await page.getByRole('button', { name: /^\d+$/ }).all()) {
        await pageButton.click();
        if ((await row.count()) > 0) return true;
      }
      return false;
    })
    .toBe(true);
}
