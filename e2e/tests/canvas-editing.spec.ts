import { expect, type Page, test } from '@playwright/test';
import { adminStorageState } from './support/accounts.ts';
import { collectPageProblems } from './support/page-problems.ts';

// Wide enough for the palette and outline beside the preview (below 1360 px they become a tab).
test.use({ storageState: adminStorageState, actionTimeout: 10_000, viewport: { width: 1440, height: 900 } });

const workspaceId = 1;
const workspaceApi = `/api/v1/workspaces/${workspaceId}`;
const unique = Date.now().toString(36);
const previewSelector = 'iframe[title="Email preview"]';

async function post<T>(page: Page, path: string, data: object): Promise<T> {
  const response = await page.request.post(path, { data });
  expect(response.ok(), `${path}: ${await response.text()}`).toBe(true);
  return (await response.json()) as T;
}

/** An empty email from the Letterset Starter, in a project of a new team, made through the API. */
async function createStarterEmail(page: Page): Promise<{ id: number }> {
  const team = await post<{ id: number }>(page, '/api/v1/teams', {
    name: `Canvas editors ${unique}`,
    workspace_id: workspaceId,
    badge_color: 'purple',
  });
  const project = await post<{ id: number }>(page, `${workspaceApi}/projects`, {
    name: `Canvas editing ${unique}`,
    team_id: team.id,
  });
  const systems = await (await page.request.get(`${workspaceApi}/email_design_systems`)).json();
  const starter = systems.results.find((system: { name: string }) => system.name === 'Letterset Starter');
  return post<{ id: number }>(page, `${workspaceApi}/emails`, {
    name: `Typed in the canvas ${unique}`,
    email_design_system_id: starter.id,
    project_id: project.id,
  });
}

/**
 * The HTML of the first preview element marking a field (each field name is used by one instance
 * here), read from the page as the editor reads the frame, since the preview runs no script.
 */
function previewFieldHtml(page: Page, field: string): Promise<string> {
  return page.evaluate(
    ({ selector, name }) =>
      document
        .querySelector<HTMLIFrameElement>(selector)
        ?.contentDocument?.querySelector(`[data-es-field-focus="${name}"]`)?.innerHTML ?? '',
    { selector: previewSelector, name: field },
  );
}

/** Whether the focused in-place editor covers the preview element showing the field, to the pixel. */
function editorCoversField(page: Page, field: string): Promise<boolean> {
  return page.evaluate(
    ({ selector, name }) => {
      const frame = document.querySelector<HTMLIFrameElement>(selector);
      const element = frame?.contentDocument?.querySelector(`[data-es-field-focus="${name}"]`);
      const editor = document.activeElement;
      if (!frame || !element || !editor) return false;
      const frameBox = frame.getBoundingClientRect();
      const elementBox = element.getBoundingClientRect();
      const editorBox = editor.getBoundingClientRect();
      return (
        Math.abs(frameBox.left + elementBox.left - editorBox.left) < 1 &&
        Math.abs(frameBox.top + elementBox.top - editorBox.top) < 1 &&
        Math.abs(elementBox.width - editorBox.width) < 1 &&
        Math.abs(elementBox.height - editorBox.height) < 1
      );
    },
    { selector: previewSelector, name: field },
  );
}

function previewField(page: Page, field: string) {
  return page.frameLocator(previewSelector).locator(`[data-es-field-focus="${field}"]`).first();
}

test('text, rich text and a button label are typed in the preview, in one undo history with the side panel', async ({
  page,
}) => {
  test.setTimeout(60_000);
  const problems = collectPageProblems(page);
  const email = await createStarterEmail(page);
  await page.goto(`/workspaces/${workspaceId}/emails/${email.id}/edit`);
  // Enough components for the preview to scroll.
  for (const label of ['Hero', 'Text', 'Button', 'Image and text', 'Image']) {
    await page.getByRole('button', { name: `Add ${label}`, exact: true }).click();
  }
  await expect(
    page.getByRole('list', { name: 'Components in this email' }).getByRole('listitem'),
  ).toHaveCount(6);

  // The hero's headline: selected, then clicked in the preview, it opens over itself.
  await page.getByRole('button', { name: 'Select Hero' }).click();
  await previewField(page, 'headline').click();
  const headline = page.getByRole('textbox', { name: 'Headline, in the preview' });
  await expect(headline).toBeFocused();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('Spring sale');
  await expect.poll(() => previewFieldHtml(page, 'headline')).toBe('Spring sale');
  await expect(page.getByRole('textbox', { name: 'Headline', exact: true })).toHaveText('Spring sale');
  // The editor lies over the headline, and follows it when the preview scrolls.
  await expect.poll(() => editorCoversField(page, 'headline')).toBe(true);
  const previewScroll = () =>
    page.evaluate(
      (selector) => document.querySelector<HTMLIFrameElement>(selector)?.contentWindow?.scrollY ?? 0,
      previewSelector,
    );
  const scrolledFrom = await previewScroll();
  await page.evaluate((selector) => {
    document.querySelector<HTMLIFrameElement>(selector)?.contentWindow?.scrollBy(0, 60);
  }, previewSelector);
  await expect.poll(previewScroll).toBe(scrolledFrom + 60);
  await expect.poll(() => editorCoversField(page, 'headline')).toBe(true);
  // Undo goes through the email editor: the preview and the side panel both go back.
  await page.keyboard.press('ControlOrMeta+Z');
  await expect.poll(() => previewFieldHtml(page, 'headline')).toBe('A headline that earns the open');
  await expect(page.getByRole('textbox', { name: 'Headline', exact: true })).toHaveText(
    'A headline that earns the open',
  );
  await expect(headline).toHaveValue('A headline that earns the open');
  await page.keyboard.press('ControlOrMeta+Shift+Z');
  await expect(headline).toHaveValue('Spring sale');
  // Escape ends editing; the side panel's edits show in the preview as before.
  await page.keyboard.press('Escape');
  await expect(headline).toHaveCount(0);
  await page.getByRole('textbox', { name: 'Headline', exact: true }).fill('Summer sale');
  await expect.poll(() => previewFieldHtml(page, 'headline')).toBe('Summer sale');

  // The hero's toolbar opens what the preview cannot edit in place in the side panel.
  const heroToolbar = page.getByRole('toolbar', { name: 'Hero actions' });
  await heroToolbar.getByRole('button', { name: 'Edit Button link' }).click();
  await expect(page.getByRole('textbox', { name: 'Button link' })).toBeFocused();

  // Rich text in place: bold from the keyboard and from the formatting bar.
  await page.getByRole('button', { name: 'Select Text' }).click();
  await previewField(page, 'body').click();
  const body = page.getByRole('textbox', { name: 'Text, in the preview' });
  await expect(body).toBeFocused();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('Fresh arrivals ');
  await page.keyboard.press('ControlOrMeta+B');
  await page.keyboard.type('every week');
  await page.keyboard.press('ControlOrMeta+B');
  await page.keyboard.type('.');
  // The render gives the strong tag the email's own class.
  await expect
    .poll(() => previewFieldHtml(page, 'body'))
    .toMatch(/^<p>Fresh arrivals <strong[^>]*>every week<\/strong>\.<\/p>$/);
  await expect(page.getByRole('textbox', { name: 'Text', exact: true }).first()).toContainText(
    'Fresh arrivals every week.',
  );
  await page
    .getByRole('toolbar', { name: 'Formatting of Text' })
    .getByRole('button', { name: 'Italic' })
    .click();
  await page.keyboard.type(' Come by');
  await expect.poll(() => previewFieldHtml(page, 'body')).toMatch(/<em[^>]*> Come by<\/em>/);
  // Ctrl+Z in the rich-text editor is the email editor's undo too (TipTap keeps no history of its own).
  await page.keyboard.press('ControlOrMeta+Z');
  await expect.poll(() => previewFieldHtml(page, 'body')).not.toContain('Come by');
  await expect(body).not.toContainText('Come by');
  await page.keyboard.press('ControlOrMeta+Shift+Z');
  await expect.poll(() => previewFieldHtml(page, 'body')).toMatch(/<em[^>]*> Come by<\/em>/);
  await expect(body).toContainText('Fresh arrivals every week. Come by');
  // A click elsewhere ends editing.
  await page.getByRole('heading', { name: 'Text', exact: true }).click();
  await expect(body).toHaveCount(0);
  // Opened by a click at the start of the text, the caret is where the click was; Escape ends editing.
  await previewField(page, 'body').click({ position: { x: 2, y: 8 } });
  await expect(body).toBeFocused();
  await page.keyboard.type('Now: ');
  await expect.poll(() => previewFieldHtml(page, 'body')).toMatch(/^<p>Now: Fresh arrivals/);
  await page.keyboard.press('Escape');
  await expect(body).toHaveCount(0);

  // A button's label.
  await page.getByRole('button', { name: 'Select Button' }).click();
  await previewField(page, 'text').click();
  const label = page.getByRole('textbox', { name: 'Text, in the preview' });
  await expect(label).toBeFocused();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('Shop the sale');
  await expect.poll(() => previewFieldHtml(page, 'text')).toBe('Shop the sale');
  await expect(page.getByRole('textbox', { name: 'Text', exact: true })).toHaveText('Shop the sale');
  // Enter ends a one-line field's editing rather than adding a line.
  await page.keyboard.press('Enter');
  await expect(label).toHaveCount(0);
  await expect.poll(() => previewFieldHtml(page, 'text')).toBe('Shop the sale');

  await expect(page.getByRole('status', { name: 'Save state' })).toHaveText('Saved', { timeout: 10_000 });
  const saved = await (await page.request.get(`${workspaceApi}/emails/${email.id}`)).json();
  // The hero, the text and the button: the instances added only to make the preview scroll hold nothing.
  const values = saved.email_content.component_instances
    .slice(0, 3)
    .map(
      (instance: { field_values: { null_branch: { 'en-US': Record<string, { value: string }> } } }) =>
        instance.field_values.null_branch['en-US'],
    );
  expect(values[0].headline.value).toBe('Summer sale');
  expect(values[1].body.value).toContain('<p>Now: Fresh arrivals <strong>every week</strong>.');
  expect(values[2].text.value).toBe('Shop the sale');
  expect(problems).toEqual([]);
});
