import { type Browser, expect, type FrameLocator, type Page, test } from '@playwright/test';
import { adminStorageState } from './support/accounts.ts';
import { collectPageProblems } from './support/page-problems.ts';

test.use({ storageState: adminStorageState });

const workspaceId = 1;
const unique = Date.now().toString(36);

function preview(page: Page): FrameLocator {
  return page.frameLocator('iframe[title="Email preview"]');
}

async function chooseOption(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

async function expectSaved(page: Page) {
  await expect(page.getByRole('status', { name: 'Save state' })).toHaveText('Saved', { timeout: 10_000 });
}

/** A team for the test's project: the organization starts without one. */
async function createTeam(page: Page): Promise<string> {
  const name = `Editors ${unique}`;
  const response = await page.request.post('/api/v1/teams', {
    data: { name, workspace_id: workspaceId, badge_color: 'teal' },
  });
  expect(response.ok()).toBe(true);
  return name;
}

async function openInSecondBrowser(browser: Browser, url: string) {
  const context = await browser.newContext({ storageState: adminStorageState });
  const page = await context.newPage();
  await page.goto(url);
  return { context, page };
}

test('an email is built in the editor, saved, translated, undone, survives a reload, conflicts and is restored', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  const problems = collectPageProblems(page);
  const teamName = await createTeam(page);

  // A project, then an email from the starter design system.
  await page.goto(`/workspaces/${workspaceId}`);
  await page
    .getByRole('navigation', { name: 'Main navigation' })
    .getByRole('link', { name: 'Projects' })
    .click();
  await page.getByRole('button', { name: 'New project' }).click();
  const projectName = `Spring campaign ${unique}`;
  await page.getByRole('textbox', { name: 'Name' }).fill(projectName);
  await chooseOption(page, 'Team', teamName);
  await page.getByRole('button', { name: 'Create project' }).click();
  await page.getByRole('textbox', { name: 'Search projects' }).fill(projectName);
  await expect(page.getByRole('row', { name: new RegExp(projectName) })).toContainText(teamName);
  await page.getByRole('link', { name: projectName }).click();
  await expect(page.getByText('No emails in this project yet.')).toBeVisible();

  await page.getByRole('button', { name: 'New email' }).click();
  await page.getByRole('button', { name: 'Create email' }).click();
  await expect(page.getByText('Enter a name')).toBeVisible();
  await page.getByRole('textbox', { name: 'Name' }).fill(`Spring newsletter ${unique}`);
  await chooseOption(page, 'Design system', 'Letterset Starter');
  await page.getByRole('button', { name: 'Create email' }).click();
  await expect(page).toHaveURL(/\/emails\/\d+\/edit$/);
  const editorUrl = page.url();

  // Components from the palette, each added after the one selected before.
  for (const label of ['Hero', 'Text', 'Button', 'Image and text']) {
    await page.getByRole('button', { name: `Add ${label}`, exact: true }).click();
  }
  const outline = page.getByRole('list', { name: 'Components in this email' });
  await expect(outline.getByRole('listitem')).toHaveCount(5);
  await expect(preview(page).locator('[data-es-instance]').first()).toBeVisible();

  // Fields of several types: text, boolean, enum, url, rich text, through the inspector.
  await page.getByRole('button', { name: 'Select Hero' }).click();
  await page.getByRole('textbox', { name: 'Headline' }).fill('Spring sale');
  await expect(preview(page).getByRole('heading', { name: 'Spring sale' })).toBeVisible();
  await page.getByRole('switch', { name: 'Show button' }).uncheck();
  await expect(page.getByRole('textbox', { name: 'Button text' })).toHaveCount(0);

  await page.getByRole('button', { name: 'Select Button' }).click();
  await page.getByRole('textbox', { name: 'Text', exact: true }).fill('Shop the sale');
  await page.getByRole('textbox', { name: 'Link' }).fill('not a url');
  await expect(page.getByText(/valid|URL/i).first()).toBeVisible();
  await page.getByRole('textbox', { name: 'Link' }).fill('https://example.com/sale');
  await chooseOption(page, 'Style', 'Secondary');
  await expect(preview(page).getByRole('link', { name: 'Shop the sale' })).toHaveAttribute(
    'href',
    /example\.com\/sale/,
  );

  await page.getByRole('button', { name: 'Select Text' }).click();
  const body = page.getByRole('textbox', { name: 'Text', exact: true });
  await body.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('Fresh arrivals every week.');
  await expect(preview(page).getByText('Fresh arrivals every week.')).toBeVisible();

  // Clicking in the preview selects the instance and focuses the field it marks.
  await preview(page).getByRole('heading', { name: 'Spring sale' }).click();
  await expect(page.getByRole('textbox', { name: 'Headline' })).toBeFocused();

  // A second locale, copied from the default one, then translated.
  await page.getByRole('tab', { name: 'Email' }).click();
  await page.getByRole('textbox', { name: 'Subject (en-US)' }).fill('Our spring sale');
  await page.getByRole('textbox', { name: 'Locales' }).click();
  await page.getByRole('option', { name: 'German (Germany) (de-DE)' }).click();
  await page.keyboard.press('Escape');
  await chooseOption(page, 'Locale', 'de-DE');
  await page.getByRole('textbox', { name: 'Subject (de-DE)' }).fill('Unser Frühlingsverkauf');
  await page.getByRole('button', { name: 'Select Hero' }).click();
  await page.getByRole('button', { name: 'Copy from en-US' }).click();
  await expect(page.getByRole('textbox', { name: 'Headline' })).toHaveValue('Spring sale');
  await page.getByRole('textbox', { name: 'Headline' }).fill('Frühlingsangebot');
  await expect(preview(page).getByRole('heading', { name: 'Frühlingsangebot' })).toBeVisible();

  // Undo and redo, from the toolbar and the keyboard.
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(preview(page).getByRole('heading', { name: 'Spring sale' })).toBeVisible();
  await page.getByRole('button', { name: 'Redo' }).click();
  await expect(preview(page).getByRole('heading', { name: 'Frühlingsangebot' })).toBeVisible();
  await page.keyboard.press('ControlOrMeta+Z');
  await expect(preview(page).getByRole('heading', { name: 'Spring sale' })).toBeVisible();
  await page.keyboard.press('ControlOrMeta+Shift+Z');
  await expect(preview(page).getByRole('heading', { name: 'Frühlingsangebot' })).toBeVisible();
  await expectSaved(page);

  // Everything is on the server: a reload shows it in both locales.
  await page.reload();
  await expect(outline.getByRole('listitem')).toHaveCount(5);
  await expect(preview(page).getByRole('heading', { name: 'Spring sale' })).toBeVisible();
  await expect(preview(page).getByText('Fresh arrivals every week.')).toBeVisible();
  await expect(preview(page).getByRole('link', { name: 'Shop the sale' })).toBeVisible();
  await chooseOption(page, 'Locale', 'de-DE');
  await expect(preview(page).getByRole('heading', { name: 'Frühlingsangebot' })).toBeVisible();
  await page.getByRole('tab', { name: 'Email' }).click();
  await expect(page.getByRole('textbox', { name: 'Subject (de-DE)' })).toHaveValue('Unser Frühlingsverkauf');
  await chooseOption(page, 'Locale', 'en-US');

  // Someone else saves the same email; the next save here conflicts.
  const other = await openInSecondBrowser(browser, editorUrl);
  await other.page.getByRole('button', { name: 'Select Hero' }).click();
  await other.page.getByRole('textbox', { name: 'Headline' }).fill('Their headline');
  await expectSaved(other.page);
  await other.context.close();

  await page.getByRole('button', { name: 'Select Hero' }).click();
  await page.getByRole('textbox', { name: 'Headline' }).fill('My headline');
  const conflict = page.getByRole('dialog', { name: 'This email changed while you were editing' });
  await expect(conflict).toBeVisible({ timeout: 10_000 });
  await expect(conflict.getByRole('list', { name: 'What differs' })).toContainText('Hero differs.');
  await conflict.getByRole('button', { name: 'Reload theirs' }).click();
  await expect(preview(page).getByRole('heading', { name: 'Their headline' })).toBeVisible();
  await expectSaved(page);

  // The first version (the email as created, without components) comes back.
  await page.getByRole('tab', { name: 'History' }).click();
  const versions = page.getByRole('tabpanel', { name: 'History' });
  await expect(versions.getByRole('button', { name: 'Preview' }).first()).toBeVisible();
  await versions.getByRole('button', { name: 'Preview' }).last().click();
  const versionDialog = page.getByRole('dialog');
  await expect(versionDialog.frameLocator('iframe').locator('body')).not.toContainText('Their headline');
  await versionDialog.getByRole('button', { name: 'Restore this version' }).click();
  await page
    .getByRole('dialog', { name: 'Restore this version?' })
    .getByRole('button', { name: 'Restore' })
    .click();
  await expect(outline.getByRole('listitem')).toHaveCount(1);
  await expect(preview(page).getByRole('heading', { name: 'Their headline' })).toHaveCount(0);

  expect(problems).toEqual([]);
});
