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

// On a phone: the review actions, the refusal's problem list and the force publish confirmation fit.
test.use({ storageState: adminStorageState, actionTimeout: 10_000, viewport: { width: 375, height: 740 } });

const unique = Date.now().toString(36);

const statusBadge = (page: Page, label: string) =>
  page.getByRole('heading', { level: 1 }).locator('..').getByText(label, { exact: true });

test('a blocking pre-send problem refuses the submission, listed by locale; force publish overrides it after confirming', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const problems = collectPageProblems(page);
  const { projectId } = await createProjectWithTeam(page, {
    teamName: `Gate team ${unique}`,
    projectName: `Gate project ${unique}`,
    badgeColor: 'red',
  });
  const starter = await starterDesignSystem(page);
  const hero = starter.componentNamed('hero');
  const email = await postJson<{ id: number; email_content: Record<string, unknown> }>(
    page,
    `${workspaceApi}/emails`,
    {
      name: `Gated ${unique}`,
      email_design_system_id: starter.id,
      project_id: projectId,
      locales: ['en-US', 'de-DE'],
    },
  );
  // The German button link left empty: a blocking problem in de-DE only.
  const patched = await page.request.patch(`${workspaceApi}/emails/${email.id}`, {
    data: {
      email_content: {
        ...email.email_content,
        subject: { branch_content: { null_branch: { 'en-US': 'Spring sale', 'de-DE': 'Frühlingsangebot' } } },
        component_instances: [
          {
            id: crypto.randomUUID(),
            component_id: hero.id,
            field_values: {
              null_branch: {
                'en-US': { headline: { value: 'Spring is here' }, image_alt: { value: 'Flowers' } },
                'de-DE': {
                  headline: { value: 'Der Frühling ist da' },
                  image_alt: { value: 'Blumen' },
                  button_url: { value: '' },
                },
              },
            },
          },
        ],
      },
    },
  });
  expect(patched.ok(), await patched.text()).toBe(true);

  await page.goto(`/workspaces/${workspaceId}/emails/${email.id}/edit`);
  // The editor loads the design system and renders in the browser: slow on a busy machine.
  await expect(statusBadge(page, 'Draft')).toBeVisible({ timeout: 20_000 });
  // On a phone the review actions are in the Review sheet.
  await page
    .getByRole('toolbar', { name: 'Review on the phone' })
    .getByRole('button', { name: 'Review' })
    .click();
  await page.getByRole('button', { name: 'Submit for approval' }).click();
  const submit = page.getByRole('dialog', { name: 'Submit for approval' });
  await submit.getByRole('combobox', { name: 'Stage 1 reviewers' }).click();
  await page.getByRole('option', { name: 'Ada Admin' }).click();
  // The reviewers list stays open after a pick and, on a phone, covers the Submit button.
  await page.keyboard.press('Escape');
  await submit.getByRole('button', { name: 'Submit', exact: true }).click();

  // Refused: the dialog lists the de-DE problems, with a way to the component.
  const refusal = page.getByRole('dialog', {
    name: 'Not submitted: the pre-send checks found blocking problems',
  });
  // The checks render every locale first: slow on a busy machine.
  await expect(refusal).toBeVisible({ timeout: 20_000 });
  await expect(
    refusal.getByRole('listitem').filter({ hasText: "de-DE · Hero: Button link can't be blank" }),
  ).toBeVisible();
  const fits = await refusal.evaluate((dialog) => dialog.scrollWidth <= dialog.clientWidth + 1);
  expect(fits, 'the refusal fits a phone’s width').toBe(true);
  await refusal
    .getByRole('button', { name: /^Show the component of/ })
    .first()
    .click();
  await expect(refusal).toBeHidden();
  await expect(statusBadge(page, 'Draft')).toBeVisible();

  // Force publish: the confirmation lists what it overrides.
  await page.getByRole('button', { name: 'More review actions' }).click();
  await page.getByRole('menuitem', { name: /Force publish/ }).click();
  const confirm = page.getByRole('dialog', { name: 'Publish without approval?' });
  await expect(confirm.getByText(/You are overriding \d+ blocking problems?/)).toBeVisible({
    timeout: 20_000,
  });
  await expect(
    confirm.getByRole('listitem').filter({ hasText: 'de-DE · A link has no target' }),
  ).toBeVisible();
  await confirm.getByRole('button', { name: 'Override and publish' }).click();
  await expect(confirm).toBeHidden({ timeout: 20_000 });
  await expect(statusBadge(page, 'Published')).toBeVisible();

  const audit = await (
    await page.request.get('/api/v1/audit_logs?resource_type=emails.force_published&per=100')
  ).json();
  expect(audit.results.map((entry: { resource_id: string }) => entry.resource_id)).toContain(
    String(email.id),
  );
  expect(problems).toEqual([]);
});
