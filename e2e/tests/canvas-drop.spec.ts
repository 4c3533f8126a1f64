import { expect, type Page, test } from '@playwright/test';
import { adminStorageState } from './support/accounts.ts';
import { collectPageProblems } from './support/page-problems.ts';

// Wide enough for the palette and outline beside the preview (below 1360 px they become a tab).
test.use({ storageState: adminStorageState, actionTimeout: 10_000, viewport: { width: 1440, height: 900 } });

const workspaceId = 1;
const unique = Date.now().toString(36);
const workspaceApi = `/api/v1/workspaces/${workspaceId}`;

/** An empty email from the Letterset Starter, in a project of a new team, made through the API. */
async function createStarterEmail(page: Page, name: string): Promise<{ id: number }> {
  const post = async <T>(path: string, data: object): Promise<T> => {
    const response = await page.request.post(path, { data });
    expect(response.ok(), `${path}: ${await response.text()}`).toBe(true);
    return (await response.json()) as T;
  };
  const team = await post<{ id: number }>('/api/v1/teams', {
    name: `${name} ${unique}`,
    workspace_id: workspaceId,
    badge_color: 'purple',
  });
  const project = await post<{ id: number }>(`${workspaceApi}/projects`, {
    name: `${name} ${unique}`,
    team_id: team.id,
  });
  const systems = await (await page.request.get(`${workspaceApi}/email_design_systems`)).json();
  const starter = systems.results.find((system: { name: string }) => system.name === 'Letterset Starter');
  return post<{ id: number }>(`${workspaceApi}/emails`, {
    name: `${name} ${unique}`,
    email_design_system_id: starter.id,
    project_id: project.id,
  });
}

interface Box {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

/**
 * The preview's body instances in the order it shows them, each with the page coordinates of the box
 * around what it rendered. The frame runs no script, so the page reads it, as the editor does.
 */
function previewInstances(page: Page): Promise<{ text: string; box: Box }[]> {
  return page.evaluate(() => {
    const frame = document.querySelector<HTMLIFrameElement>('iframe[title="Email preview"]');
    const previewDocument = frame?.contentDocument;
    if (!frame || !previewDocument) return [];
    const frameBox = frame.getBoundingClientRect();
    const instances = new Map<string, { text: string; box: Box }>();
    for (const element of previewDocument.querySelectorAll<HTMLElement>('[data-es-instance]')) {
      const rect = element.getBoundingClientRect();
      if (rect.height === 0) continue;
      const id = element.dataset.esInstance as string;
      const seen = instances.get(id);
      const box = {
        top: frameBox.top + rect.top,
        bottom: frameBox.top + rect.bottom,
        left: frameBox.left + rect.left,
        right: frameBox.left + rect.right,
      };
      instances.set(id, {
        text: `${seen?.text ?? ''}${element.innerText}`.trim(),
        box: seen
          ? {
              top: Math.min(seen.box.top, box.top),
              bottom: Math.max(seen.box.bottom, box.bottom),
              left: Math.min(seen.box.left, box.left),
              right: Math.max(seen.box.right, box.right),
            }
          : box,
      });
    }
    return [...instances.values()];
  });
}

/** The texts of the preview's instances, in order, each cut to its first two words. */
async function previewOrder(page: Page): Promise<string[]> {
  return (await previewInstances(page)).map((instance) => instance.text.split(/\s+/).slice(0, 2).join(' '));
}

/** Drags with the mouse in steps, as a person does: dnd-kit starts a drag after a few pixels of movement. */
async function dragWithMouse(
  page: Page,
  from: { x: number; y: number },
  to: { x: number; y: number },
  whileDragging: () => Promise<void> = async () => {},
) {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(from.x + 10, from.y + 10, { steps: 4 });
  await page.mouse.move(to.x, to.y, { steps: 15 });
  // The drop line shows where the item will land before it is let go.
  await expect(page.getByTestId('canvas-drop-line')).toBeVisible();
  await whileDragging();
  await page.mouse.up();
  await expect(page.getByTestId('canvas-drop-line')).toHaveCount(0);
}

function centre(box: { x: number; y: number; width: number; height: number }) {
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

test('a component dropped on the preview goes between the components under the line, and an instance moves by its handle in the preview', async ({
  page,
}) => {
  test.setTimeout(60_000);
  const problems = collectPageProblems(page);
  const email = await createStarterEmail(page, 'Canvas drop');
  await page.goto(`/workspaces/${workspaceId}/emails/${email.id}/edit`);
  const outline = page.getByRole('list', { name: 'Components in this email' });
  const rows = outline.getByRole('listitem');
  await page
    .getByRole('region', { name: 'Empty email' })
    .getByRole('button', { name: 'Start with Heading' })
    .click();
  await page.getByRole('button', { name: 'Add Text', exact: true }).click();
  await expect(rows).toHaveText([/fields of the whole email/, /Heading/, /Text/]);
  await expect.poll(() => previewOrder(page)).toEqual(['Section heading', 'Write your']);

  // A Button from the palette, dropped on the line between the heading and the text.
  const [heading, text] = await previewInstances(page);
  if (!heading || !text) throw new Error('The preview does not show the two components');
  const grip = await page.getByLabel('Drag Button', { exact: true }).boundingBox();
  if (!grip) throw new Error('The palette has no Button');
  const paletteColumn = page
    .getByLabel('Palette and outline')
    .locator('.mantine-ScrollArea-viewport')
    .first();
  await dragWithMouse(
    page,
    centre(grip),
    { x: (heading.box.left + heading.box.right) / 2, y: (heading.box.bottom + text.box.top) / 2 },
    async () => {
      // The drag image floats over the page, whole, beside the column it came from; the palette column
      // has not scrolled sideways to follow it.
      const image = await page.getByTestId('drag-image').boundingBox();
      const column = await paletteColumn.boundingBox();
      expect(image && column && image.x > column.x + column.width).toBe(true);
      await expect(page.getByTestId('drag-image')).toHaveText('Button');
      expect(await paletteColumn.evaluate((element) => element.scrollLeft)).toBe(0);
    },
  );
  await expect(rows).toHaveText([/fields of the whole email/, /Heading/, /Button/, /Text/]);
  await expect.poll(() => previewOrder(page)).toEqual(['Section heading', 'Shop now', 'Write your']);

  // One undo takes the drop back.
  await page.keyboard.press('ControlOrMeta+z');
  await expect(rows).toHaveText([/fields of the whole email/, /Heading/, /Text/]);
  await expect.poll(() => previewOrder(page)).toEqual(['Section heading', 'Write your']);

  // Hovering the text in the preview shows its handle at its left edge; dragged above the heading, it moves there.
  const [headingNow, textNow] = await previewInstances(page);
  if (!headingNow || !textNow) throw new Error('The preview does not show the two components');
  await page.mouse.move(
    (textNow.box.left + textNow.box.right) / 2,
    (textNow.box.top + textNow.box.bottom) / 2,
    {
      steps: 5,
    },
  );
  const handle = page.getByRole('button', { name: 'Drag Text in the preview' });
  await expect(handle).toBeVisible();
  // A click on the handle selects its component.
  await expect(page.getByText('Select a component in the preview or the outline')).toBeVisible();
  await handle.click();
  await expect(page.getByRole('heading', { name: 'Text', level: 2 })).toBeVisible();
  const handleBox = await handle.boundingBox();
  if (!handleBox) throw new Error('The handle has no box');
  expect(handleBox.x).toBeLessThan(textNow.box.left + 30);
  await dragWithMouse(page, centre(handleBox), {
    x: (headingNow.box.left + headingNow.box.right) / 2,
    y: headingNow.box.top + 4,
  });
  await expect(rows).toHaveText([/fields of the whole email/, /Text/, /Heading/]);
  await expect.poll(() => previewOrder(page)).toEqual(['Write your', 'Section heading']);

  // The outline's keyboard reordering still works beside it.
  await outline.getByRole('button', { name: 'Select Text' }).focus();
  await page.keyboard.press('Alt+ArrowDown');
  await expect(rows).toHaveText([/fields of the whole email/, /Heading/, /Text/]);
  await page.keyboard.press('ControlOrMeta+z');
  await expect(rows).toHaveText([/fields of the whole email/, /Text/, /Heading/]);
  // And so does picking a row up by its grip with the keyboard: space, an arrow, space.
  await outline.getByRole('button', { name: 'Drag Heading', exact: true }).focus();
  await page.keyboard.press('Space');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Space');
  await expect(rows).toHaveText([/fields of the whole email/, /Heading/, /Text/]);
  await expect.poll(() => previewOrder(page)).toEqual(['Section heading', 'Write your']);

  await expect(page.getByRole('status', { name: 'Save state' })).toHaveText('Saved', { timeout: 10_000 });
  expect(problems).toEqual([]);
});

test('on a laptop screen, components dragged from the Outline tab drop on the preview, rows of the outline too', async ({
  page,
}) => {
  test.setTimeout(60_000);
  const problems = collectPageProblems(page);
  await page.setViewportSize({ width: 1280, height: 900 });
  const email = await createStarterEmail(page, 'Canvas drop laptop');
  await page.goto(`/workspaces/${workspaceId}/emails/${email.id}/edit`);
  const outlineTab = page.getByRole('tab', { name: 'Outline' });
  await outlineTab.click();
  await page
    .getByRole('region', { name: 'Empty email' })
    .getByRole('button', { name: 'Start with Heading' })
    .click();
  await outlineTab.click();
  await page.getByRole('button', { name: 'Add Text', exact: true }).click();
  await expect.poll(() => previewOrder(page)).toEqual(['Section heading', 'Write your']);

  // From the palette in the side panel, across the page, to the lower half of the last component.
  await outlineTab.click();
  const [, text] = await previewInstances(page);
  if (!text) throw new Error('The preview does not show the text');
  const grip = await page.getByLabel('Drag Button', { exact: true }).boundingBox();
  if (!grip) throw new Error('The palette has no Button');
  await dragWithMouse(page, centre(grip), {
    x: (text.box.left + text.box.right) / 2,
    y: text.box.bottom - 5,
  });
  await expect.poll(() => previewOrder(page)).toEqual(['Section heading', 'Write your', 'Shop now']);

  // A row of the outline dropped above the first component of the preview moves there.
  await outlineTab.click();
  const [heading] = await previewInstances(page);
  if (!heading) throw new Error('The preview does not show the heading');
  const outline = page.getByRole('list', { name: 'Components in this email' });
  const row = await outline.getByRole('button', { name: 'Drag Text', exact: true }).boundingBox();
  if (!row) throw new Error('The outline has no Text');
  await dragWithMouse(page, centre(row), {
    x: (heading.box.left + heading.box.right) / 2,
    y: heading.box.top + 4,
  });
  await expect.poll(() => previewOrder(page)).toEqual(['Write your', 'Section heading', 'Shop now']);
  await expect(outline.getByRole('listitem')).toHaveText([
    /fields of the whole email/,
    /Text/,
    /Heading/,
    /Button/,
  ]);

  await expect(page.getByRole('status', { name: 'Save state' })).toHaveText('Saved', { timeout: 10_000 });
  expect(problems).toEqual([]);
});
