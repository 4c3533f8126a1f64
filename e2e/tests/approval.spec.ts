import { expect, type Page, test } from '@playwright/test';
import { adminStorageState } from './support/accounts.ts';
import { invitedPerson } from './support/invited-person.ts';
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

const statusBadge = (page: Page, label: string) =>
  page.getByRole('heading', { level: 1 }).locator('..').getByText(label, { exact: true });

async function decide(page: Page, decision: 'Approve' | 'Request changes', comment: string) {
  await page.getByRole('button', { name: decision, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: decision });
  await dialog.getByRole('textbox').fill(comment);
  await dialog.getByRole('button', { name: decision, exact: true }).click();
  await expect(dialog).toBeHidden();
}

/** The box of the first component instance in the preview, in page coordinates. */
async function instanceBox(page: Page) {
  return page.evaluate(() => {
    const frame = document.querySelector<HTMLIFrameElement>('iframe[title="Email preview"]');
    const element = frame?.contentDocument?.querySelector('[data-es-instance]');
    if (!frame || !element) return null;
    const frameBox = frame.getBoundingClientRect();
    const box = element.getBoundingClientRect();
    return { x: frameBox.left + box.left, y: frameBox.top + box.top, width: box.width, height: box.height };
  });
}

const bell = (page: Page) => page.getByRole('button', { name: /^Notifications/ });
const homeCard = (page: Page, title: string) => page.getByRole('region', { name: title });

test('two people take an email through a two-stage review: pinned comment, changes, resubmission, approval, publish', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const problems = collectPageProblems(page);
  const { teamId, projectId } = await createProjectWithTeam(page, {
    teamName: `Review team ${unique}`,
    projectName: `Review project ${unique}`,
    badgeColor: 'purple',
  });
  const starter = await starterDesignSystem(page);
  const emailName = `Review me ${unique}`;
  const email = await postJson<{ id: number }>(page, `${workspaceApi}/emails`, {
    name: emailName,
    email_design_system_id: starter.id,
    project_id: projectId,
  });
  const reviewer = await invitedPerson(page, browser, {
    firstName: 'Rita',
    lastName: 'Reviewer',
    email: `rita-${unique}@northwind.test`,
    role: 'Viewer',
    teamId,
    password: 'a long reviewer password',
  });
  const reviewerProblems = collectPageProblems(reviewer.page);
  await postJson(page, '/api/v1/review_groups', {
    name: `Brand then legal ${unique}`,
    stages: [
      { position: 1, approval_type: 'one_of', members: [{ user_id: reviewer.id }] },
      { position: 2, approval_type: 'all_of', members: [{ user_id: reviewer.id }] },
    ],
  });
  const editorUrl = `/workspaces/${workspaceId}/emails/${email.id}/edit`;

  // The submitter builds the email and submits it to the two-stage group.
  await page.goto(editorUrl);
  await page.getByRole('button', { name: 'Add Hero', exact: true }).click();
  await expect(page.getByRole('status', { name: 'Save state' })).toHaveText('Saved', { timeout: 10_000 });
  await expect(statusBadge(page, 'Draft')).toBeVisible();
  await page.getByRole('button', { name: 'Submit for approval' }).click();
  const submit = page.getByRole('dialog', { name: 'Submit for approval' });
  await submit.getByText('Review group', { exact: true }).click();
  await submit.getByRole('combobox', { name: 'Review group' }).click();
  await page.getByRole('option', { name: new RegExp(`Brand then legal ${unique}`) }).click();
  await submit.getByRole('button', { name: 'Submit', exact: true }).click();
  await expect(submit).toBeHidden();
  await expect(statusBadge(page, 'In review')).toBeVisible();
  // The submitter is not a reviewer: the disabled Approve says whom the stage waits on.
  await page.getByRole('button', { name: 'Approve', exact: true }).hover();
  await expect(page.getByText('Stage 1 is waiting on Rita Reviewer')).toBeVisible();

  // The reviewer's home page and bell say a review waits on her; the bell leads to the email.
  await reviewer.page.goto(`/workspaces/${workspaceId}`);
  await expect(
    homeCard(reviewer.page, 'Waiting on your review').getByRole('link', { name: emailName }),
  ).toBeVisible();
  await expect(bell(reviewer.page)).toHaveAccessibleName(/unread/);
  await bell(reviewer.page).click();
  await reviewer.page
    .getByRole('listitem', { name: /Unread: .*asked you to review/ })
    .first()
    .click();
  await expect(reviewer.page).toHaveURL(new RegExp(`${editorUrl}$`));
  await expect(statusBadge(reviewer.page, 'In review')).toBeVisible();

  // Stage 1: approved. Stage 2: a comment pinned on the hero, and changes requested.
  await decide(reviewer.page, 'Approve', 'Brand looks right');
  await reviewer.page.getByRole('tab', { name: 'Review' }).click();
  await reviewer.page.getByRole('button', { name: 'Pin a comment' }).click();
  await expect.poll(() => instanceBox(reviewer.page)).not.toBeNull();
  const hero = await instanceBox(reviewer.page);
  if (!hero) throw new Error('the hero is not in the preview');
  await reviewer.page.mouse.click(hero.x + hero.width / 2, hero.y + 30);
  await reviewer.page.getByRole('combobox', { name: 'Comment' }).fill('The legal line is missing here');
  await reviewer.page.getByRole('button', { name: 'Comment', exact: true }).click();
  await expect(reviewer.page.locator('[data-thread-id]').first()).toContainText('The legal line is missing');
  await decide(reviewer.page, 'Request changes', 'See my pinned comment');
  await expect(statusBadge(reviewer.page, 'Changes requested')).toBeVisible();

  // The submitter sees the decision and the pinned comment arrive without reloading.
  await expect(statusBadge(page, 'Changes requested')).toBeVisible();
  await page.getByRole('tab', { name: 'Review' }).click();
  const thread = page.locator('[data-thread-id]').first();
  await expect(thread).toContainText('The legal line is missing here');
  await expect(page.getByTestId('pin-overlay').getByRole('button', { name: 'Pin 1' })).toBeVisible();
  await expect(bell(page)).toHaveAccessibleName(/unread/);

  // Fixes it (the email is editable again), resolves the thread, and resubmits from stage 2.
  await page.getByRole('button', { name: 'Add Text', exact: true }).click();
  await expect(page.getByRole('status', { name: 'Save state' })).toHaveText('Saved', { timeout: 10_000 });
  // Adding a component opens its fields: back to the Review tab to resolve the thread.
  await page.getByRole('tab', { name: 'Review' }).click();
  await thread.getByRole('button', { name: 'Resolve' }).click();
  await page.getByRole('button', { name: 'Resubmit' }).click();
  const resubmit = page.getByRole('dialog', { name: 'Submit for approval' });
  await expect(resubmit.getByRole('radio', { name: /Continue from stage 2/ })).toBeChecked();
  await resubmit.getByRole('button', { name: 'Resubmit' }).click();
  await expect(statusBadge(page, 'In review')).toBeVisible();

  // The reviewer sees the resubmission live and approves the last stage.
  await expect(statusBadge(reviewer.page, 'In review')).toBeVisible();
  await decide(reviewer.page, 'Approve', 'Thanks, all good');
  await expect(statusBadge(reviewer.page, 'Approved')).toBeVisible();

  // The submitter's bell tells of the approval; the timeline shows both rounds; they publish.
  await expect(statusBadge(page, 'Approved')).toBeVisible();
  await bell(page).click();
  await expect(
    page.getByRole('listitem', {
      name: new RegExp(`Unread: “${emailName}” is approved: Rita Reviewer approved`),
    }),
  ).toBeVisible();
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Review timeline' }).click();
  await expect(page.getByText('See my pinned comment')).toBeVisible();
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(statusBadge(page, 'Published')).toBeVisible();
  const workflow = await (
    await page.request.get(`${workspaceApi}/emails/${email.id}/approval_workflow`)
  ).json();
  expect(workflow).toMatchObject({ status: 'completed', round: 2, current_stage_position: 2 });

  // Nothing waits on the reviewer any more.
  await reviewer.page.goto(`/workspaces/${workspaceId}`);
  await expect(homeCard(reviewer.page, 'Waiting on your review')).toContainText(
    'No review is waiting on you.',
  );
  expect(problems).toEqual([]);
  expect(reviewerProblems).toEqual([]);
  await reviewer.context.close();
});
