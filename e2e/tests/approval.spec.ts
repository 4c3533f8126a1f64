import { type Browser, expect, type Page, test } from '@playwright/test';
import { adminStorageState } from './support/accounts.ts';
import { invitationLinkFor } from './support/outbox.ts';
import { collectPageProblems } from './support/page-problems.ts';

test.use({ storageState: adminStorageState, actionTimeout: 10_000, viewport: { width: 1440, height: 900 } });

const workspaceId = 1;
const workspaceApi = `/api/v1/workspaces/${workspaceId}`;
const unique = Date.now().toString(36);

async function post<T>(page: Page, path: string, data: object): Promise<T> {
  const response = await page.request.post(path, { data });
  expect(response.ok(), `${path}: ${await response.text()}`).toBe(true);
  return (await response.json()) as T;
}

/** A Viewer of the workspace and of the email's team, signed in in a browser of their own. */
async function reviewerBrowser(browser: Browser, admin: Page, teamId: number) {
  const email = `rita-${unique}@northwind.test`;
  const roles = (await (await admin.request.get('/api/v1/roles?per=100')).json()) as {
    results: { id: number; name: string; builtin: boolean }[];
  };
  const viewer = roles.results.find((role) => role.builtin && role.name === 'Viewer');
  const invited = await post<{ id: number }>(admin, '/api/v1/users', {
    first_name: 'Rita',
    last_name: 'Reviewer',
    email,
    role_id: viewer?.id,
    workspace_ids: [workspaceId],
    team_ids: [teamId],
  });
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  await page.goto(await invitationLinkFor(email));
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill('a long reviewer password');
  await page.getByRole('textbox', { name: 'Repeat the password' }).fill('a long reviewer password');
  await page.getByRole('button', { name: 'Set password and sign in' }).click();
  await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
  return { page, context, userId: invited.id };
}

const statusBadge = (page: Page, label: string) =>
  page.getByRole('heading', { level: 1 }).locator('..').getByText(label, { exact: true });

async function decide(page: Page, decision: 'Approve' | 'Request changes', comment: string) {
  await page.getByRole('button', { name: decision, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: decision });
  await dialog.getByRole('textbox').fill(comment);
  await dialog.getByRole('button', { name: decision, exact: true }).click();
  await expect(dialog).toBeHidden();
}

test('two people review an email through two stages: approval, changes, resubmission, approval, publish', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  const problems = collectPageProblems(page);
  const team = await post<{ id: number }>(page, '/api/v1/teams', {
    name: `Review team ${unique}`,
    workspace_id: workspaceId,
    badge_color: 'purple',
  });
  const project = await post<{ id: number }>(page, `${workspaceApi}/projects`, {
    name: `Review project ${unique}`,
    team_id: team.id,
  });
  const systems = await (await page.request.get(`${workspaceApi}/email_design_systems`)).json();
  const starter = systems.results.find((system: { name: string }) => system.name === 'Letterset Starter');
  const email = await post<{ id: number }>(page, `${workspaceApi}/emails`, {
    name: `Review me ${unique}`,
    email_design_system_id: starter.id,
    project_id: project.id,
  });
  const reviewer = await reviewerBrowser(browser, page, team.id);
  const reviewerProblems = collectPageProblems(reviewer.page);
  const editorUrl = `/workspaces/${workspaceId}/emails/${email.id}/edit`;

  // The submitter picks Rita for both stages, one_of, in the submit dialog.
  await page.goto(editorUrl);
  await expect(statusBadge(page, 'Draft')).toBeVisible();
  await page.getByRole('button', { name: 'Submit for approval' }).click();
  const submit = page.getByRole('dialog', { name: 'Submit for approval' });
  await submit.getByRole('combobox', { name: 'Stage 1 reviewers' }).click();
  await page.getByRole('option', { name: 'Rita Reviewer' }).click();
  // Closes the reviewers' dropdown, which stays open for picking more.
  await submit.getByText('Stage 1', { exact: true }).click();
  await submit.getByRole('button', { name: 'Add stage' }).click();
  await submit.getByRole('combobox', { name: 'Stage 2 reviewers' }).click();
  await page.getByRole('option', { name: 'Rita Reviewer' }).click();
  await submit.getByText('Stage 2', { exact: true }).click();
  await submit.getByRole('button', { name: 'Submit', exact: true }).click();
  await expect(submit).toBeHidden();
  await expect(statusBadge(page, 'In review')).toBeVisible();
  await expect(page.getByText('what is approved is what ships', { exact: false })).toBeVisible();
  // The submitter is not a reviewer: the disabled Approve says whom the stage waits on.
  await page.getByRole('button', { name: 'Approve', exact: true }).hover();
  await expect(page.getByText('Stage 1 is waiting on Rita Reviewer')).toBeVisible();

  // The reviewer approves stage 1, then asks for changes at stage 2.
  await reviewer.page.goto(editorUrl);
  await expect(statusBadge(reviewer.page, 'In review')).toBeVisible();
  await decide(reviewer.page, 'Approve', 'Stage one looks fine');
  await decide(reviewer.page, 'Request changes', 'Please add a subject line');
  await expect(statusBadge(reviewer.page, 'Changes requested')).toBeVisible();

  // The submitter sees it without reloading, and resubmits from stage 2.
  await expect(statusBadge(page, 'Changes requested')).toBeVisible();
  await page.getByRole('button', { name: 'Review timeline' }).click();
  await expect(page.getByText('Please add a subject line')).toBeVisible();
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Resubmit' }).click();
  const resubmit = page.getByRole('dialog', { name: 'Submit for approval' });
  await expect(resubmit.getByRole('radio', { name: /Continue from stage 2/ })).toBeChecked();
  await resubmit.getByRole('button', { name: 'Resubmit' }).click();
  await expect(statusBadge(page, 'In review')).toBeVisible();

  // The reviewer sees the resubmission live and approves the last stage.
  await expect(statusBadge(reviewer.page, 'In review')).toBeVisible();
  await decide(reviewer.page, 'Approve', 'Thanks, all good');
  await expect(statusBadge(reviewer.page, 'Approved')).toBeVisible();

  // The submitter publishes the approved email.
  await expect(statusBadge(page, 'Approved')).toBeVisible();
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(statusBadge(page, 'Published')).toBeVisible();
  const workflow = await (
    await page.request.get(`${workspaceApi}/emails/${email.id}/approval_workflow`)
  ).json();
  expect(workflow).toMatchObject({ status: 'completed', round: 2, current_stage_position: 2 });
  // The email's workflow answers 404 until it is first submitted: an expected answer, not a problem.
  const notFound = /status of 404/;
  expect(problems.filter((problem) => !notFound.test(problem))).toEqual([]);
  expect(reviewerProblems).toEqual([]);
  await reviewer.context.close();
});
