import { expect, type Page, test } from '@playwright/test';
import { adminStorageState } from './support/accounts.ts';
import { resetFakeModel, scriptFakeModel } from './support/fake-model.ts';
import { collectPageProblems } from './support/page-problems.ts';

test.use({ storageState: adminStorageState, actionTimeout: 10_000, viewport: { width: 1440, height: 900 } });

const workspaceId = 1;
const unique = Date.now().toString(36);

function previewText(page: Page): Promise<string> {
  return page.evaluate(
    () =>
      document.querySelector<HTMLIFrameElement>('iframe[title="Email preview"]')?.contentDocument?.body
        .innerText ?? '',
  );
}

async function chooseOption(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

test.beforeEach(() => resetFakeModel());

test('an email is written with AI from a brief and opens in the editor filled in', async ({ page }) => {
  test.setTimeout(60_000);
  const problems = collectPageProblems(page);
  const team = await page.request.post('/api/v1/teams', {
    data: { name: `Travel ${unique}`, workspace_id: workspaceId, badge_color: 'teal' },
  });
  expect(team.ok()).toBe(true);
  const project = await page.request.post(`/api/v1/workspaces/${workspaceId}/projects`, {
    data: { name: `City breaks ${unique}`, team_id: (await team.json()).id },
  });
  expect(project.ok()).toBe(true);

  // The model answers a moment later, as a real one does: long enough to see the progress.
  await scriptFakeModel({
    kind: 'json',
    delayMs: 1_500,
    value: {
      subject: 'Three cities, one spring',
      preheader: 'Paris, London and Rome from €199',
      sections: [
        { component: 'heading', values: { text: 'Paris, London or Rome?', level: 'h1', align: 'center' } },
        {
          component: 'rich_text',
          values: { body: '<p>Pick a city and we take care of the rest.</p>', align: 'left' },
        },
        {
          component: 'button',
          values: {
            text: 'Plan my trip',
            url: 'https://travel.example/spring',
            style: 'primary',
            align: 'center',
          },
        },
      ],
    },
  });

  await page.goto(`/workspaces/${workspaceId}/projects/${(await project.json()).id}`);
  await page.getByRole('button', { name: 'New email' }).click();
  await page.getByRole('textbox', { name: 'Name' }).fill(`Spring cities ${unique}`);
  await chooseOption(page, 'Design system', 'Letterset Starter');
  await page.getByRole('switch', { name: 'Write it with AI' }).check();
  await page.getByRole('button', { name: 'Create with AI' }).click();
  await expect(page.getByText('Describe the email to write')).toBeVisible();
  await page
    .getByRole('textbox', { name: 'Brief' })
    .fill('Build a travel email showcasing our Paris, London and Rome destinations.');
  await page.getByRole('button', { name: 'Create with AI' }).click();

  await expect(page).toHaveURL(/\/emails\/\d+\/edit$/);
  await expect(page.getByRole('heading', { name: `AI is writing “Spring cities ${unique}”` })).toBeVisible();
  await expect(page.getByText('Build a travel email showcasing')).toBeVisible();

  // Done: the editor opens on the written email, its sections in the outline and the preview.
  const outline = page.getByRole('list', { name: 'Components in this email' });
  await expect(outline.getByRole('listitem')).toHaveCount(4, { timeout: 20_000 });
  await expect.poll(() => previewText(page)).toContain('Paris, London or Rome?');
  await expect.poll(() => previewText(page)).toContain('Plan my trip');
  await expect(page.getByText('AI finished with problems')).toHaveCount(0);
  expect(problems).toEqual([]);
});
