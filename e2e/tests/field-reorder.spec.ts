import { expect, type Page, test } from '@playwright/test';
import { adminStorageState } from './support/accounts.ts';
import { collectPageProblems } from './support/page-problems.ts';
import { postJson, starterDesignSystem, workspaceApi, workspaceId } from './support/workspace-api.ts';

// Tall enough that an open field and the closed ones below it are all on screen.
test.use({ storageState: adminStorageState, actionTimeout: 10_000, viewport: { width: 1440, height: 1400 } });

/** The builder's fields, by Liquid variable, in the order it shows them. */
function fieldOrder(page: Page): Promise<string[]> {
  return page
    .locator('[data-testid^="field-definition-"]')
    .evaluateAll((elements) =>
      elements.map((element) => element.getAttribute('data-testid')?.replace('field-definition-', '') ?? ''),
    );
}

test('a field is reordered in the component builder by keyboard and by mouse, even while it is open', async ({
  page,
}) => {
  const problems = collectPageProblems(page);
  const starter = await starterDesignSystem(page);
  const system = await postJson<{ id: number }>(
    page,
    `${workspaceApi}/email_design_systems/${starter.id}/clone`,
    {
      name: `Field order ${Date.now().toString(36)}`,
    },
  );
  const listed = await (
    await page.request.get(`${workspaceApi}/email_design_systems/${system.id}/components?per=100`)
  ).json();
  const button = listed.results.find((component: { name: string }) => component.name === 'button');
  await page.goto(`/workspaces/${workspaceId}/design-systems/${system.id}/components/${button.id}`);
  await expect.poll(() => fieldOrder(page)).toEqual(['text', 'url', 'style', 'align']);

  // An open field is far taller than the closed ones: it still moves down one place per arrow key.
  await page
    .getByTestId('field-definition-text')
    .getByRole('button', { name: /^Text Text text/ })
    .click();
  await expect(page.getByTestId('field-definition-text').getByLabel('Default value')).toBeVisible();
  const textHandle = page.getByRole('button', { name: 'Move field Text' });
  await textHandle.focus();
  await page.keyboard.press('Space');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Space');
  await expect.poll(() => fieldOrder(page)).toEqual(['url', 'text', 'style', 'align']);

  // Dragged by its handle with the mouse onto the last field's handle, it takes that place.
  const from = await textHandle.boundingBox();
  const to = await page.getByRole('button', { name: 'Move field Alignment' }).boundingBox();
  if (!from || !to) throw new Error('The handles are not on screen');
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  // dnd-kit starts a drag after a few pixels of movement.
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2 + 10, { steps: 4 });
  await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 15 });
  await page.mouse.up();
  await expect.poll(() => fieldOrder(page)).toEqual(['url', 'style', 'align', 'text']);

  // The order is the component's once saved.
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Button saved' })).toBeVisible();
  const saved = await (
    await page.request.get(`${workspaceApi}/email_design_systems/${system.id}/components/${button.id}`)
  ).json();
  expect(saved.field_definitions.map((field: { liquid_variable: string }) => field.liquid_variable)).toEqual([
    'url',
    'style',
    'align',
    'text',
  ]);
  expect(problems).toEqual([]);
});
