import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { adminStorageState } from './support/accounts.ts';
import {
  createProjectWithTeam,
  postJson,
  starterDesignSystem,
  workspaceApi,
  workspaceId,
} from './support/workspace-api.ts';

// The Admin sees every screen; 1440×900 is the laptop the app is designed for first.
test.use({ storageState: adminStorageState, viewport: { width: 1440, height: 900 } });

// WCAG 2.0 and 2.1, levels A and AA.
const wcagTags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

type AxeResults = Awaited<ReturnType<AxeBuilder['analyze']>>;

/** One line per rule and one per element it failed on, with axe's reason (colours and ratio for contrast). */
function readable(violations: AxeResults['violations']): string {
  return violations
    .map((violation) =>
      [
        `${violation.id} (${violation.impact}): ${violation.help}`,
        ...violation.nodes.map(
          (node) =>
            `  ${node.target.join(' > ')}\n    ${(node.failureSummary ?? '').replaceAll('\n', '\n    ')}`,
        ),
      ].join('\n'),
    )
    .join('\n');
}

/** Waits for Mantine's enter transitions (modals, popovers) so colours are checked at full opacity. */
async function transitionsFinished(page: Page) {
  await expect
    .poll(() =>
      page.evaluate(
        () => document.getAnimations().filter((animation) => animation instanceof CSSTransition).length,
      ),
    )
    .toBe(0);
}

/** Runs axe on the page as it stands, failing with every violation listed. */
async function expectNoViolations(page: Page) {
  await expect(page.locator('.mantine-Skeleton-root')).toHaveCount(0);
  await transitionsFinished(page);
  const results = await new AxeBuilder({ page })
    .withTags(wcagTags)
    // Emails' own HTML is the customer's design, rendered in a sandboxed frame without scripts: the
    // rules here are about the app around it.
    .exclude('iframe[sandbox]')
    .analyze();
  expect(readable(results.violations), 'accessibility violations').toBe('');
}

async function openScreen(page: Page, path: string, heading: string) {
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
}

const unique = Date.now().toString(36);

test.beforeAll(async ({ browser }) => {
  // Lists with rows are checked, not only their empty states.
  const context = await browser.newContext({ storageState: adminStorageState });
  const page = await context.newPage();
  const { projectId } = await createProjectWithTeam(page, {
    teamName: `Accessible team ${unique}`,
    badgeColor: 'teal',
  });
  const starter = await starterDesignSystem(page);
  await postJson(page, `${workspaceApi}/emails`, {
    name: `Accessible email ${unique}`,
    email_design_system_id: starter.id,
    project_id: projectId,
  });
  await context.close();
});

const screens: { name: string; path: string; heading: string }[] = [
  { name: 'workspace home', path: `/workspaces/${workspaceId}`, heading: 'Main workspace' },
  { name: 'projects', path: `/workspaces/${workspaceId}/projects`, heading: 'Projects' },
  { name: 'design systems', path: `/workspaces/${workspaceId}/design-systems`, heading: 'Design systems' },
  { name: 'dynamic content', path: `/workspaces/${workspaceId}/dynamic-content`, heading: 'Dynamic content' },
  { name: 'exports', path: `/workspaces/${workspaceId}/exports`, heading: 'Exports' },
  { name: 'settings: users', path: '/settings/users', heading: 'Users' },
  { name: 'settings: roles', path: '/settings/roles', heading: 'Roles' },
  { name: 'settings: teams', path: '/settings/teams', heading: 'Teams' },
  { name: 'settings: workspaces', path: '/settings/workspaces', heading: 'Workspaces' },
  { name: 'account', path: '/account', heading: 'Profile' },
];

for (const screen of screens) {
  test(`${screen.name} has no WCAG 2.1 A or AA violations`, async ({ page }) => {
    await openScreen(page, screen.path, screen.heading);
    await expectNoViolations(page);
  });
}

test("a design system's components tab has no WCAG 2.1 A or AA violations", async ({ page }) => {
  const starter = await starterDesignSystem(page);
  await openScreen(
    page,
    `/workspaces/${workspaceId}/design-systems/${starter.id}?tab=components`,
    'Letterset Starter',
  );
  await expect(page.getByRole('tab', { name: 'Components', selected: true })).toBeVisible();
  await expectNoViolations(page);
});

test('the component builder has no WCAG 2.1 A or AA violations', async ({ page }) => {
  const starter = await starterDesignSystem(page);
  const hero = starter.componentNamed('hero');
  await page.goto(`/workspaces/${workspaceId}/design-systems/${starter.id}/components/${hero.id}`);
  await expect(page.getByRole('textbox', { name: 'Template' })).toBeVisible();
  await expect(page.locator('iframe[title="Component preview"]')).toBeVisible();
  await expectNoViolations(page);
});

/** A new email with a Hero, opened in the editor with the Hero selected. */
async function editorWithHeroSelected(page: Page, name: string) {
  const starter = await starterDesignSystem(page);
  const { projectId } = await createProjectWithTeam(page, {
    teamName: `${name} ${unique}`,
    badgeColor: 'purple',
  });
  const email = await postJson<{ id: number }>(page, `${workspaceApi}/emails`, {
    name: `${name} ${unique}`,
    email_design_system_id: starter.id,
    project_id: projectId,
  });
  await page.goto(`/workspaces/${workspaceId}/emails/${email.id}/edit`);
  await page.getByRole('button', { name: 'Add Hero', exact: true }).click();
  await page.getByRole('button', { name: 'Select Hero' }).click();
  await expect(page.getByRole('button', { name: 'Select Hero' })).toHaveAttribute('aria-current', 'true');
}

test('the editor with a component selected has no WCAG 2.1 A or AA violations', async ({ page }) => {
  await editorWithHeroSelected(page, 'Accessible editing');
  await expectNoViolations(page);
});

test("each of the editor's side panels has no WCAG 2.1 A or AA violations", async ({ page }) => {
  // Six checks of a few seconds each.
  test.setTimeout(90_000);
  await editorWithHeroSelected(page, 'Accessible panels');
  for (const panel of ['Email', 'Validate', 'History', 'Review', 'Localization', 'Chat']) {
    await test.step(panel, async () => {
      await page.getByRole('tab', { name: panel, exact: true }).click();
      await expect(page.getByRole('tab', { name: panel, exact: true })).toHaveAttribute(
        'aria-selected',
        'true',
      );
      await expectNoViolations(page);
    });
  }
});

test("the editor's export dialog, open, has no WCAG 2.1 A or AA violations", async ({ page }) => {
  await editorWithHeroSelected(page, 'Accessible export');
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await expectNoViolations(page);
});

test("a brand profile's dialog with its preview has no WCAG 2.1 A or AA violations", async ({ page }) => {
  const starter = await starterDesignSystem(page);
  await openScreen(page, `/workspaces/${workspaceId}/design-systems/${starter.id}`, 'Letterset Starter');
  await page.getByRole('tab', { name: 'Brand profiles' }).click();
  await page.getByRole('button', { name: 'New brand profile' }).click();
  const dialog = page.getByRole('dialog', { name: 'New brand profile' });
  await expect(dialog.locator('iframe[title="Brand preview"]')).toBeVisible();
  await expectNoViolations(page);
});

test('the notifications, open, have no WCAG 2.1 A or AA violations', async ({ page }) => {
  await openScreen(page, `/workspaces/${workspaceId}`, 'Main workspace');
  await page.getByRole('button', { name: /^Notifications/ }).click();
  await expect(page.getByText('Mark all read')).toBeVisible();
  await expectNoViolations(page);
});

test('a dialog, open, has no WCAG 2.1 A or AA violations', async ({ page }) => {
  await openScreen(page, `/workspaces/${workspaceId}/projects`, 'Projects');
  await page.getByRole('button', { name: 'New project' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await expectNoViolations(page);
});

test.describe('signed out', () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  test('the sign-in page has no WCAG 2.1 A or AA violations', async ({ page }) => {
    await page.goto('/sign-in');
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
    await expectNoViolations(page);
  });
});
