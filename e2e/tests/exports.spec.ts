import { readFile } from 'node:fs/promises';
import { expect, type Page, test } from '@playwright/test';
import { strFromU8, unzipSync } from 'fflate';
import { adminStorageState } from './support/accounts.ts';
import { collectPageProblems } from './support/page-problems.ts';
import {
  createProjectWithTeam,
  postJson,
  starterDesignSystem,
  uploadPng,
  workspaceApi,
  workspaceId,
} from './support/workspace-api.ts';

test.use({ storageState: adminStorageState, actionTimeout: 10_000, viewport: { width: 1440, height: 900 } });

const unique = Date.now().toString(36);

/**
 * An email of the Letterset Starter in English and German: a hero showing a library image and a
 * button, its subject and preheader set in both locales.
 */
async function buildEmail(page: Page): Promise<{ id: number; imageId: string }> {
  const { projectId } = await createProjectWithTeam(page, {
    teamName: `Export team ${unique}`,
    projectName: `Export project ${unique}`,
    badgeColor: 'teal',
  });
  const image = await uploadPng(page, {
    name: 'Export hero',
    fileName: 'hero.png',
    colour: [47, 91, 234],
    width: 24,
    height: 12,
  });
  const starter = await starterDesignSystem(page);
  const hero = starter.componentNamed('hero');
  const email = await postJson<{ id: number; email_content: Record<string, unknown>; lock_version: number }>(
    page,
    `${workspaceApi}/emails`,
    {
      name: `Export me ${unique}`,
      email_design_system_id: starter.id,
      project_id: projectId,
      locales: ['en-US', 'de-DE'],
    },
  );
  const values = (headline: string, alt: string) => ({
    headline: { value: headline },
    image_url: { value: image.public_url },
    image_alt: { value: alt },
    button_url: { value: 'https://example.com/spring' },
  });
  const patched = await page.request.patch(`${workspaceApi}/emails/${email.id}`, {
    data: {
      email_content: {
        ...email.email_content,
        subject: { branch_content: { null_branch: { 'en-US': 'Spring sale', 'de-DE': 'Frühlingsangebot' } } },
        preheader: {
          branch_content: { null_branch: { 'en-US': 'Ten days only', 'de-DE': 'Nur zehn Tage' } },
        },
        component_instances: [
          {
            id: crypto.randomUUID(),
            component_id: hero.id,
            field_values: {
              null_branch: {
                'en-US': values('Spring is here', 'Flowers'),
                'de-DE': values('Der Frühling ist da', 'Blumen'),
              },
            },
          },
        ],
      },
    },
  });
  expect(patched.ok(), await patched.text()).toBe(true);
  return { id: email.id, imageId: image.id };
}

/** Starts an export of the chosen type in the open dialog, waits for it, and answers the downloaded file. */
async function exportAndDownload(page: Page, type: 'HTML (zip)' | 'JSON' | 'PDF', downloadLabel: string) {
  const dialog = page.getByRole('dialog', { name: /Export Export me/ });
  await dialog.getByText(type, { exact: true }).click();
  await expect(dialog.getByRole('status').filter({ hasText: 'No problems found.' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Export', exact: true }).click();
  // Live progress by locale, then the file.
  await expect(dialog.getByRole('progressbar', { name: 'Locales exported' })).toBeVisible();
  await expect(dialog.getByText('2 of 2 locales done')).toBeVisible({ timeout: 30_000 });
  const downloading = page.waitForEvent('download');
  await dialog.getByRole('link', { name: downloadLabel }).click();
  const download = await downloading;
  const file = await readFile(await download.path());
  await dialog.getByRole('button', { name: 'Export again' }).click();
  return { file, name: download.suggestedFilename() };
}

test('exports an email as a zip with its images, as JSON and as a PDF, showing progress', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const problems = collectPageProblems(page);
  const email = await buildEmail(page);
  await page.goto(`/workspaces/${workspaceId}/emails/${email.id}/edit`);
  await page.getByRole('button', { name: 'Export', exact: true }).click();

  const zip = await exportAndDownload(page, 'HTML (zip)', 'Download zip');
  expect(zip.name).toMatch(/^export-me-[a-z0-9-]+-export-\d+\.zip$/);
  const files = unzipSync(new Uint8Array(zip.file));
  expect(Object.keys(files).sort()).toEqual([
    `de-DE/images/${email.imageId}.png`,
    'de-DE/index.html',
    'de-DE/plain_text.txt',
    `en-US/images/${email.imageId}.png`,
    'en-US/index.html',
    'en-US/plain_text.txt',
  ]);
  const german = strFromU8(files['de-DE/index.html'] as Uint8Array);
  expect(german).toContain('Der Frühling ist da');
  expect(german).toContain(`src="images/${email.imageId}.png"`);

  const json = await exportAndDownload(page, 'JSON', 'Download JSON');
  const data = JSON.parse(json.file.toString('utf8'));
  expect(
    data.outputs.map((output: { locale: string; subject: string }) => [output.locale, output.subject]),
  ).toEqual([
    ['en-US', 'Spring sale'],
    ['de-DE', 'Frühlingsangebot'],
  ]);

  const pdf = await exportAndDownload(page, 'PDF', 'Download PDF');
  expect(pdf.file.subarray(0, 5).toString()).toBe('%PDF-');
  await page.keyboard.press('Escape');

  // The workspace's history lists all three, newest first, with their files.
  await page.goto(`/workspaces/${workspaceId}/exports`);
  const rows = page.getByRole('row').filter({ hasText: `Export me ${unique}` });
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0)).toContainText('PDF');
  await expect(rows.nth(0).getByRole('link', { name: 'Download PDF' })).toBeVisible();
  await expect(rows.nth(2)).toContainText('HTML (zip)');
  expect(problems).toEqual([]);
});

test('refuses to start an export while a check blocks it, and downloads the HTML on screen', async ({
  page,
}) => {
  const email = await buildEmail(page);
  const broken = await page.request.get(`${workspaceApi}/emails/${email.id}`);
  const body = await broken.json();
  body.email_content.component_instances[0].field_values.null_branch['de-DE'].button_url = {
    value: 'ftp://files',
  };
  const saved = await page.request.patch(`${workspaceApi}/emails/${email.id}`, {
    data: { email_content: body.email_content },
  });
  expect(saved.ok()).toBe(true);

  await page.goto(`/workspaces/${workspaceId}/emails/${email.id}/edit`);
  await page.getByRole('tab', { name: 'Validate' }).click();
  await page.getByRole('button', { name: 'Validate', exact: true }).click();
  await expect(
    page.getByRole('region', { name: 'Pre-send checks' }).or(page.getByLabel('Pre-send checks')),
  ).toContainText('de-DE · The link "ftp://files" is not an http(s) or mailto: link');
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'More actions', exact: true }).click();
  await page.getByRole('menuitem', { name: 'Download HTML' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`export-me-${unique}-en-US.html`);
  const html = (await readFile(await download.path())).toString('utf8');
  expect(html).toContain('Spring is here');
  expect(html).toMatch(/<h1[^>]*style="/);

  await page.getByRole('button', { name: 'Export', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: /Export Export me/ });
  await expect(dialog.getByRole('alert').filter({ hasText: '1 blocking problem' })).toContainText(
    'de-DE · The link "ftp://files" is not an http(s) or mailto: link',
  );
  await expect(dialog.getByRole('button', { name: 'Export', exact: true })).toBeDisabled();
  // Leaving the broken locale out lets the export go.
  await dialog.getByRole('combobox', { name: 'Locales' }).click();
  await page.keyboard.press('Backspace');
  await expect(dialog.getByRole('alert').filter({ hasText: 'blocking' })).toHaveCount(0);
  await expect(dialog.getByRole('button', { name: 'Export', exact: true })).toBeEnabled();
});

// The key the fake Iterable started by playwright.config.ts knows (apps/server/src/test/fakes/serve-fakes.ts).
const iterableKey = 'e2e-iterable-server-key-0001';
const fakeIterableUrl = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 4010) + 7}`;

test('exports a published email to Iterable through a connector, showing progress and where it landed', async ({
  page,
}) => {
  test.setTimeout(60_000);
  const problems = collectPageProblems(page);
  const email = await buildEmail(page);
  const published = await page.request.post(`${workspaceApi}/emails/${email.id}/publish`, {
    data: { force: true },
  });
  expect(published.ok(), await published.text()).toBe(true);
  const connectorName = `Iterable exports ${unique}`;
  await postJson(page, `${workspaceApi}/connectors`, {
    name: connectorName,
    integration_name: 'iterable',
    settings: { api_key: iterableKey, region: 'us' },
  });

  await page.goto(`/workspaces/${workspaceId}/emails/${email.id}/edit`);
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: /Export Export me/ });
  await dialog.getByText('Sending platform', { exact: true }).click();
  await dialog.getByRole('combobox', { name: 'Connector' }).click();
  await page.getByRole('option', { name: `${connectorName} (Iterable)` }).click();
  await dialog.getByRole('textbox', { name: 'Name in Iterable (de-DE)' }).fill(`Frühling ${unique}`);
  await expect(dialog.getByRole('status').filter({ hasText: 'No problems found.' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Export', exact: true }).click();
  await expect(dialog.getByRole('progressbar', { name: 'Locales exported' })).toBeVisible();
  await expect(dialog.getByText('2 of 2 locales done')).toBeVisible({ timeout: 30_000 });
  await expect(dialog.getByText('Completed')).toBeVisible();
  await expect(dialog.getByRole('link', { name: 'Open in Iterable' })).toHaveAttribute('href', /^https:\/\//);

  // Iterable holds a template per locale, named as chosen.
  const listed = await page.request.get(`${fakeIterableUrl}/api/templates?pageSize=1000`, {
    headers: { 'Api-Key': iterableKey },
  });
  const names = ((await listed.json()).templates as { name: string }[]).map((template) => template.name);
  expect(names).toContain(`Frühling ${unique}`);
  expect(names).toContain(`Export me ${unique} (en-US)`);
  expect(problems).toEqual([]);
});
