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

/** A starter email with a hero, built in the editor at the desktop width. */
async function emailWithHero(page: Page, name: string, badgeColor: string) {
  const { projectId } = await createProjectWithTeam(page, { teamName: name, badgeColor });
  const starter = await starterDesignSystem(page);
  const email = await postJson<{ id: number }>(page, `${workspaceApi}/emails`, {
    name,
    email_design_system_id: starter.id,
    project_id: projectId,
  });
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/workspaces/${workspaceId}/emails/${email.id}/edit`);
  await page.getByRole('button', { name: 'Add Hero', exact: true }).click();
  await expect(page.getByRole('status', { name: 'Save state' })).toHaveText('Saved', { timeout: 10_000 });
  return email;
}

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

test('on a phone, a tap on the preview places the pin, and the comment is saved with it', async ({
  browser,
}) => {
  test.setTimeout(60_000);
  const context = await browser.newContext({
    storageState: adminStorageState,
    viewport: { width: 390, height: 844 },
    hasTouch: true,
    isMobile: true,
  });
  const page = await context.newPage();
  const problems = collectPageProblems(page);
  const email = await emailWithHero(page, `Pinned on the go ${unique}`, 'teal');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/workspaces/${workspaceId}/emails/${email.id}/edit`);

  const phoneBar = page.getByRole('toolbar', { name: 'Review on the phone' });
  await phoneBar.getByRole('button', { name: 'Comments' }).tap();
  await page.getByRole('button', { name: 'Pin a comment' }).tap();
  // The sheet makes way for the preview; a tap there places the pin and brings the sheet back.
  await expect(page.getByRole('dialog', { name: 'Comments' })).toBeHidden();
  await expect.poll(() => instanceBox(page)).not.toBeNull();
  const hero = await instanceBox(page);
  if (!hero) throw new Error('the hero is not in the preview');
  const tap = { x: Math.round(hero.x + hero.width / 2), y: Math.round(hero.y + 30) };
  // The sheet's overlay fades out first: the tap must reach the preview's pin layer.
  await expect
    .poll(() =>
      page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.getAttribute('data-testid'), tap),
    )
    .toBe('pin-capture');
  await page.touchscreen.tap(tap.x, tap.y);
  const sheet = page.getByRole('dialog', { name: 'Comments' });
  await expect(sheet.getByText(/New comment pinned on /)).toBeVisible();
  await sheet.getByRole('combobox', { name: 'Comment' }).fill('Tighter headline on mobile?');
  await sheet.getByRole('button', { name: 'Comment', exact: true }).tap();
  await expect(sheet.locator('[data-thread-id]').first()).toContainText('Tighter headline on mobile?');

  const comments = await (
    await page.request.get(`${workspaceApi}/emails/${email.id}/email_comments?locale=en-US`)
  ).json();
  expect(comments.results[0].pin_data).toMatchObject({ coordinates: { y: expect.any(Number) } });
  expect(comments.results[0].pin_data.component_instance_id).not.toBeNull();

  // With the sheet closed, the pin is on the preview where it was tapped.
  await page.keyboard.press('Escape');
  await expect(sheet).toBeHidden();
  const marker = page.getByTestId('pin-overlay').getByRole('button', { name: 'Pin 1' });
  await expect(marker).toBeVisible();
  const markerBox = await marker.boundingBox();
  expect(Math.abs((markerBox?.x ?? 0) + (markerBox?.width ?? 0) / 2 - tap.x)).toBeLessThan(2);
  expect(Math.abs((markerBox?.y ?? 0) + (markerBox?.height ?? 0) / 2 - tap.y)).toBeLessThan(2);
  expect(problems).toEqual([]);
  await context.close();
});

test('the editor toolbar keeps one row at 1280 and 1440 px with the review actions, audiences, tags and another person showing', async ({
  page,
}) => {
  test.setTimeout(60_000);
  const problems = collectPageProblems(page);
  const email = await emailWithHero(page, `A toolbar that fits on a laptop screen ${unique}`, 'indigo');
  // The widest bar: the Hero shown per audience (the Audience switch), a personalization tag in the
  // workspace (Show tag names, in More actions) and another tab in the email (its avatar).
  await postJson(page, `${workspaceApi}/personalization_tags`, {
    label: `Toolbar tag ${unique}`,
    default_value: 'friend',
    example_value: 'Ada',
  });
  const conditional = await postJson<{ id: number }>(page, `${workspaceApi}/conditionals`, {
    label: `Toolbar audience ${unique}`,
    branches: [
      { key: 'gold', label: 'Gold members' },
      { key: 'others', label: 'Everyone else' },
    ],
    default_value: {
      closing: '{% endif %}',
      branch_values: { gold: '{% if tier == "gold" %}', others: '{% else %}' },
    },
  });
  const saved = await (await page.request.get(`${workspaceApi}/emails/${email.id}`)).json();
  const content = saved.email_content;
  content.component_instances[0].conditional_id = conditional.id;
  const patched = await page.request.patch(`${workspaceApi}/emails/${email.id}`, {
    data: { email_content: content, lock_version: saved.lock_version },
  });
  expect(patched.ok(), await patched.text()).toBe(true);
  const me = await (await page.request.get('/api/v1/me')).json();
  await postJson(page, `${workspaceApi}/emails/${email.id}/approval_workflow`, {
    stages: [{ approval_type: 'one_of', members: [{ user_id: me.user.id }] }],
  });

  const toolbar = page.getByTestId('editor-toolbar');
  for (const width of [1280, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    // This person's other tab, as the server knows it: its avatar shows in the bar.
    const otherTab = await page.request.put(`${workspaceApi}/emails/${email.id}/presence`, {
      data: { session_id: `other-tab-${unique}`, selected_instance_id: null },
    });
    expect(otherTab.ok(), await otherTab.text()).toBe(true);
    await page.goto(`/workspaces/${workspaceId}/emails/${email.id}/edit`);
    await expect(page.getByRole('list', { name: 'Also editing this email' })).toBeVisible();
    // The widest set of review actions: a reviewer's, while the email is in review.
    await expect(page.getByRole('button', { name: 'Approve', exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Request changes', exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Review timeline' })).toBeVisible();
    await expect(page.getByRole('combobox', { name: 'Audience', exact: true })).toBeVisible();
    const button = await page.getByRole('button', { name: 'Approve', exact: true }).boundingBox();
    const bar = await toolbar.boundingBox();
    if (!button || !bar) throw new Error('the toolbar is not on screen');
    // One row: the bar is as tall as one row of its buttons.
    expect(bar.height, `toolbar height at ${width} px`).toBeLessThanOrEqual(button.height + 2);
    expect(bar.x + bar.width).toBeLessThanOrEqual(width);

    // The secondary actions wait behind More actions.
    await page.getByRole('button', { name: 'More actions', exact: true }).click();
    await expect(page.getByRole('menuitem', { name: 'Save as layout' })).toBeVisible();
    await expect(page.getByRole('menuitem', { name: 'Download HTML' })).toBeVisible();
    await expect(page.getByRole('menuitem', { name: 'Show tag names (off)' })).toBeVisible();
    await page.keyboard.press('Escape');
  }
  expect(problems).toEqual([]);
});
