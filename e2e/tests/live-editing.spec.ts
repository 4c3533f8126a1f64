import { expect, type Page, test } from '@playwright/test';
import { adminStorageState } from './support/accounts.ts';
import { invitedPerson } from './support/invited-person.ts';
import { collectPageProblems } from './support/page-problems.ts';
import {
  createProjectWithTeam,
  postJson,
  starterDesignSystem,
  workspaceApi,
  workspaceId,
} from './support/workspace-api.ts';

test.use({ storageState: adminStorageState, actionTimeout: 10_000, viewport: { width: 1440, height: 900 } });

const unique = Date.now().toString(36);

/** The preview frame runs no scripts: the test reads it from the page, as the editor does. */
function previewText(page: Page): Promise<string> {
  return page.evaluate(
    () =>
      document.querySelector<HTMLIFrameElement>('iframe[title="Email preview"]')?.contentDocument?.body
        .innerText ?? '',
  );
}

async function expectPreviewToShow(page: Page, text: string) {
  await expect.poll(() => previewText(page)).toContain(text);
}

async function expectSaved(page: Page) {
  await expect(page.getByRole('status', { name: 'Save state' })).toHaveText('Saved', { timeout: 10_000 });
}

test('two people on one email see each other’s saves and selection without reloading', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const problems = collectPageProblems(page);
  const { teamId, projectId } = await createProjectWithTeam(page, {
    teamName: `Live ${unique}`,
    badgeColor: 'purple',
  });
  const starter = await starterDesignSystem(page);
  const email = await postJson<{ id: number }>(page, `${workspaceApi}/emails`, {
    name: `Live ${unique}`,
    email_design_system_id: starter.id,
    project_id: projectId,
  });
  const editUrl = `/workspaces/${workspaceId}/emails/${email.id}/edit`;
  const erin = await invitedPerson(page, browser, {
    firstName: 'Erin',
    lastName: `Editor${unique}`,
    email: `erin-${unique}@northwind.test`,
    role: 'Editor',
    teamId,
    password: 'editor password 42',
  });
  const erinProblems = collectPageProblems(erin.page);

  // Ada starts the email; Erin opens it once it is saved.
  await page.goto(editUrl);
  await page.getByRole('button', { name: 'Add Hero', exact: true }).click();
  await page.getByRole('button', { name: 'Select Hero' }).click();
  await page.getByRole('textbox', { name: 'Headline', exact: true }).fill('Opening line');
  await expectSaved(page);
  await erin.page.goto(editUrl);
  await expectPreviewToShow(erin.page, 'Opening line');

  // Each sees the other in the toolbar, with what they have selected.
  const adaAvatars = page.getByRole('list', { name: 'Also editing this email' });
  const erinAvatars = erin.page.getByRole('list', { name: 'Also editing this email' });
  await expect(adaAvatars.getByRole('listitem', { name: new RegExp(erin.name) })).toBeVisible();
  await expect(erinAvatars.getByRole('listitem', { name: 'Ada Admin, on Hero' })).toBeVisible();
  await erin.page.getByRole('button', { name: 'Select Hero' }).click();
  await expect(adaAvatars.getByRole('listitem', { name: `${erin.name}, on Hero` })).toBeVisible();
  // ...beside the component in the outline, and around it on the preview.
  await expect(page.getByRole('img', { name: `${erin.name} has this selected` })).toBeVisible();
  await expect(page.locator(`[data-presence-instance]`)).toHaveCount(1);
  await expect(erin.page.locator(`[data-presence-instance]`)).toHaveCount(1);

  // Ada's edit reaches Erin's editor without a reload, and Erin's reaches Ada's. How long it took
  // (from Ada's "Saved" to Erin's preview) is reported, not asserted.
  await page.getByRole('textbox', { name: 'Headline', exact: true }).fill('Written by Ada');
  await expectSaved(page);
  const savedAt = Date.now();
  await erin.page.waitForFunction(
    (text) =>
      document
        .querySelector<HTMLIFrameElement>('iframe[title="Email preview"]')
        ?.contentDocument?.body.innerText.includes(text) ?? false,
    'Written by Ada',
    { polling: 'raf' },
  );
  test.info().annotations.push({
    type: 'save reached the other editor after (ms)',
    description: String(Date.now() - savedAt),
  });
  await expectPreviewToShow(erin.page, 'Written by Ada');
  await expect(erin.page.getByRole('textbox', { name: 'Headline', exact: true })).toHaveText(
    'Written by Ada',
  );
  await expectSaved(erin.page);
  await erin.page.getByRole('textbox', { name: 'Headline', exact: true }).fill('Then Erin');
  await expectSaved(erin.page);
  await expectPreviewToShow(page, 'Then Erin');
  await expectSaved(page);

  // A reload of Ada's tab after Erin saved offers nothing: Erin's edits are not Ada's.
  await page.reload();
  await expectPreviewToShow(page, 'Then Erin');
  await expectSaved(page);
  await expect(page.getByRole('dialog')).toHaveCount(0);

  // Closing Erin's tab takes her off Ada's toolbar at once.
  await erin.page.close();
  await expect(adaAvatars).toHaveCount(0);
  await erin.context.close();
  expect(problems).toEqual([]);
  expect(erinProblems).toEqual([]);
});
