import { readFile } from 'node:fs/promises';
import { expect, type Page, test } from '@playwright/test';
import { adminStorageState } from './support/accounts.ts';
import { collectPageProblems } from './support/page-problems.ts';
import { postJson, starterDesignSystem, workspaceApi, workspaceId } from './support/workspace-api.ts';

test.use({ storageState: adminStorageState });

// A 1×1 GIF: the browser is kept off the network, so the image must not need it.
const heroImage = 'data:image/gif;base64,R0lGODlhAQABAAAAACw=';

/** Closes the notifications: the pointer resting on one keeps it open, and tests wait for them to go. */
async function dismissNotifications(page: Page) {
  const closeButtons = page.locator('.mantine-Notification-root').getByRole('button');
  // A closed notification re-indexes the rest, and one may close by itself meanwhile: always take
  // the first, and count again after each attempt.
  while ((await closeButtons.count()) > 0) {
    await closeButtons
      .first()
      .click({ timeout: 2_000 })
      .catch(() => undefined);
  }
}

/** Replaces the CodeMirror template; typing would fight the editor's auto-closing of HTML tags. */
async function setTemplate(page: Page, template: string) {
  const editor = page.getByRole('textbox', { name: 'Template' });
  await editor.fill(template);
}

test('building a component: fields, live preview, save, and the API refusing a broken template', async ({
  page,
}) => {
  const problems = collectPageProblems(page);
  const systemName = `Newsletter ${Date.now()}`;

  await page.goto('/');
  await page.getByRole('link', { name: 'Design systems' }).first().click();
  await expect(page.getByRole('heading', { name: 'Design systems' })).toBeVisible();

  await page.getByRole('button', { name: 'New design system' }).click();
  await page.getByLabel('Name').fill(systemName);
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByRole('heading', { name: systemName })).toBeVisible();

  await page.getByRole('button', { name: 'New component' }).click();
  await page.getByLabel('Label').fill('Hero banner');
  await expect(page.getByLabel('Name')).toHaveValue('hero_banner');
  await page.getByLabel(/This is the container/).uncheck();
  await page.getByRole('button', { name: 'Create and open' }).click();
  await expect(page.getByRole('heading', { name: 'Hero banner' })).toBeVisible();

  await page.getByRole('button', { name: 'Add field' }).click();
  await page.getByRole('menuitem', { name: 'Text', exact: true }).click();
  const text = page.getByTestId('field-definition-text_1');
  await text.getByLabel('Liquid variable').fill('headline');
  const headline = page.getByTestId('field-definition-headline');
  await headline.getByLabel('Default value').fill('Hello readers');

  await page.getByRole('button', { name: 'Add field' }).click();
  await page.getByRole('menuitem', { name: 'Image', exact: true }).click();
  const image = page.getByTestId('field-definition-image_1');
  await image.getByLabel('Liquid variable').fill('photo');
  await page.getByTestId('field-definition-photo').getByLabel('Default value').fill(heroImage);

  await setTemplate(page, '<h1>{{ headline }}</h1>\n<img src="{{ photo }}" alt="Hero">');
  // The preview iframe is sandboxed without scripts, so its document is read from srcdoc rather
  // than by running Playwright's scripts inside it.
  const preview = page.getByTitle('Component preview');
  await expect(preview).toHaveAttribute('srcdoc', /<h1>Hello readers<\/h1>/);
  await expect.poll(() => preview.getAttribute('srcdoc')).toContain(`<img src="${heroImage}" alt="Hero">`);

  // The preview follows the defaults and the template as they change.
  await headline.getByRole('button', { name: /^Text 1 Text headline/ }).click();
  await headline.getByLabel('Default value').fill('Welcome back');
  await expect(preview).toHaveAttribute('srcdoc', /<h1>Welcome back<\/h1>/);
  await setTemplate(page, '<h2>{{ headline }}</h2>\n<img src="{{ photo }}" alt="Hero">');
  await expect(preview).toHaveAttribute('srcdoc', /<h2>Welcome back<\/h2>/);

  await expect(page.getByTestId('unsaved-changes')).toBeVisible();
  await page.getByRole('button', { name: 'Save' }).click();
  const saved = page.getByRole('alert').filter({ hasText: 'Hero banner saved' });
  await expect(saved).toBeVisible();
  await expect(page.getByTestId('unsaved-changes')).toHaveCount(0);
  await dismissNotifications(page);
  await expect(saved).toBeHidden();

  await setTemplate(page, '{% if headline %}\n<h2>{{ headline }}</h2>');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('template-errors')).toContainText(/not closed|line 1/i);
  await expect(page.getByTestId('unsaved-changes')).toBeVisible();

  expect(problems).toEqual([]);
});

test('design tokens are checked before saving, brand profiles and layouts are added, and the system exports and imports as JSON', async ({
  page,
}) => {
  // A design system's whole life in one walk (tokens, profiles, a container, a layout in its editor,
  // export, import, replace): about 30 s on a 2-core machine, at the edge of the default timeout.
  test.slow();
  const problems = collectPageProblems(page);
  const systemName = `Brand kit ${Date.now()}`;
  await page.goto('/');
  await page.getByRole('link', { name: 'Design systems' }).first().click();
  await page.getByRole('button', { name: 'New design system' }).click();
  await page.getByLabel('Name').fill(systemName);
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByRole('heading', { name: systemName })).toBeVisible();

  await page.getByRole('tab', { name: 'Tokens and styles' }).click();
  await expect(page.getByText(/No design tokens yet/)).toBeVisible();
  await page.getByRole('tab', { name: 'Advanced (JSON)' }).click();
  const tokens = page.getByLabel('Design tokens (JSON)');
  await tokens.fill('{ "colors": { "primary": ');
  await page.getByRole('button', { name: 'Save tokens and styles' }).click();
  await expect(page.getByText(/Design tokens is not valid JSON/)).toBeVisible();
  await tokens.fill('{ "colors": { "primary": "#1890ff" } }');
  await page.getByRole('button', { name: 'Add custom style' }).click();
  await page.getByLabel('Label (in the toolbar)').fill('Highlight');
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Not A Name');
  await page.getByLabel('CSS').fill('color: #0066CC;');
  await page.getByRole('button', { name: 'Save tokens and styles' }).click();
  // The API refuses the style name; its message lands on that input.
  await expect(page.getByRole('textbox', { name: 'Name', exact: true })).toHaveAttribute(
    'aria-invalid',
    'true',
  );
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill('highlight');
  const saveTokens = page.getByRole('button', { name: 'Save tokens and styles' });
  await saveTokens.click();
  await expect(page.getByText('Tokens and custom styles saved')).toBeVisible();
  // Saved tokens become fields typed by their values; a change there is a change to the JSON.
  await page.getByRole('tab', { name: 'Tokens', exact: true }).click();
  const primary = page.getByRole('textbox', { name: 'Primary' });
  await expect(primary).toHaveValue('#1890ff');
  await primary.fill('#0b7285');
  await page.getByRole('tab', { name: 'Advanced (JSON)' }).click();
  await expect(tokens).toHaveValue(/"primary": "#0b7285"/);
  await saveTokens.click();
  await expect(saveTokens).toBeDisabled();

  await page.getByRole('tab', { name: 'Brand profiles' }).click();
  await page.getByRole('button', { name: 'New brand profile' }).click();
  const dialog = page.getByRole('dialog', { name: 'New brand profile' });
  await dialog.getByRole('textbox', { name: 'Name' }).fill('Spring sale');
  // The design system's tokens are the profile's fields; the JSON tab holds the same overrides.
  await dialog.getByRole('textbox', { name: 'Primary' }).fill('#D6336C');
  await dialog.getByRole('tab', { name: 'Advanced (JSON)' }).click();
  await expect(dialog.getByLabel('Design token overrides (JSON)')).toHaveValue(/"primary": "#D6336C"/);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('cell', { name: 'Spring sale', exact: true })).toBeVisible();

  await page.getByRole('tab', { name: 'Layouts' }).click();
  await expect(page.getByText('Layouts need the design system’s container component first.')).toBeVisible();

  // A system exports once it has its container.
  await dismissNotifications(page);
  await page.getByRole('button', { name: 'Export JSON' }).click();
  await expect(page.getByText(/no container component yet/)).toBeVisible();
  await page.getByRole('tab', { name: 'Components' }).click();
  await page.getByRole('button', { name: 'New component' }).click();
  await page.getByLabel('Label').fill('Wrapper');
  await page.getByRole('button', { name: 'Create and open' }).click();
  await expect(page.getByRole('heading', { name: /Wrapper/ })).toBeVisible();
  await page.getByLabel('Breadcrumbs').getByRole('link', { name: systemName }).click();

  // With its container, the system can hold layouts.
  await page.getByRole('tab', { name: 'Layouts' }).click();
  await page.getByRole('button', { name: 'New layout' }).click();
  await page
    .getByRole('dialog', { name: 'New layout' })
    .getByRole('textbox', { name: 'Name' })
    .fill('Welcome series');
  await page
    .getByRole('dialog', { name: 'New layout' })
    .getByRole('button', { name: 'Create and open' })
    .click();
  // The new layout opens in the editor; the way back lands on the Layouts tab, which lists it.
  await expect(page.getByRole('heading', { name: 'Welcome series' })).toBeVisible();
  await page.getByRole('link', { name: 'Back to the layouts' }).click();
  await expect(page.getByRole('cell', { name: 'Welcome series', exact: true })).toBeVisible();

  const download = page.waitForEvent('download');
  await dismissNotifications(page);
  await page.getByRole('button', { name: 'Export JSON' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^brand-kit-\d+\.json$/);
  const exported = JSON.parse(await readFile(await file.path(), 'utf8'));
  expect(exported.email_design_system.container_component.name).toBe('wrapper');

  // The exported file imports as a new design system, under another name.
  exported.email_design_system.name = `${systemName} imported`;
  await page.getByLabel('Breadcrumbs').getByRole('link', { name: 'Design systems' }).click();
  await page.getByRole('button', { name: 'Import JSON' }).click();
  const importDialog = page.getByRole('dialog', { name: 'Import a design system' });
  await importDialog.locator('input[type="file"]').setInputFiles({
    name: 'brand-kit.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(exported)),
  });
  await importDialog.getByRole('button', { name: 'Import' }).click();
  await expect(page.getByRole('heading', { name: `${systemName} imported` })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Wrapper' })).toBeVisible();

  // Replacing a system from a file takes the file's name, description and components.
  exported.email_design_system.name = `${systemName} synced`;
  exported.email_design_system.description = 'Kept in step with the brand kit';
  await dismissNotifications(page);
  await page.getByRole('button', { name: 'Replace from JSON' }).click();
  const replaceDialog = page.getByRole('dialog', { name: /^Replace .* from JSON$/ });
  await replaceDialog.locator('input[type="file"]').setInputFiles({
    name: 'brand-kit.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(exported)),
  });
  await replaceDialog.getByRole('button', { name: 'Replace' }).click();
  await expect(replaceDialog).toBeHidden();
  await expect(page.getByRole('heading', { name: `${systemName} synced`, exact: true })).toBeVisible();
  await expect(page.getByText('Kept in step with the brand kit')).toBeVisible();

  expect(problems).toEqual([]);
});

test('a brand profile’s primary colour, set in its Tokens field, paints the starter’s buttons', async ({
  page,
}) => {
  const problems = collectPageProblems(page);
  const starter = await starterDesignSystem(page);
  const brandName = `Berry ${Date.now()}`;
  await page.goto(`/workspaces/${workspaceId}/design-systems/${starter.id}`);
  await page.getByRole('tab', { name: 'Brand profiles' }).click();
  await page.getByRole('button', { name: 'New brand profile' }).click();
  const dialog = page.getByRole('dialog', { name: 'New brand profile' });
  await dialog.getByRole('textbox', { name: 'Name' }).fill(brandName);
  // The preview beside the form shows the starter's components with the brand as it is typed.
  const previewButton = dialog
    .frameLocator('iframe[title="Brand preview"]')
    .locator('a[style*="display: inline-block"]')
    .first();
  await expect(previewButton).toHaveCSS('background-color', 'rgb(47, 91, 234)');
  await dialog.getByRole('textbox', { name: 'Primary', exact: true }).fill('#d6336c');
  // White button text on the new colour is measured as the brand types it.
  await expect(dialog.getByText(/Contrast \d+\.\d\d:1 against Primary/)).toBeVisible();
  await expect(previewButton).toHaveCSS('background-color', 'rgb(214, 51, 108)');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('cell', { name: brandName, exact: true })).toBeVisible();

  const profiles = await (
    await page.request.get(`${workspaceApi}/email_design_systems/${starter.id}/brand_profiles?per=100`)
  ).json();
  const brand = (profiles.results as { id: number; name: string }[]).find(
    (profile) => profile.name === brandName,
  );
  expect(brand).toBeDefined();
  const render = (brandProfileId: number | null) =>
    postJson<{ html: string }>(page, `${workspaceApi}/renders`, {
      email_design_system_id: starter.id,
      ...(brandProfileId === null ? {} : { brand_profile_id: brandProfileId }),
      content: {
        subject: 'Berries',
        preheader: 'In season',
        container_component_instance: { component_id: starter.componentNamed('container').id },
        component_instances: [
          { component_id: starter.componentNamed('hero').id },
          {
            component_id: starter.componentNamed('button').id,
            field_values: { text: 'Shop', url: 'https://example.com' },
          },
        ],
      },
    });
  const buttonColours = (html: string) =>
    [...html.matchAll(/<a [^>]*style="display: inline-block; background-color: ([^;]+);/g)].map(
      ([, colour]) => colour,
    );
  expect(buttonColours((await render(null)).html)).toEqual(['#2f5bea', '#2f5bea']);
  expect(buttonColours((await render(brand?.id ?? 0)).html)).toEqual(['#d6336c', '#d6336c']);
  expect(problems).toEqual([]);
});
