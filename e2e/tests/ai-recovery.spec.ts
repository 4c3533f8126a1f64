import { expect, type Locator, type Page, test } from '@playwright/test';
import { adminStorageState } from './support/accounts.ts';
import { resetFakeModel, scriptFakeModel } from './support/fake-model.ts';
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
const providerDown = 'The AI provider had an error (HTTP 500). Try again later.';

/** The model is down: it answers 500 to the request and to the one retry Letterset makes. */
const modelDown = [
  { kind: 'error', status: 500, message: 'upstream connect error or disconnect/reset before headers' },
  { kind: 'error', status: 500, message: 'upstream connect error or disconnect/reset before headers' },
] as const;

function previewText(page: Page): Promise<string> {
  return page.evaluate(
    () =>
      document.querySelector<HTMLIFrameElement>('iframe[title="Email preview"]')?.contentDocument?.body
        .innerText ?? '',
  );
}

/** Whether any text inside the element is cut off (wider than the box that shows it). */
function clippedTexts(locator: Locator): Promise<string[]> {
  return locator.evaluate((root) =>
    [...root.querySelectorAll<HTMLElement>('button, button *')]
      .filter((element) => element.scrollWidth > element.clientWidth + 1)
      .map((element) => element.textContent ?? ''),
  );
}

test.beforeEach(() => resetFakeModel());

test('a create-with-AI that fails keeps the brief, is marked failed, and Try again fills the email', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const problems = collectPageProblems(page);
  const { projectId } = await createProjectWithTeam(page, {
    teamName: `Recovery ${unique}`,
    projectName: `Recovery ${unique}`,
    badgeColor: 'purple',
  });
  const brief = 'A spring weekend in Lisbon for two, from €249, with a button to book.';
  await scriptFakeModel(...modelDown);

  await page.goto(`/workspaces/${workspaceId}/projects/${projectId}`);
  await page.getByRole('button', { name: 'New email' }).click();
  await page.getByRole('textbox', { name: 'Name' }).fill(`Lisbon ${unique}`);
  await page.getByRole('combobox', { name: 'Design system', exact: true }).click();
  await page.getByRole('option', { name: 'Letterset Starter', exact: true }).click();
  await page.getByRole('switch', { name: 'Write it with AI' }).check();
  await page.getByRole('button', { name: 'Create with AI' }).click();
  await page.getByRole('textbox', { name: 'Brief' }).fill(brief);
  await page.getByRole('button', { name: 'Create with AI' }).click();
  await expect(page).toHaveURL(/\/emails\/\d+\/edit$/);
  const emailId = Number(/\/emails\/(\d+)\/edit$/.exec(page.url())?.[1]);

  // The failure is told in Letterset's words, with the brief, and the ways on.
  const banner = page.getByRole('alert').filter({ hasText: 'The AI could not write all of this email' });
  await expect(banner).toBeVisible({ timeout: 20_000 });
  await expect(banner).toContainText(providerDown);
  await expect(banner).not.toContainText('upstream connect error');
  await expect(banner).toContainText(brief);
  await expect(banner.getByRole('button', { name: 'Edit brief' })).toBeVisible();

  // The project's list marks it failed, not as a plain draft.
  await page.goto(`/workspaces/${workspaceId}/projects/${projectId}`);
  const row = page.getByRole('row').filter({ hasText: `Lisbon ${unique}` });
  await expect(row.getByText('AI failed')).toBeVisible();
  await page.getByRole('combobox', { name: 'AI', exact: true }).click();
  await page.getByRole('option', { name: 'AI failed', exact: true }).click();
  await expect(row).toBeVisible();

  // The model answers now: Try again writes the email from the same brief.
  await scriptFakeModel({
    kind: 'json',
    delayMs: 500,
    value: {
      subject: 'Lisbon in spring',
      preheader: 'Two nights from €249',
      sections: [
        { component: 'heading', values: { text: 'Lisbon is calling', level: 'h1', align: 'center' } },
        {
          component: 'button',
          values: {
            text: 'Book Lisbon',
            url: 'https://travel.example/lisbon',
            style: 'primary',
            align: 'center',
          },
        },
      ],
    },
  });
  await page.goto(`/workspaces/${workspaceId}/emails/${emailId}/edit`);
  await banner.getByRole('button', { name: 'Try again' }).click();
  const outline = page.getByRole('list', { name: 'Components in this email' });
  await expect(outline.getByRole('listitem')).toHaveCount(3, { timeout: 20_000 });
  await expect.poll(() => previewText(page)).toContain('Lisbon is calling');
  await expect(page.getByText('The AI could not write all of this email')).toHaveCount(0);
  const email = await (await page.request.get(`${workspaceApi}/emails/${emailId}`)).json();
  expect(email).toMatchObject({ ai_generation_status: 'done', ai_generation_error: null, prompt: brief });
  expect(problems).toEqual([]);
});

test('a failed AI review shows in the Review tab with Try again, and the review dialog’s buttons fit', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const { projectId } = await createProjectWithTeam(page, {
    teamName: `AI review ${unique}`,
    projectName: `AI review ${unique}`,
    badgeColor: 'orange',
  });
  const starter = await starterDesignSystem(page);
  const email = await postJson<{ id: number }>(page, `${workspaceApi}/emails`, {
    name: `Reviewed ${unique}`,
    email_design_system_id: starter.id,
    project_id: projectId,
  });
  const reviewer = await postJson<{ id: number; name: string }>(page, `${workspaceApi}/ai_reviewers`, {
    name: `Brand voice ${unique}`,
    review_instructions: 'Check that the tone is warm and the offer is clear.',
  });
  await scriptFakeModel(...modelDown);
  const assignment = await postJson<{ id: number }>(
    page,
    `${workspaceApi}/emails/${email.id}/review_assignments`,
    {
      assignee_type: 'AiReviewer',
      assignee_id: reviewer.id,
    },
  );
  await expect
    .poll(
      async () =>
        (
          (await (await page.request.get(`${workspaceApi}/emails/${email.id}/review_assignments`)).json())
            .results as { id: number; ai_review_status: string }[]
        ).find((entry) => entry.id === assignment.id)?.ai_review_status,
      { timeout: 20_000 },
    )
    .toBe('failed');

  await page.goto(`/workspaces/${workspaceId}/emails/${email.id}/edit`);
  await page.getByRole('tab', { name: 'Review' }).click();
  const failure = page.getByRole('alert').filter({ hasText: `${reviewer.name}’s review failed` });
  await expect(failure).toBeVisible();
  await expect(failure).toContainText(providerDown);

  // The dialog where it was asked for shows it too, its buttons whole at both laptop sizes.
  for (const viewport of [
    { width: 1440, height: 900 },
    { width: 1280, height: 800 },
  ]) {
    await page.setViewportSize(viewport);
    await page.getByRole('button', { name: 'More review actions' }).click();
    await page.getByRole('menuitem', { name: 'Ask for a review…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Ask for a review' });
    const runAgain = dialog.getByRole('button', { name: `Run ${reviewer.name}’s review again` });
    await expect(runAgain).toBeVisible();
    await expect(runAgain).toHaveText('Run again');
    expect(await clippedTexts(dialog), `clipped at ${viewport.width}×${viewport.height}`).toEqual([]);
    const dialogBox = await dialog.getByRole('list').boundingBox();
    const buttonBox = await runAgain.boundingBox();
    expect(buttonBox && dialogBox && buttonBox.x + buttonBox.width <= dialogBox.x + dialogBox.width + 1).toBe(
      true,
    );
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  }

  // Try again: the model answers with a comment, which lands in the tab.
  await scriptFakeModel({
    kind: 'json',
    value: { comments: [{ component_instance_id: null, body: `Warm enough ${unique}` }] },
  });
  await failure.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByText(`Warm enough ${unique}`)).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText(`${reviewer.name}’s review failed`)).toHaveCount(0);
});
