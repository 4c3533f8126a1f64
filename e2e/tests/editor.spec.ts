import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Browser, expect, type Page, test } from '@playwright/test';
import { adminStorageState } from './support/accounts.ts';
import { collectPageProblems } from './support/page-problems.ts';

// Wide enough for the palette and outline beside the preview (below 1360 px they become a tab).
test.use({ storageState: adminStorageState, actionTimeout: 10_000, viewport: { width: 1440, height: 900 } });

const workspaceId = 1;
const unique = Date.now().toString(36);

const workspaceApi = `/api/v1/workspaces/${workspaceId}`;

/** A POST through the API for a test's data, failing the test with the API's answer. */
function poster(page: Page) {
  return async <T>(path: string, data: object): Promise<T> => {
    const response = await page.request.post(path, { data });
    expect(response.ok(), `${path}: ${await response.text()}`).toBe(true);
    return (await response.json()) as T;
  };
}

/** An empty email from the Letterset Starter, in a project of a new team, made through the API. */
async function createStarterEmail(
  page: Page,
  names: { team: string; badgeColor: string; project: string; email: string },
): Promise<{ id: number }> {
  const post = poster(page);
  const team = await post<{ id: number }>('/api/v1/teams', {
    name: names.team,
    workspace_id: workspaceId,
    badge_color: names.badgeColor,
  });
  const project = await post<{ id: number }>(`${workspaceApi}/projects`, {
    name: names.project,
    team_id: team.id,
  });
  const systems = await (await page.request.get(`${workspaceApi}/email_design_systems`)).json();
  const starter = systems.results.find((system: { name: string }) => system.name === 'Letterset Starter');
  return post<{ id: number }>(`${workspaceApi}/emails`, {
    name: names.email,
    email_design_system_id: starter.id,
    project_id: project.id,
  });
}

/**
 * The preview frame is sandboxed without scripts, so the test reads it from the page, as the
 * editor does, instead of running Playwright's scripts inside it.
 */
function previewText(page: Page, frameTitle = 'Email preview'): Promise<string> {
  return page.evaluate(
    (title) =>
      document.querySelector<HTMLIFrameElement>(`iframe[title="${title}"]`)?.contentDocument?.body
        .innerText ?? '',
    frameTitle,
  );
}

async function expectPreviewToShow(page: Page, text: string) {
  await expect.poll(() => previewText(page)).toContain(text);
}

async function expectPreviewNotToShow(page: Page, text: string, frameTitle?: string) {
  await expect.poll(() => previewText(page, frameTitle)).not.toContain(text);
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

// The editor loads nothing from hosts its users did not choose: Letterset serves the starter's pictures.
const foreignRequests: string[] = [];
test.beforeEach(async ({ context }) => {
  foreignRequests.length = 0;
  await context.route(
    (url) => url.hostname !== 'localhost' && url.hostname !== '127.0.0.1',
    (route) => {
      foreignRequests.push(route.request().url());
      return route.abort();
    },
  );
});
test.afterEach(() => {
  expect(foreignRequests, 'requests to other hosts').toEqual([]);
});

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
  await page.getByRole('searchbox', { name: 'Search projects' }).fill(projectName);
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
  await expect
    .poll(() =>
      page.evaluate(
        () =>
          document
            .querySelector<HTMLIFrameElement>('iframe[title="Email preview"]')
            ?.contentDocument?.querySelectorAll('[data-es-instance]').length ?? 0,
      ),
    )
    .toBeGreaterThan(4);

  // Fields of several types: text, boolean, enum, url, rich text, through the inspector.
  await page.getByRole('button', { name: 'Select Hero' }).click();
  // Validation messages follow the value: the headline must not be blank.
  await page.getByRole('textbox', { name: 'Headline', exact: true }).fill('');
  await expect(page.getByRole('textbox', { name: 'Headline', exact: true })).toHaveAttribute(
    'aria-invalid',
    'true',
  );
  await page.getByRole('textbox', { name: 'Headline', exact: true }).fill('Spring sale');
  await expect(page.getByRole('textbox', { name: 'Headline', exact: true })).not.toHaveAttribute(
    'aria-invalid',
    'true',
  );
  await expectPreviewToShow(page, 'Spring sale');
  await page.getByRole('switch', { name: 'Show button' }).uncheck();
  await expect(page.getByRole('textbox', { name: 'Button text' })).toHaveCount(0);

  await page.getByRole('button', { name: 'Select Button' }).click();
  await page.getByRole('textbox', { name: 'Text', exact: true }).fill('Shop the sale');
  await page.getByRole('textbox', { name: 'Link' }).fill('https://example.com/sale');
  await chooseOption(page, 'Style', 'Secondary');
  await expect
    .poll(() =>
      page.evaluate(
        () =>
          document
            .querySelector<HTMLIFrameElement>('iframe[title="Email preview"]')
            ?.contentDocument?.querySelector('a[href*="example.com/sale"]')?.textContent ?? '',
      ),
    )
    .toContain('Shop the sale');

  await page.getByRole('button', { name: 'Select Text' }).click();
  const body = page.getByRole('textbox', { name: 'Text', exact: true });
  await body.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('Fresh arrivals every week.');
  await expectPreviewToShow(page, 'Fresh arrivals every week.');

  // Clicking in the preview selects the instance and focuses the field it marks.
  await page.evaluate(() =>
    document
      .querySelector<HTMLIFrameElement>('iframe[title="Email preview"]')
      ?.contentDocument?.querySelector<HTMLElement>('[data-es-field-focus="headline"]')
      ?.click(),
  );
  await expect(page.getByRole('textbox', { name: 'Headline', exact: true })).toBeFocused();

  // A second locale, copied from the default one, then translated.
  await page.getByRole('tab', { name: 'Email' }).click();
  await page.getByRole('textbox', { name: 'Subject (en-US)' }).fill('Our spring sale');
  await page.getByRole('combobox', { name: 'Locales' }).click();
  await page.getByRole('option', { name: 'German (Germany) (de-DE)' }).click();
  await page.keyboard.press('Escape');
  await chooseOption(page, 'Locale', 'de-DE');
  await page.getByRole('textbox', { name: 'Subject (de-DE)' }).fill('Unser Frühlingsverkauf');
  await page.getByRole('button', { name: 'Select Hero' }).click();
  await page.getByRole('button', { name: 'Copy from en-US' }).click();
  await expect(page.getByRole('textbox', { name: 'Headline', exact: true })).toHaveText('Spring sale');
  await page.getByRole('textbox', { name: 'Headline', exact: true }).fill('Frühlingsangebot');
  await expectPreviewToShow(page, 'Frühlingsangebot');

  // Undo and redo, from the toolbar and the keyboard.
  await page.getByRole('button', { name: 'Undo' }).click();
  await expectPreviewToShow(page, 'Spring sale');
  await page.getByRole('button', { name: 'Redo' }).click();
  await expectPreviewToShow(page, 'Frühlingsangebot');
  await page.keyboard.press('ControlOrMeta+Z');
  await expectPreviewToShow(page, 'Spring sale');
  await page.keyboard.press('ControlOrMeta+Shift+Z');
  await expectPreviewToShow(page, 'Frühlingsangebot');
  await expectSaved(page);

  // Everything is on the server: a reload shows it in both locales.
  await page.reload();
  await expect(outline.getByRole('listitem')).toHaveCount(5);
  await expectPreviewToShow(page, 'Spring sale');
  await expectPreviewToShow(page, 'Fresh arrivals every week.');
  await expectPreviewToShow(page, 'Shop the sale');
  await chooseOption(page, 'Locale', 'de-DE');
  await expectPreviewToShow(page, 'Frühlingsangebot');
  await page.getByRole('tab', { name: 'Email' }).click();
  await expect(page.getByRole('textbox', { name: 'Subject (de-DE)' })).toHaveText('Unser Frühlingsverkauf');
  await chooseOption(page, 'Locale', 'en-US');

  // Someone else saves the same email: their change shows here at once, merged without a dialog
  // (the dialog is for both sides changing the same value; the autosave's tests cover it).
  const other = await openInSecondBrowser(browser, editorUrl);
  await other.page.getByRole('button', { name: 'Select Hero' }).click();
  await other.page.getByRole('textbox', { name: 'Headline', exact: true }).fill('Their headline');
  await expectSaved(other.page);
  await other.context.close();
  await expectPreviewToShow(page, 'Their headline');
  await page.getByRole('button', { name: 'Select Hero' }).click();
  await page.getByRole('textbox', { name: 'Headline', exact: true }).fill('My headline');
  await expectPreviewToShow(page, 'My headline');
  await expectSaved(page);

  // The first version (the email as created, without components) comes back.
  await page.getByRole('tab', { name: 'History' }).click();
  const versions = page.getByRole('tabpanel', { name: 'History' });
  await expect(versions.getByRole('button', { name: 'Preview' }).first()).toBeVisible();
  await versions.getByRole('button', { name: 'Preview' }).last().click();
  const versionDialog = page.getByRole('dialog');
  await expectPreviewNotToShow(page, 'My headline', 'Version preview');
  await versionDialog.getByRole('button', { name: 'Restore this version' }).click();
  await page
    .getByRole('dialog', { name: 'Restore this version?' })
    .getByRole('button', { name: 'Restore' })
    .click();
  await expect(outline.getByRole('listitem')).toHaveCount(1);
  await expectPreviewNotToShow(page, 'My headline');

  expect(problems).toEqual([]);
});

test('undo and redo right after a save keep the work, and changes the server lacks are offered back after a reload', async ({
  page,
}) => {
  test.setTimeout(60_000);
  const problems = collectPageProblems(page);
  const email = await createStarterEmail(page, {
    team: `Autosave ${unique}`,
    badgeColor: 'lime',
    project: `Autosave ${unique}`,
    email: `Autosave ${unique}`,
  });
  const emailApi = `${workspaceApi}/emails/${email.id}`;
  const serverCopy = async () =>
    JSON.stringify((await (await page.request.get(emailApi)).json()).email_content);
  const headline = page.getByRole('textbox', { name: 'Headline', exact: true });
  await page.goto(`/workspaces/${workspaceId}/emails/${email.id}/edit`);
  await page.getByRole('button', { name: 'Add Hero', exact: true }).click();
  await page.getByRole('button', { name: 'Select Hero' }).click();
  await headline.fill('Kept headline');
  await expectSaved(page);

  // Undo, then Redo before the undone copy is saved: the editor is back at what the server holds.
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByRole('status', { name: 'Save state' })).toHaveText('Unsaved changes');
  await page.getByRole('button', { name: 'Redo' }).click();
  await expectSaved(page);
  expect(await serverCopy()).toContain('Kept headline');

  // A reload shows the server's copy, with nothing to restore, and saves nothing over it.
  await page.reload();
  await expectPreviewToShow(page, 'Kept headline');
  await expectSaved(page);
  await expect(page.getByRole('dialog', { name: 'Unsaved changes from an earlier session' })).toHaveCount(0);
  await page.waitForTimeout(1500);
  expect(await serverCopy()).toContain('Kept headline');

  // Changes made while the server cannot be reached stay in the browser...
  const refuseSaves = (route: import('@playwright/test').Route) =>
    route.request().method() === 'PATCH' ? route.abort('internetdisconnected') : route.fallback();
  await page.route(`**${emailApi}`, refuseSaves);
  await page.getByRole('button', { name: 'Select Hero' }).click();
  await headline.fill('Offline headline');
  await expect(page.getByRole('status', { name: 'Save state' })).toHaveText('Offline – will retry');

  // ...and after a reload the editor shows them and asks, saving nothing until the user chooses.
  await page.reload();
  const restored = page.getByRole('dialog', { name: 'Unsaved changes from an earlier session' });
  await expect(restored).toBeVisible();
  await expect(restored.getByRole('list', { name: 'What differs' })).toContainText('Hero differs.');
  await expectPreviewToShow(page, 'Offline headline');
  await page.unroute(`**${emailApi}`, refuseSaves);
  await page.waitForTimeout(1500);
  expect(await serverCopy()).toContain('Kept headline');
  await restored.getByRole('button', { name: 'Keep my changes' }).click();
  await expectSaved(page);
  expect(await serverCopy()).toContain('Offline headline');

  // Discarding instead goes back to the server's copy.
  await page.route(`**${emailApi}`, refuseSaves);
  await page.getByRole('button', { name: 'Select Hero' }).click();
  await headline.fill('Dropped headline');
  await expect(page.getByRole('status', { name: 'Save state' })).toHaveText('Offline – will retry');
  await page.reload();
  await page.unroute(`**${emailApi}`, refuseSaves);
  await restored.getByRole('button', { name: 'Discard my changes' }).click();
  await expectPreviewToShow(page, 'Offline headline');
  await expectSaved(page);
  await page.reload();
  await expect(restored).toHaveCount(0);
  await expectPreviewToShow(page, 'Offline headline');
  expect(await serverCopy()).not.toContain('Dropped headline');

  // The aborted saves are the only failed requests the page may have logged.
  expect(problems.filter((problem) => !problem.includes('net::ERR_INTERNET_DISCONNECTED'))).toEqual([]);
});

test('the editor takes the whole window, keeps the email at its full width on laptop screens, and helps start an empty email', async ({
  page,
}) => {
  const problems = collectPageProblems(page);
  const email = await createStarterEmail(page, {
    team: `Wide ${unique}`,
    badgeColor: 'cyan',
    project: `Wide ${unique}`,
    email: `Wide ${unique}`,
  });
  const navigation = page.getByRole('navigation', { name: 'Main navigation' });
  const preview = page.locator('iframe[title="Email preview"]');
  for (const width of [1280, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`/workspaces/${workspaceId}/emails/${email.id}/edit`);
    await expect(preview).toBeVisible();
    await expect(navigation).not.toBeInViewport();
    // The desktop preview is 660 px: the 600 px email and its margins.
    expect((await preview.boundingBox())?.width).toBeGreaterThanOrEqual(660);
  }
  // An empty email says what to do, and offers the first components one click away or as a drop target.
  const empty = page.getByRole('region', { name: 'Empty email' });
  await expect(empty).toContainText('This email has no components yet');
  await empty.getByRole('button', { name: 'Start with Hero' }).click();
  const outline = page.getByRole('list', { name: 'Components in this email' });
  await expect(empty).toHaveCount(0);
  await expect(outline.getByRole('listitem')).toHaveCount(2);
  await expect(outline).toContainText('Hero');
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(empty).toBeVisible();
  const grip = page.getByLabel('Drag Text', { exact: true });
  const gripBox = await grip.boundingBox();
  const targetBox = await empty.boundingBox();
  if (!gripBox || !targetBox) throw new Error('The palette item or the drop target is not on screen');
  await page.mouse.move(gripBox.x + gripBox.width / 2, gripBox.y + gripBox.height / 2);
  await page.mouse.down();
  await page.mouse.move(targetBox.x + targetBox.width / 2, targetBox.y + targetBox.height / 2, { steps: 12 });
  await page.mouse.up();
  await expect(empty).toHaveCount(0);
  await expect(outline.getByRole('listitem')).toHaveCount(2);
  await expect(outline).toContainText('Text');

  // The menu button brings the navigation back, and leaving the editor restores the usual frame.
  await page.getByRole('button', { name: 'Toggle navigation' }).click();
  await expect(navigation).toBeInViewport();
  await navigation.getByRole('link', { name: 'Projects' }).click();
  await expect(page.getByRole('button', { name: 'New project' })).toBeVisible();
  await expect(navigation).toBeInViewport();
  expect(problems).toEqual([]);
});

test('an email saved as a layout is arranged in the layout editor and starts a new email with its content', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const problems = collectPageProblems(page);
  const email = await createStarterEmail(page, {
    team: `Layouts ${unique}`,
    badgeColor: 'orange',
    project: `Layouts ${unique}`,
    email: `Layout source ${unique}`,
  });
  const layoutName = `Newsletter layout ${unique}`;
  await page.goto(`/workspaces/${workspaceId}/emails/${email.id}/edit`);
  await page
    .getByRole('region', { name: 'Empty email' })
    .getByRole('button', { name: 'Start with Hero' })
    .click();
  await page.getByRole('textbox', { name: 'Headline', exact: true }).fill('Headline from the email');
  await page.getByRole('button', { name: 'More actions', exact: true }).click();
  await page.getByRole('menuitem', { name: 'Save as layout' }).click();
  const saveDialog = page.getByRole('dialog', { name: 'Save as layout' });
  await saveDialog.getByRole('textbox', { name: 'Layout name' }).fill(layoutName);
  await expect(saveDialog.getByRole('checkbox', { name: 'Keep the field values' })).toBeChecked();
  await saveDialog.getByRole('button', { name: 'Save layout' }).click();
  await expect(page.getByText(`Layout ${layoutName} saved`)).toBeVisible();

  // The layout opens from its design system's Layouts tab in the same editor, without email-only parts.
  const { project_id: projectId, email_design_system_id: starterId } = await (
    await page.request.get(`${workspaceApi}/emails/${email.id}`)
  ).json();
  await page.goto(`/workspaces/${workspaceId}/design-systems/${starterId}?tab=layouts`);
  await expect(page.locator(`iframe[title="Preview of ${layoutName}"]`)).toBeVisible();
  await page.getByRole('link', { name: layoutName }).click();
  await expect(page).toHaveURL(/\/layouts\/\d+\/edit$/);
  const layoutUrl = page.url();
  await expect(page.getByRole('heading', { name: layoutName })).toBeVisible();
  await expectPreviewToShow(page, 'Headline from the email');
  await page.getByRole('tab', { name: 'Layout', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Layout settings' })).toBeVisible();
  // The email's subject stayed with the email: the layout's own starts blank.
  await expect(page.getByRole('textbox', { name: 'Subject (en-US)' })).toHaveText('');
  await expect(page.getByRole('tab', { name: 'History' })).toHaveCount(0);
  await page.getByRole('button', { name: 'More actions', exact: true }).click();
  await expect(page.getByRole('menuitem', { name: 'Download HTML' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Save as layout' })).toHaveCount(0);
  await page.keyboard.press('Escape');

  // Add, reorder, change a value, undo: the same commands as in an email.
  const rows = page.getByRole('list', { name: 'Components in this email' }).getByRole('listitem');
  await page.getByRole('button', { name: 'Add Button', exact: true }).click();
  await expect(rows).toHaveText([/whole email/, /Hero/, /Button/]);
  await page.getByRole('button', { name: 'Move Button up' }).click();
  await expect(rows).toHaveText([/whole email/, /Button/, /Hero/]);
  await page.getByRole('button', { name: 'Select Hero' }).click();
  await page.getByRole('textbox', { name: 'Headline', exact: true }).fill('Headline of the layout');
  await expectPreviewToShow(page, 'Headline of the layout');
  await page.getByRole('button', { name: 'Add Divider', exact: true }).click();
  await expect(rows).toHaveCount(4);
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(rows).toHaveText([/whole email/, /Button/, /Hero/]);
  await expectSaved(page);

  // Validation checks the layout's fields, never a subject it does not have.
  await page.getByRole('tab', { name: 'Validate' }).click();
  await page.getByRole('button', { name: 'Validate' }).click();
  await expect(page.getByRole('button', { name: /Subject/ })).toHaveCount(0);

  // Saved on the server: a reload shows the same layout, with nothing to restore.
  await page.reload();
  await expect(rows).toHaveText([/whole email/, /Button/, /Hero/]);
  await expectPreviewToShow(page, 'Headline of the layout');
  await expectSaved(page);
  await expect(page.getByRole('dialog')).toHaveCount(0);
  const saved = await (
    await page.request.get(`${workspaceApi}/layouts/${layoutUrl.match(/layouts\/(\d+)/)?.[1]}`)
  ).json();
  expect(saved.content.component_instances).toHaveLength(2);

  // The way back lands on the Layouts tab.
  await page.getByRole('link', { name: 'Back to the layouts' }).click();
  await expect(page.getByRole('tab', { name: 'Layouts' })).toHaveAttribute('aria-selected', 'true');

  // A new email in the same project starts from it, picked from the choice with its preview.
  await page.goto(`/workspaces/${workspaceId}/projects/${projectId}`);
  await page.getByRole('button', { name: 'New email' }).click();
  const newEmail = page.getByRole('dialog', { name: 'New email' });
  await newEmail.getByRole('textbox', { name: 'Name' }).fill(`From layout ${unique}`);
  await chooseOption(page, 'Design system', 'Letterset Starter');
  await newEmail.getByRole('combobox', { name: 'Start from layout' }).click();
  const option = page.getByRole('option').filter({ hasText: layoutName });
  await expect(option.locator(`iframe[title="Preview of ${layoutName}"]`)).toBeVisible();
  await option.click();
  await expect(newEmail.locator(`iframe[title="Preview of ${layoutName}"]`)).toBeVisible();
  await newEmail.getByRole('button', { name: 'Create email' }).click();
  await expect(page).toHaveURL(/\/emails\/\d+\/edit$/);
  await expectPreviewToShow(page, 'Headline of the layout');
  await expect(rows).toHaveText([/whole email/, /Button/, /Hero/]);

  // New layout opens the editor at once, on an empty layout.
  await page.goto(`/workspaces/${workspaceId}/design-systems/${starterId}?tab=layouts`);
  await page.getByRole('button', { name: 'New layout' }).click();
  const newLayout = page.getByRole('dialog', { name: 'New layout' });
  await newLayout.getByRole('textbox', { name: 'Name' }).fill(`Blank layout ${unique}`);
  await newLayout.getByRole('button', { name: 'Create and open' }).click();
  await expect(page).toHaveURL(/\/layouts\/\d+\/edit$/);
  await expect(page.getByRole('region', { name: 'Empty email' })).toBeVisible();
  expect(problems).toEqual([]);
});

test('a conditional is attached in the editor and each branch gets its own text', async ({ page }) => {
  test.setTimeout(60_000);
  const problems = collectPageProblems(page);
  const post = poster(page);
  const label = `Membership ${unique}`;
  await post(`${workspaceApi}/conditionals`, {
    label,
    branches: [
      { key: 'gold', label: 'Gold' },
      { key: 'silver', label: 'Silver' },
    ],
    default_value: {
      closing: '{% endif %}',
      branch_values: { gold: '{% if tier == "gold" %}', silver: '{% else %}' },
    },
  });
  const email = await createStarterEmail(page, {
    team: `Members ${unique}`,
    badgeColor: 'purple',
    project: `Members ${unique}`,
    email: `Member news ${unique}`,
  });

  await page.goto(`/workspaces/${workspaceId}/emails/${email.id}/edit`);
  await page.getByRole('button', { name: 'Add Heading', exact: true }).click();
  await chooseOption(page, 'Conditional', label);
  await page.locator('label', { hasText: /^Gold$/ }).click();
  await page.getByRole('textbox', { name: 'Text', exact: true }).fill('Welcome, gold member');
  await expectPreviewToShow(page, 'Welcome, gold member');
  // Each branch keeps its own values: silver still shows the component's default.
  await page.locator('label', { hasText: /^Silver$/ }).click();
  await expect(page.getByRole('textbox', { name: 'Text', exact: true })).toHaveText('Section heading');
  await page.getByRole('textbox', { name: 'Text', exact: true }).fill('Welcome, silver member');
  await expectPreviewToShow(page, 'Welcome, silver member');
  await expectSaved(page);

  const saved = await (await page.request.get(`${workspaceApi}/emails/${email.id}`)).json();
  const heading = saved.email_content.component_instances[0];
  expect(heading.field_values.gold['en-US'].text.value).toBe('Welcome, gold member');
  expect(heading.field_values.silver['en-US'].text.value).toBe('Welcome, silver member');

  await page.reload();
  await page.getByRole('button', { name: /^Select Heading/ }).click();
  await page.locator('label', { hasText: /^Gold$/ }).click();
  await expect(page.getByRole('textbox', { name: 'Text', exact: true })).toHaveText('Welcome, gold member');
  await expectPreviewToShow(page, 'Welcome, gold member');
  expect(problems).toEqual([]);
});

test('link tracking values and subject branches are set in the Email panel and the inspector', async ({
  page,
}) => {
  test.setTimeout(60_000);
  const problems = collectPageProblems(page);
  const post = poster(page);
  const profileName = `UTM ${unique}`;
  await post(`${workspaceApi}/link_tracking_profiles`, {
    name: profileName,
    parameters: [
      { type: 'editor_global_field_value', parameter: 'utm_campaign' },
      { type: 'editor_field_value', parameter: 'utm_content' },
    ],
    custom_template: null,
  });
  const conditionalLabel = `Subject tier ${unique}`;
  await post(`${workspaceApi}/conditionals`, {
    label: conditionalLabel,
    branches: [
      { key: 'gold', label: 'Gold' },
      { key: 'others', label: 'Others' },
    ],
    default_value: {
      closing: '{% endif %}',
      branch_values: { gold: '{% if tier == "gold" %}', others: '{% else %}' },
    },
    can_be_used_in_subject_and_preheader: true,
  });
  const email = await createStarterEmail(page, {
    team: `Trackers ${unique}`,
    badgeColor: 'orange',
    project: `Tracked ${unique}`,
    email: `Tracked news ${unique}`,
  });

  await page.goto(`/workspaces/${workspaceId}/emails/${email.id}/edit`);
  await page.getByRole('tab', { name: 'Email' }).click();
  await chooseOption(page, 'Link tracking profile', profileName);
  await page.getByRole('textbox', { name: 'utm_campaign' }).fill('spring');

  // The subject gets one text per branch of a conditional allowed in subject and preheader.
  await chooseOption(page, 'Subject conditional', conditionalLabel);
  await page.getByRole('textbox', { name: 'Subject (en-US): Gold' }).fill('Gold deals inside');
  await page.getByRole('textbox', { name: 'Subject (en-US): Others' }).fill('Deals inside');

  await page.getByRole('button', { name: 'Add Button', exact: true }).click();
  await page.getByRole('textbox', { name: 'Link' }).fill('https://example.com/sale');
  await page.getByRole('textbox', { name: 'utm_content' }).fill('button');
  await expect
    .poll(() =>
      page.evaluate(
        () =>
          document
            .querySelector<HTMLIFrameElement>('iframe[title="Email preview"]')
            ?.contentDocument?.querySelector('a[href*="example.com/sale"]')
            ?.getAttribute('href') ?? '',
      ),
    )
    .toBe('https://example.com/sale?utm_campaign=spring&utm_content=button');
  await expectSaved(page);

  const saved = await (await page.request.get(`${workspaceApi}/emails/${email.id}`)).json();
  expect(saved.link_tracking_profile_id).not.toBeNull();
  expect(saved.email_content.global_link_tracking_parameters).toEqual({ utm_campaign: 'spring' });
  const button = saved.email_content.component_instances[0];
  expect(button.field_values.null_branch['en-US'].url).toEqual({
    value: 'https://example.com/sale',
    link_tracking_parameters: { utm_content: 'button' },
  });
  expect(saved.email_content.subject.branch_content.gold['en-US']).toBe('Gold deals inside');
  expect(saved.email_content.subject.branch_content.others['en-US']).toBe('Deals inside');

  // Back to one subject.
  await page.getByRole('tab', { name: 'Email' }).click();
  await page.getByRole('button', { name: 'Use one subject' }).click();
  await expect(page.getByRole('textbox', { name: 'Subject (en-US)', exact: true })).toBeVisible();
  expect(problems).toEqual([]);
});

test('someone else’s save merges into the open editor: their preheader and brand profile show, my subject stays', async ({
  page,
}) => {
  const problems = collectPageProblems(page);
  const email = await createStarterEmail(page, {
    team: `Mergers ${unique}`,
    badgeColor: 'cyan',
    project: `Merged ${unique}`,
    email: `Merged news ${unique}`,
  });
  const emailUrl = `${workspaceApi}/emails/${email.id}`;
  const opened = await (await page.request.get(emailUrl)).json();
  const brandName = `Night ${unique}`;
  const brand = await poster(page)<{ id: number }>(
    `${workspaceApi}/email_design_systems/${opened.email_design_system_id}/brand_profiles`,
    { name: brandName, component_overrides: [] },
  );

  await page.goto(`/workspaces/${workspaceId}/emails/${email.id}/edit`);
  await page.getByRole('tab', { name: 'Email' }).click();
  const subject = page.getByRole('textbox', { name: 'Subject (en-US)', exact: true });
  await subject.fill('My subject');
  await expectSaved(page);

  // Someone else changes the preheader and the brand profile.
  const current = await (await page.request.get(emailUrl)).json();
  const theirs = await page.request.patch(emailUrl, {
    data: {
      lock_version: current.lock_version,
      brand_profile_id: brand.id,
      email_content: {
        ...current.email_content,
        preheader: { conditional_id: null, branch_content: { null_branch: { 'en-US': 'Their preheader' } } },
      },
    },
  });
  expect(theirs.ok(), await theirs.text()).toBe(true);

  // My next save meets theirs: the two changed different things, so they merge without a question.
  await subject.fill('My second subject');
  await expectSaved(page);
  await expect(page.getByRole('dialog', { name: 'This email changed while you were editing' })).toHaveCount(
    0,
  );
  await expect(page.getByRole('textbox', { name: 'Preheader (en-US)', exact: true })).toHaveText(
    'Their preheader',
  );
  await expect(page.getByRole('combobox', { name: 'Brand profile', exact: true })).toHaveValue(brandName);
  await expect(subject).toHaveText('My second subject');

  const saved = await (await page.request.get(emailUrl)).json();
  expect(saved.brand_profile_id).toBe(brand.id);
  expect(saved.email_content.subject.branch_content.null_branch['en-US']).toBe('My second subject');
  expect(saved.email_content.preheader.branch_content.null_branch['en-US']).toBe('Their preheader');
  expect(problems).toEqual([]);
});

test('a published email opens read-only until it is converted to draft', async ({ page }) => {
  const problems = collectPageProblems(page);
  const post = poster(page);
  const email = await createStarterEmail(page, {
    team: `Publishers ${unique}`,
    badgeColor: 'orange',
    project: `Published ${unique}`,
    email: `Sent already ${unique}`,
  });
  await post(`${workspaceApi}/emails/${email.id}/publish`, { force: true });

  await page.goto(`/workspaces/${workspaceId}/emails/${email.id}/edit`);
  await expect(page.getByText('This email is published, so it is read-only.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add Hero', exact: true })).toHaveCount(0);
  await page.getByRole('tab', { name: 'Email' }).click();
  await expect(page.getByRole('textbox', { name: 'Subject (en-US)' })).toBeDisabled();

  await page.getByRole('button', { name: 'Convert to draft' }).click();
  await expect(page.getByText('This email is published, so it is read-only.')).toHaveCount(0);
  // On a tablet the palette and outline are a tab of the side panel.
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.getByRole('tab', { name: 'Outline' }).click();
  await page.getByRole('button', { name: 'Add Hero', exact: true }).click();
  await expect(page.getByRole('textbox', { name: 'Headline', exact: true })).toBeVisible();
  await expectSaved(page);
  expect(problems).toEqual([]);
});

test('components are arranged from the outline and validation problems open their field', async ({
  page,
}) => {
  test.setTimeout(60_000);
  const problems = collectPageProblems(page);
  const email = await createStarterEmail(page, {
    team: `Arrangers ${unique}`,
    badgeColor: 'cyan',
    project: `Arranged ${unique}`,
    email: `Arranged ${unique}`,
  });

  await page.goto(`/workspaces/${workspaceId}/emails/${email.id}/edit`);
  for (const label of ['Hero', 'Divider', 'Button']) {
    await page.getByRole('button', { name: `Add ${label}`, exact: true }).click();
  }
  const rows = page.getByRole('list', { name: 'Components in this email' }).getByRole('listitem');
  await expect(rows).toHaveText([/whole email/, /Hero/, /Divider/, /Button/]);

  await page.getByRole('button', { name: 'Move Button up' }).click();
  await expect(rows).toHaveText([/whole email/, /Hero/, /Button/, /Divider/]);
  await page.getByRole('button', { name: 'Select Hero' }).focus();
  await page.keyboard.press('Alt+ArrowDown');
  await expect(rows).toHaveText([/whole email/, /Button/, /Hero/, /Divider/]);

  await page.getByRole('button', { name: 'Duplicate Divider' }).click();
  await expect(rows).toHaveCount(5);
  await page.getByRole('button', { name: 'Remove Divider' }).first().click();
  await expect(rows).toHaveCount(4);

  await page.getByRole('button', { name: 'Select Hero' }).click();
  await page.getByRole('textbox', { name: 'Name in the outline' }).fill('Top banner');
  await expect(page.getByRole('button', { name: 'Select Top banner' })).toBeVisible();

  // A blank headline is saved, found by Validate, and opens its field.
  await page.getByRole('textbox', { name: 'Headline', exact: true }).fill('');
  await expectSaved(page);
  await page.getByRole('tab', { name: 'Validate' }).click();
  await page.getByRole('button', { name: 'Validate' }).click();
  await page.getByRole('button', { name: /Top banner · headline · en-US/ }).click();
  await expect(page.getByRole('textbox', { name: 'Headline', exact: true })).toBeFocused();
  expect(problems).toEqual([]);
});

test('a feed chosen for a component in the builder fills its fields in the editor', async ({ page }) => {
  test.setTimeout(90_000);
  const problems = collectPageProblems(page);
  const post = poster(page);
  // The feed: a server on this machine answering an offer for the id in its path.
  const feedServer = createServer((request, response) => {
    const offerId = decodeURIComponent(request.url?.split('/').pop() ?? '');
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify({ offer: { title: `Offer ${offerId} of the week` } }));
  });
  await new Promise<void>((resolve) => feedServer.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = feedServer.address() as AddressInfo;
    const feedName = `Offers ${unique}`;
    await post(`${workspaceApi}/feeds`, {
      name: feedName,
      url: `http://127.0.0.1:${port}/offers/{{ parameters.offer_id | url_encode }}`,
      request_method: 'GET',
      parameters: [{ label: 'Offer ID', name: 'offer_id' }],
      headers: [],
      fields: [{ key: 'title', value: '$.offer.title' }],
    });
    const systems = await (await page.request.get(`${workspaceApi}/email_design_systems`)).json();
    const starter = systems.results.find((system: { name: string }) => system.name === 'Letterset Starter');
    const system = await post<{ id: number }>(`${workspaceApi}/email_design_systems/${starter.id}/clone`, {
      name: `Offers system ${unique}`,
    });
    const components = await (
      await page.request.get(`${workspaceApi}/email_design_systems/${system.id}/components?per=100`)
    ).json();
    const heading = components.results.find((component: { name: string }) => component.name === 'heading');

    await page.goto(`/workspaces/${workspaceId}/design-systems/${system.id}/components/${heading.id}`);
    await chooseOption(page, 'Feed', feedName);
    const text = page.getByTestId('field-definition-text');
    await text.getByRole('button', { name: /^Text Text text/ }).click();
    await text.getByRole('combobox', { name: 'Feed field' }).click();
    await page.getByRole('option', { name: 'title', exact: true }).click();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Heading saved' })).toBeVisible();

    const team = await post<{ id: number }>('/api/v1/teams', {
      name: `Offers ${unique}`,
      workspace_id: workspaceId,
      badge_color: 'orange',
    });
    const project = await post<{ id: number }>(`${workspaceApi}/projects`, {
      name: `Offers ${unique}`,
      team_id: team.id,
    });
    const email = await post<{ id: number }>(`${workspaceApi}/emails`, {
      name: `Offer of the week ${unique}`,
      email_design_system_id: system.id,
      project_id: project.id,
    });
    await page.goto(`/workspaces/${workspaceId}/emails/${email.id}/edit`);
    await page.getByRole('button', { name: 'Add Heading', exact: true }).click();
    await page.getByRole('textbox', { name: 'Offer ID' }).fill('42');
    await page.getByRole('button', { name: 'Fill from feed' }).click();
    await expect(page.getByText('Filled 1 field from the feed.')).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Text', exact: true })).toHaveText('Offer 42 of the week');
    await expectPreviewToShow(page, 'Offer 42 of the week');
    await expectSaved(page);
  } finally {
    feedServer.close();
  }
  expect(problems).toEqual([]);
});
