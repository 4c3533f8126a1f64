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
let emailsMade = 0;

/**
 * A Letterset Starter email showing every kind of picture Letterset stores: the starter's logo
 * (header), a library image (hero), the starter's placeholder picture (image, as a new email
 * has it) and the starter's social icons.
 */
async function emailWithPictures(page: Page): Promise<{ id: number; imageId: string; name: string }> {
  emailsMade += 1;
  const tag = `${unique}-${emailsMade}`;
  const { projectId } = await createProjectWithTeam(page, {
    teamName: `Pictures team ${tag}`,
    projectName: `Pictures project ${tag}`,
    badgeColor: 'purple',
  });
  const image = await uploadPng(page, {
    name: 'Zip hero',
    fileName: 'hero.png',
    colour: [220, 90, 40],
    width: 24,
    height: 12,
  });
  const starter = await starterDesignSystem(page);
  const component = starter.componentNamed;
  const starterPicture = String(
    component('image').field_definitions.find((field) => field.liquid_variable === 'image_url')
      ?.default_value,
  );
  expect(starterPicture).toMatch(/\/files\/starter-images\/image\.png$/);
  const name = `Zip pictures ${tag}`;
  const email = await postJson<{ id: number; email_content: Record<string, unknown> }>(
    page,
    `${workspaceApi}/emails`,
    {
      name,
      email_design_system_id: starter.id,
      project_id: projectId,
      locales: ['en-US', 'de-DE'],
    },
  );
  const bothLocales = (values: Record<string, string>) => {
    const fields = Object.fromEntries(Object.entries(values).map(([key, value]) => [key, { value }]));
    return { null_branch: { 'en-US': fields, 'de-DE': fields } };
  };
  const patched = await page.request.patch(`${workspaceApi}/emails/${email.id}`, {
    data: {
      email_content: {
        ...email.email_content,
        subject: { branch_content: { null_branch: { 'en-US': 'Pictures', 'de-DE': 'Bilder' } } },
        preheader: { branch_content: { null_branch: { 'en-US': 'All packed', 'de-DE': 'Alles dabei' } } },
        component_instances: [
          { id: crypto.randomUUID(), component_id: component('header').id, field_values: {} },
          {
            id: crypto.randomUUID(),
            component_id: component('hero').id,
            field_values: bothLocales({
              headline: 'Packed',
              image_url: image.public_url,
              image_alt: 'Orange',
              button_url: 'https://example.com/packed',
            }),
          },
          {
            id: crypto.randomUUID(),
            component_id: component('image').id,
            field_values: bothLocales({ image_url: starterPicture, image_alt: 'Placeholder' }),
          },
          {
            id: crypto.randomUUID(),
            component_id: component('social_links').id,
            field_values: bothLocales({ facebook_url: 'https://facebook.com/northwind' }),
          },
        ],
      },
    },
  });
  expect(patched.ok(), await patched.text()).toBe(true);
  return { id: email.id, imageId: image.id, name };
}

/** Every picture address an HTML document shows: src, srcset, background, and CSS url(). */
function picturesIn(html: string): string[] {
  const addresses = [
    ...[...html.matchAll(/\s(?:src|background)=["']([^"']+)["']/g)].map((match) => match[1] as string),
    ...[...html.matchAll(/\ssrcset=["']([^"']+)["']/g)].flatMap((match) =>
      (match[1] as string).split(',').map((candidate) => candidate.trim().split(/\s+/)[0] as string),
    ),
    ...[...html.matchAll(/url\((?:&quot;|['"])?([^)'"&]+)/g)].map((match) => match[1] as string),
  ];
  return [...new Set(addresses)];
}

test('an HTML zip with images "In the zip" holds every picture its HTML shows, starter and library alike', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(60_000);
  const problems = collectPageProblems(page);
  const email = await emailWithPictures(page);
  await page.goto(`/workspaces/${workspaceId}/emails/${email.id}/edit`);
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: new RegExp(`Export ${email.name}`) });
  await dialog.getByText('HTML (zip)', { exact: true }).click();
  await dialog.getByText('In the zip', { exact: true }).click();
  await expect(
    dialog.getByText(/Every image Letterset stores \(library and starter images\) goes in the zip/),
  ).toBeVisible();
  // Warnings may stand (they do not stop an export); nothing blocks it.
  await expect(dialog.getByText('Checking every chosen locale…')).toBeHidden({ timeout: 30_000 });
  await expect(dialog.getByRole('button', { name: 'Export', exact: true })).toBeEnabled();
  await dialog.getByRole('button', { name: 'Export', exact: true }).click();
  await expect(dialog.getByText('2 of 2 locales done')).toBeVisible({ timeout: 30_000 });
  const downloading = page.waitForEvent('download');
  await dialog.getByRole('link', { name: 'Download zip' }).click();
  const files = unzipSync(new Uint8Array(await readFile(await (await downloading).path())));

  for (const locale of ['en-US', 'de-DE']) {
    const html = strFromU8(files[`${locale}/index.html`] as Uint8Array);
    // Nothing is loaded from this server: the zip alone shows the email.
    expect(html).not.toContain(baseURL as string);
    const pictures = picturesIn(html);
    expect(pictures.sort()).toEqual(
      [
        `images/${email.imageId}.png`,
        'images/starter-image.png',
        'images/starter-logo.png',
        'images/starter-social-dark-f.png',
        'images/starter-social-dark-ig.png',
        'images/starter-social-dark-in.png',
      ].sort(),
    );
    for (const picture of pictures) {
      const file = files[`${locale}/${picture}`];
      expect(file, `${locale}/${picture}`).toBeDefined();
      // A real PNG, not an empty placeholder.
      expect(
        Buffer.from(file as Uint8Array)
          .subarray(1, 4)
          .toString(),
      ).toBe('PNG');
    }
    // Each picture once: the folder holds exactly what the HTML shows.
    expect(
      Object.keys(files)
        .filter((name) => name.startsWith(`${locale}/images/`))
        .sort(),
    ).toEqual(pictures.map((picture) => `${locale}/${picture}`).sort());
  }
  expect(problems).toEqual([]);
});

// The key the fake Iterable started by playwright.config.ts knows (apps/server/src/test/fakes/serve-fakes.ts).
const iterableKey = 'e2e-iterable-server-key-0001';

test('the export history names the sending platform and the template each locale went to', async ({
  page,
}) => {
  test.setTimeout(60_000);
  const problems = collectPageProblems(page);
  const email = await emailWithPictures(page);
  const published = await page.request.post(`${workspaceApi}/emails/${email.id}/publish`, {
    data: { force: true },
  });
  expect(published.ok(), await published.text()).toBe(true);
  const connector = await postJson<{ id: number }>(page, `${workspaceApi}/connectors`, {
    name: `Iterable history ${unique}`,
    integration_name: 'iterable',
    settings: { api_key: iterableKey, region: 'us' },
  });
  const started = await postJson<{ id: number }>(page, `${workspaceApi}/exports`, {
    email_id: email.id,
    export_type: 'connector',
    connector_id: connector.id,
    options: {
      locales: ['en-US', 'de-DE'],
      per_locale_options: { 'de-DE': { resource_name: `Bilder ${unique}` } },
    },
  });
  await expect
    .poll(
      async () => (await (await page.request.get(`${workspaceApi}/exports/${started.id}`)).json()).status,
      {
        timeout: 30_000,
      },
    )
    .toBe('completed');
  const finished = await (await page.request.get(`${workspaceApi}/exports/${started.id}`)).json();

  await page.goto(`/workspaces/${workspaceId}/exports`);
  const row = page.getByRole('row').filter({ hasText: email.name });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Iterable');
  const made = row.getByLabel('What the export made in Iterable');
  await expect(made).toContainText(
    `en-US: created template ${email.name} (en-US) (id ${finished.delivered_resources['en-US'].external_id})`,
  );
  await expect(made).toContainText(
    `de-DE: created template Bilder ${unique} (id ${finished.delivered_resources['de-DE'].external_id})`,
  );
  await expect(made.getByRole('link', { name: `Bilder ${unique}` })).toHaveAttribute(
    'href',
    `https://app.iterable.com/templates/editor?templateId=${finished.delivered_resources['de-DE'].external_id}`,
  );
  expect(problems).toEqual([]);
});
