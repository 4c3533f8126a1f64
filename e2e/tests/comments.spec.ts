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

/** The box of the first element an instance rendered in the preview, in page coordinates. */
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

async function openReview(page: Page, emailId: number) {
  await page.goto(`/workspaces/${workspaceId}/emails/${emailId}/edit`);
  await page.getByRole('tab', { name: 'Review' }).click();
}

test('people comment on a pin, mention, reply and resolve, and see each other’s comments live', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  const problems = collectPageProblems(page);
  const { teamId, projectId } = await createProjectWithTeam(page, {
    teamName: `Reviewers ${unique}`,
    projectName: `Launch ${unique}`,
    badgeColor: 'purple',
  });
  const starter = await starterDesignSystem(page);
  const email = await postJson<{ id: number }>(page, `${workspaceApi}/emails`, {
    name: `Launch mail ${unique}`,
    email_design_system_id: starter.id,
    project_id: projectId,
  });
  const reviewer = await invitedPerson(page, browser, {
    firstName: 'Rita',
    lastName: `Reviewer${unique}`,
    email: `rita-${unique}@northwind.test`,
    role: 'Editor',
    teamId,
    password: 'reviewer password 42',
  });

  // The author adds a component, then opens the Review tab: nothing to read yet.
  await page.goto(`/workspaces/${workspaceId}/emails/${email.id}/edit`);
  await page.getByRole('button', { name: 'Add Hero', exact: true }).click();
  await expect(page.getByRole('status', { name: 'Save state' })).toHaveText('Saved', { timeout: 10_000 });
  await page.getByRole('tab', { name: 'Review' }).click();
  await expect(page.getByText('No comments on this locale yet.')).toBeVisible();

  // The reviewer has the same email open in another browser.
  await openReview(reviewer.page, email.id);
  await expect(reviewer.page.getByText('No comments on this locale yet.')).toBeVisible();

  // A pin on the hero, with a mention picked from the list.
  await page.getByRole('button', { name: 'Pin a comment' }).click();
  await expect.poll(() => instanceBox(page)).not.toBeNull();
  const hero = await instanceBox(page);
  if (!hero) throw new Error('the hero is not in the preview');
  await page.mouse.click(hero.x + hero.width / 2 + 40, hero.y + 30);
  await expect(page.getByText(/New comment pinned on /)).toBeVisible();
  const box = page.getByRole('combobox', { name: 'Comment' });
  await box.pressSequentially('Is this headline final, @Rita');
  await page.getByRole('option', { name: new RegExp(reviewer.name) }).click();
  await box.pressSequentially('?');
  await page.getByRole('button', { name: 'Comment', exact: true }).click();

  const thread = page.locator('[data-thread-id]').first();
  await expect(thread).toContainText(`Is this headline final, @${reviewer.name} ?`);
  await expect(thread.locator('[data-mention]')).toHaveText(`@${reviewer.name}`);
  // The marker sits where the preview was clicked, and selects its thread.
  const marker = page.getByTestId('pin-overlay').getByRole('button', { name: 'Pin 1' });
  const markerBox = await marker.boundingBox();
  expect(
    Math.abs((markerBox?.x ?? 0) + (markerBox?.width ?? 0) / 2 - (hero.x + hero.width / 2 + 40)),
  ).toBeLessThan(2);
  expect(Math.abs((markerBox?.y ?? 0) + (markerBox?.height ?? 0) / 2 - (hero.y + 30))).toBeLessThan(2);
  // The new thread starts selected; its number in the list lets go of it, its marker takes it again.
  await expect(thread).toHaveAttribute('aria-current', 'true');
  await thread.getByRole('button', { name: 'Pin 1' }).click();
  await expect(thread).not.toHaveAttribute('aria-current', 'true');
  await marker.click();
  await expect(thread).toHaveAttribute('aria-current', 'true');
  const comments = await (
    await page.request.get(`${workspaceApi}/emails/${email.id}/email_comments?locale=en-US`)
  ).json();
  expect(comments.results[0]).toMatchObject({
    body: `Is this headline final, @[${reviewer.name}](user:${reviewer.id}) ?`,
    mentions: [{ id: reviewer.id }],
    pin_data: { coordinates: { y: expect.any(Number) } },
    pin_detached: false,
  });
  expect(comments.results[0].pin_data.component_instance_id).not.toBeNull();

  // The reviewer sees it appear without reloading, with its pin, and finds the mention notification.
  const reviewerThread = reviewer.page.locator('[data-thread-id]').first();
  await expect(reviewerThread).toContainText('Is this headline final', { timeout: 5_000 });
  await expect(reviewer.page.getByRole('button', { name: 'Pin 1' }).first()).toBeVisible();
  const notifications = await (await reviewer.page.request.get('/api/v1/notifications')).json();
  expect(notifications.results[0]).toMatchObject({
    kind: 'mentioned_in_comment',
    message: `Ada Admin mentioned you in a comment on “Launch mail ${unique}”`,
    email: { id: email.id },
  });

  // The reviewer replies; the author sees the reply live.
  await reviewerThread.getByRole('button', { name: 'Reply' }).click();
  await reviewer.page.getByRole('combobox', { name: 'Reply' }).fill('Yes, final.');
  await reviewer.page.getByRole('button', { name: 'Reply', exact: true }).last().click();
  await expect(thread).toContainText('Yes, final.', { timeout: 5_000 });

  // Resolved, the thread leaves the list (and its pin the preview) until resolved ones are shown.
  await thread.getByRole('button', { name: 'Resolve' }).click();
  await expect(page.getByText(/No open threads on this locale/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Pin 1' })).toHaveCount(0);
  await page.getByRole('switch', { name: 'Show resolved' }).click();
  const resolved = page.locator('[data-thread-id]').first();
  await expect(resolved).toContainText('Resolved by Ada Admin');
  await expect(resolved).toContainText('Yes, final.');
  await expect(resolved.getByRole('button', { name: 'Reopen' })).toBeVisible();

  expect(problems).toEqual([]);
  await reviewer.context.close();
});
