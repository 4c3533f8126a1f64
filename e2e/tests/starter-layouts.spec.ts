import { expect, type Page, test } from '@playwright/test';
import { adminStorageState } from './support/accounts.ts';
import { collectPageProblems } from './support/page-problems.ts';
import {
  createProjectWithTeam,
  postJson,
  starterDesignSystem,
  workspaceApi,
  workspaceId,
} from './support/workspace-api.ts';

test.use({ storageState: adminStorageState, actionTimeout: 10_000 });

const unique = Date.now().toString(36);
const starterLayoutNames = [
  'Event invitation',
  'Newsletter',
  'Product launch',
  'Promotion',
  'Receipt',
  'Welcome',
];

interface Layout {
  id: number;
  name: string;
}

/** The Letterset Starter's id, its layouts, and a project of a new team to write emails in. */
async function starterAndProject(page: Page, name: string) {
  const { projectId } = await createProjectWithTeam(page, { teamName: name, badgeColor: 'teal' });
  const starter = await starterDesignSystem(page);
  const layouts = (
    await (
      await page.request.get(
        `${workspaceApi}/layouts?email_design_system_id=${starter.id}&sort=name_asc&per=100`,
      )
    ).json()
  ).results as Layout[];
  return { starterId: starter.id, projectId, layouts };
}

test('the new-email dialog offers the starter’s layouts with previews, and one starts the email with its content', async ({
  page,
}) => {
  test.setTimeout(60_000);
  const problems = collectPageProblems(page);
  const { projectId, layouts } = await starterAndProject(page, `Starter layouts ${unique}`);
  expect(layouts.map((layout) => layout.name)).toEqual(expect.arrayContaining(starterLayoutNames));

  await page.goto(`/workspaces/${workspaceId}/projects/${projectId}`);
  await page.getByRole('button', { name: 'New email' }).click();
  const dialog = page.getByRole('dialog', { name: 'New email' });
  await dialog.getByRole('textbox', { name: 'Name' }).fill(`Night walk ${unique}`);
  await dialog.getByRole('combobox', { name: 'Design system', exact: true }).click();
  await page.getByRole('option', { name: 'Letterset Starter', exact: true }).click();
  await dialog.getByRole('combobox', { name: 'Start from layout' }).click();
  // Each starter layout is offered by name with a picture of it.
  for (const name of starterLayoutNames) {
    const option = page.getByRole('option').filter({ hasText: name });
    // Rendered in the browser once the design system has loaded: slow on a busy machine.
    await expect(option.locator(`iframe[title="Preview of ${name}"]`)).toBeVisible({ timeout: 20_000 });
  }
  await page.getByRole('option').filter({ hasText: 'Event invitation' }).click();
  await expect(dialog.locator('iframe[title="Preview of Event invitation"]')).toBeVisible();
  await dialog.getByRole('button', { name: 'Create email' }).click();
  await expect(page).toHaveURL(/\/emails\/\d+\/edit$/);
  const emailId = Number(page.url().match(/emails\/(\d+)\/edit/)?.[1]);

  // The email starts with the layout's sections, subject and preheader, and nothing stands in the way of sending it.
  await expect(page.getByRole('heading', { name: `Night walk ${unique}`, level: 1 })).toBeVisible({
    timeout: 20_000,
  });
  const email = await (await page.request.get(`${workspaceApi}/emails/${emailId}`)).json();
  const layout = await (
    await page.request.get(
      `${workspaceApi}/layouts/${layouts.find((candidate) => candidate.name === 'Event invitation')?.id}`,
    )
  ).json();
  expect(
    email.email_content.component_instances.map(
      (instance: { field_values: unknown }) => instance.field_values,
    ),
  ).toEqual(
    layout.content.component_instances.map((instance: { field_values: unknown }) => instance.field_values),
  );
  expect(email.email_content.subject.branch_content.null_branch['en-US']).toBe(
    "You're invited: Night Sky Walk, Saturday 12 October",
  );
  const checks = await (await page.request.get(`${workspaceApi}/emails/${emailId}/checks`)).json();
  expect(checks.problems).toEqual([]);
  expect(problems).toEqual([]);
});

for (const width of [600, 375]) {
  test(`every starter layout fits ${width} px with every picture loaded`, async ({ page }) => {
    test.setTimeout(60_000);
    const { starterId, projectId, layouts } = await starterAndProject(page, `Layouts at ${width} ${unique}`);
    const starterLayouts = layouts.filter((layout) => starterLayoutNames.includes(layout.name));
    expect(starterLayouts).toHaveLength(starterLayoutNames.length);
    await page.setViewportSize({ width, height: 900 });
    for (const layout of starterLayouts) {
      const email = await postJson<{ id: number }>(page, `${workspaceApi}/emails`, {
        name: `${layout.name} at ${width} ${unique}`,
        email_design_system_id: starterId,
        project_id: projectId,
        layout_id: layout.id,
      });
      const { html } = await postJson<{ html: string }>(
        page,
        `${workspaceApi}/emails/${email.id}/locales/en-US/render`,
        {},
      );
      await page.setContent(html, { waitUntil: 'load' });
      const rendered = await page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        viewportWidth: window.innerWidth,
        images: [...document.images].map((image) => ({
          src: image.currentSrc,
          loaded: image.complete && image.naturalWidth > 0,
          alt: image.alt,
          width: image.getBoundingClientRect().width,
        })),
      }));
      expect(rendered.viewportWidth).toBe(width);
      expect(rendered.scrollWidth, `${layout.name} scrolls sideways at ${width} px`).toBeLessThanOrEqual(
        width,
      );
      expect(rendered.images.length).toBeGreaterThan(0);
      for (const image of rendered.images) {
        expect(image.loaded, `${layout.name}: ${image.src} did not load`).toBe(true);
        expect(image.alt.trim(), `${layout.name}: ${image.src} has no alt text`).not.toBe('');
        expect(image.width, `${layout.name}: ${image.src} is wider than the screen`).toBeLessThanOrEqual(
          width,
        );
      }
    }
  });
}
