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

test.use({ storageState: adminStorageState, actionTimeout: 10_000, viewport: { width: 1440, height: 900 } });

const unique = Date.now().toString(36);
const goldText = 'Thank you for being a gold member';
const everyoneText = 'Join the club today';

/**
 * A conditional with a "Gold members" and an "Everyone else" branch, and an email of the
 * Letterset Starter whose Hero uses it with a different headline in each branch.
 */
async function buildEmailWithAudiences(page: Page): Promise<{ id: number; conditionalLabel: string }> {
  const conditionalLabel = `Membership ${unique}`;
  const conditional = await postJson<{ id: number }>(page, `${workspaceApi}/conditionals`, {
    label: conditionalLabel,
    branches: [
      { key: 'gold', label: 'Gold members' },
      { key: 'others', label: 'Everyone else' },
    ],
    default_value: {
      closing: '{% endif %}',
      branch_values: { gold: '{% if tier == "gold" %}', others: '{% else %}' },
    },
  });
  const { projectId } = await createProjectWithTeam(page, {
    teamName: `Audience team ${unique}`,
    projectName: `Audience project ${unique}`,
    badgeColor: 'orange',
  });
  const starter = await starterDesignSystem(page);
  const hero = starter.componentNamed('hero');
  const email = await postJson<{ id: number; email_content: Record<string, unknown> }>(
    page,
    `${workspaceApi}/emails`,
    { name: `Members offer ${unique}`, email_design_system_id: starter.id, project_id: projectId },
  );
  const heroValues = (headline: string) => ({
    'en-US': {
      headline: { value: headline },
      image_alt: { value: 'A members’ lounge' },
      button_url: { value: 'https://example.com/club' },
    },
  });
  const patched = await page.request.patch(`${workspaceApi}/emails/${email.id}`, {
    data: {
      email_content: {
        ...email.email_content,
        subject: { branch_content: { null_branch: { 'en-US': 'Members offer' } } },
        preheader: { branch_content: { null_branch: { 'en-US': 'For you' } } },
        component_instances: [
          {
            id: crypto.randomUUID(),
            component_id: hero.id,
            conditional_id: conditional.id,
            field_values: { gold: heroValues(goldText), others: heroValues(everyoneText) },
          },
        ],
      },
    },
  });
  expect(patched.ok(), await patched.text()).toBe(true);
  return { id: email.id, conditionalLabel };
}

/** The editor's preview frame runs no script; the test reads its document from the page, as the editor does. */
function editorPreviewText(page: Page): Promise<string> {
  return page.evaluate(
    () =>
      document.querySelector<HTMLIFrameElement>('iframe[title="Email preview"]')?.contentDocument?.body
        .innerText ?? '',
  );
}

async function chooseAudience(page: Page, scope: Page | ReturnType<Page['getByRole']>, audience: string) {
  await scope.getByRole('combobox', { name: 'Audience', exact: true }).click();
  await page.getByRole('option', { name: audience, exact: true }).click();
}

test('the Audience switch shows the email as each branch’s readers see it, in the editor and the Export dialog', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const problems = collectPageProblems(page);
  const email = await buildEmailWithAudiences(page);
  await page.goto(`/workspaces/${workspaceId}/emails/${email.id}/edit`);

  // The preview starts at the conditional's default branch: the last one, "Everyone else".
  const audience = page.getByRole('combobox', { name: 'Audience', exact: true });
  // The editor loads the design system and renders in the browser: slow on a busy machine.
  await expect(audience).toHaveValue('Everyone else', { timeout: 20_000 });
  await expect.poll(() => editorPreviewText(page)).toContain(everyoneText);
  expect(await editorPreviewText(page)).not.toContain(goldText);

  await chooseAudience(page, page, 'Gold members');
  await expect(audience).toHaveValue('Gold members');
  await expect.poll(() => editorPreviewText(page)).toContain(goldText);
  expect(await editorPreviewText(page)).not.toContain(everyoneText);

  await chooseAudience(page, page, 'Everyone else');
  await expect.poll(() => editorPreviewText(page)).toContain(everyoneText);
  expect(await editorPreviewText(page)).not.toContain(goldText);

  // The Export dialog previews the saved email through the server's render, one audience at a time.
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: /Export Members offer/ });
  const preview = dialog.getByRole('group', { name: 'Preview' });
  await expect(
    preview.getByText(
      `Without a profile each conditional shows its default branch: ${email.conditionalLabel}: Everyone else.`,
    ),
  ).toBeVisible();
  const exportPreview = preview.frameLocator('iframe[title="Export preview"]').locator('body');
  // The server renders the saved email: slow on a busy machine.
  await expect(exportPreview).toContainText(everyoneText, { timeout: 30_000 });
  await expect(exportPreview).not.toContainText(goldText);

  await chooseAudience(page, preview, 'Gold members');
  await expect(preview.getByRole('combobox', { name: 'Audience', exact: true })).toHaveValue('Gold members');
  await expect(exportPreview).toContainText(goldText, { timeout: 30_000 });
  await expect(exportPreview).not.toContainText(everyoneText);
  expect(problems).toEqual([]);
});

test('the Audience switch works on a phone', async ({ page }) => {
  test.setTimeout(60_000);
  const problems = collectPageProblems(page);
  await page.setViewportSize({ width: 390, height: 844 });
  const email = await buildEmailWithAudiences(page);
  await page.goto(`/workspaces/${workspaceId}/emails/${email.id}/edit`);

  const audience = page.getByRole('combobox', { name: 'Audience', exact: true });
  // The editor loads the design system and renders in the browser: slow on a busy machine.
  await expect(audience).toBeVisible({ timeout: 20_000 });
  await expect.poll(() => editorPreviewText(page)).toContain(everyoneText);
  await chooseAudience(page, page, 'Gold members');
  await expect.poll(() => editorPreviewText(page)).toContain(goldText);
  expect(await editorPreviewText(page)).not.toContain(everyoneText);
  // The switch fits the phone's width: nothing scrolls sideways.
  const box = await audience.boundingBox();
  expect(box && box.x + box.width).toBeLessThanOrEqual(390);
  expect(problems).toEqual([]);
});
