import { readFile } from 'node:fs/promises';
import { expect, type Page, test } from '@playwright/test';
import { adminStorageState } from './support/accounts.ts';
import { resetFakeModel } from './support/fake-model.ts';
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

/** An email of the Letterset Starter in English and French: a heading translated, a button not. */
async function buildEmail(page: Page): Promise<{ id: number; headingId: string; buttonId: string }> {
  const { projectId } = await createProjectWithTeam(page, {
    teamName: `Localization team ${unique}`,
    projectName: `Localization project ${unique}`,
    badgeColor: 'teal',
  });
  const starter = await starterDesignSystem(page);
  const email = await postJson<{ id: number; email_content: Record<string, unknown> }>(
    page,
    `${workspaceApi}/emails`,
    {
      name: `Translate me ${unique}`,
      email_design_system_id: starter.id,
      project_id: projectId,
      locales: ['en-US', 'fr-FR'],
    },
  );
  const headingId = crypto.randomUUID();
  const buttonId = crypto.randomUUID();
  const patched = await page.request.patch(`${workspaceApi}/emails/${email.id}`, {
    data: {
      email_content: {
        ...email.email_content,
        subject: {
          branch_content: { null_branch: { 'en-US': 'Spring sale', 'fr-FR': 'Soldes de printemps' } },
        },
        preheader: { branch_content: { null_branch: { 'en-US': 'Ten days only', 'fr-FR': 'Dix jours' } } },
        component_instances: [
          {
            id: headingId,
            component_id: starter.componentNamed('heading').id,
            field_values: {
              null_branch: {
                'en-US': { text: { value: 'Spring is here' } },
                'fr-FR': { text: { value: 'Le printemps est là' } },
              },
            },
          },
          {
            id: buttonId,
            component_id: starter.componentNamed('button').id,
            field_values: {
              null_branch: {
                'en-US': { text: { value: 'Shop now' }, url: { value: 'https://example.com/' } },
              },
            },
          },
        ],
      },
    },
  });
  expect(patched.ok(), await patched.text()).toBe(true);
  return { id: email.id, headingId, buttonId };
}

test('downloads the translations as CSV, imports them back, and shows what changed', async ({ page }) => {
  const problems = collectPageProblems(page);
  const email = await buildEmail(page);
  await page.goto(`/workspaces/${workspaceId}/emails/${email.id}/edit`);
  await page.getByRole('tab', { name: 'Localization' }).click();
  const panel = page.getByRole('tabpanel', { name: 'Localization' });

  // Subject, preheader, heading and button need French: three of four have it.
  await expect(panel.getByText('3 of 4 translated')).toBeVisible();

  const downloading = page.waitForEvent('download');
  await panel.getByRole('link', { name: 'Download CSV' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`Translate me ${unique}-translations.csv`);
  const csv = (await readFile(await download.path())).toString('utf8');
  expect(csv.startsWith('\uFEFFkey,component,field,en-US,fr-FR\r\n')).toBe(true);
  const buttonRow = `${email.buttonId}.text.null_branch,Button,Text,Shop now,`;
  expect(csv).toContain(`${buttonRow}\r\n`);

  // The translator fills in the button; the import writes it as one version and reopens the editor.
  const translated = csv.replace(`${buttonRow}\r\n`, `${buttonRow}Acheter\r\n`);
  await panel.locator('input[type=file]').setInputFiles({
    name: 'translations.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(translated, 'utf8'),
  });
  await panel.getByRole('button', { name: 'Import', exact: true }).click();
  const summary = page.getByRole('status').filter({ hasText: 'Imported translations.csv' });
  await expect(summary).toContainText('1 text changed, saved as one new version.');
  await expect(summary).toContainText('fr-FR: 1 changed, 3 unchanged, 2 empty left as they were');
  await expect(page.getByText('4 of 4 translated')).toBeVisible();

  // A refused file lists its problems by row and column, and changes nothing.
  const tooLong = csv.replace(`${buttonRow}\r\n`, `${buttonRow}${'x'.repeat(31)}\r\n`);
  await panel.locator('input[type=file]').setInputFiles({
    name: 'too-long.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(tooLong, 'utf8'),
  });
  await panel.getByRole('button', { name: 'Import', exact: true }).click();
  const refusal = page.getByRole('alert').filter({ hasText: 'nothing was changed' });
  await expect(refusal).toContainText('row 7, column fr-FR: must be at most 30 characters');
  const saved = await (await page.request.get(`${workspaceApi}/emails/${email.id}`)).json();
  const button = saved.email_content.component_instances[1];
  expect(button.field_values.null_branch['fr-FR'].text.value).toBe('Acheter');
  expect(problems).toEqual([]);
});

test('translates an email with AI into an existing and a new locale and shows them filled in', async ({
  page,
}) => {
  const problems = collectPageProblems(page);
  const email = await buildEmail(page);
  await resetFakeModel();
  await page.goto(`/workspaces/${workspaceId}/emails/${email.id}/edit`);
  await page.getByRole('tab', { name: 'Localization' }).click();
  const panel = page.getByRole('tabpanel', { name: 'Localization' });
  await expect(panel.getByText('3 of 4 translated')).toBeVisible();

  await panel.getByRole('button', { name: 'Translate with AI' }).click();
  const dialog = page.getByRole('dialog', { name: 'Translate with AI' });
  await dialog.getByRole('combobox', { name: 'Translate into' }).fill('de-DE');
  await page.getByRole('option', { name: /^de-DE · German/ }).click();
  // Clicking the dialog's text closes the locale list that covers the buttons.
  await dialog.getByText('Translates every text').click();
  await dialog.getByRole('button', { name: 'Translate', exact: true }).click();

  // The fake model answers each locale's texts; each locale's job ends done, and the editor
  // reopens on the email with both locales filled in.
  const progress = page.getByRole('list', { name: 'Translation progress' });
  await expect(progress.getByText('Done')).toHaveCount(2, { timeout: 20_000 });
  await expect(
    page.getByRole('tabpanel', { name: 'Localization' }).getByText('4 of 4 translated'),
  ).toHaveCount(2, {
    timeout: 20_000,
  });
  const saved = await (await page.request.get(`${workspaceApi}/emails/${email.id}`)).json();
  expect(saved.locales).toEqual(['en-US', 'fr-FR', 'de-DE']);
  const button = saved.email_content.component_instances[1];
  expect(button.field_values.null_branch['de-DE'].text.value).toEqual(expect.any(String));
  expect(button.field_values.null_branch['en-US'].text.value).toBe('Shop now');
  const translations = await (
    await page.request.get(`${workspaceApi}/emails/${email.id}/email_translations`)
  ).json();
  expect(translations.results[0]).toMatchObject({ status: 'completed', target_locales: ['fr-FR', 'de-DE'] });
  expect(problems).toEqual([]);
});
