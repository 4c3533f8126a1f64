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

/** The text of a sandboxed preview frame, read from the page (the frame runs no scripts). */
function frameText(page: Page, title: string): Promise<string> {
  return page.evaluate(
    (frameTitle) =>
      document.querySelector<HTMLIFrameElement>(`iframe[title="${frameTitle}"]`)?.contentDocument?.body
        .innerText ?? '',
    title,
  );
}

async function expectSaved(page: Page) {
  await expect(page.getByRole('status', { name: 'Save state' })).toHaveText('Saved', { timeout: 10_000 });
}

test('a few autosaves read as one session in the history, which can be named, previewed and restored', async ({
  page,
}, testInfo) => {
  test.setTimeout(60_000);
  const problems = collectPageProblems(page);

  // An email with a Hero, whose version is named through the API: a named version ends its session.
  const { projectId } = await createProjectWithTeam(page, {
    teamName: `History ${unique}`,
    badgeColor: 'purple',
  });
  const starter = await starterDesignSystem(page);
  const email = await postJson<{ id: number; email_content: Record<string, unknown> }>(
    page,
    `${workspaceApi}/emails`,
    {
      name: `History ${unique}`,
      email_design_system_id: starter.id,
      project_id: projectId,
    },
  );
  const emailApi = `${workspaceApi}/emails/${email.id}`;
  const withHero = await page.request.patch(emailApi, {
    data: {
      email_content: {
        ...email.email_content,
        component_instances: [
          {
            id: '6f1c1a52-2b1e-4e63-9a39-0d4b1f1e2a01',
            component_id: starter.componentNamed('hero').id,
            field_values: { null_branch: { 'en-US': { headline: { value: 'Original headline' } } } },
          },
        ],
      },
    },
  });
  expect(withHero.ok(), await withHero.text()).toBe(true);
  const versions = await (await page.request.get(`${emailApi}/versions`)).json();
  const named = await page.request.patch(`${emailApi}/versions/${versions.results[0].version_id}`, {
    data: { name: 'Ready for copy' },
  });
  expect(named.ok(), await named.text()).toBe(true);

  // Three autosaves of the headline.
  await page.goto(`/workspaces/${workspaceId}/emails/${email.id}/edit`);
  await page.getByRole('button', { name: 'Select Hero' }).click();
  const headline = page.getByRole('textbox', { name: 'Headline', exact: true });
  for (const text of ['Spring', 'Spring is here', 'Spring is here at last']) {
    await headline.fill(text);
    await expectSaved(page);
  }

  // One entry for the session, saying what changed in words; then the named version and the email as created.
  await page.getByRole('tab', { name: 'History' }).click();
  const panel = page.getByRole('tabpanel', { name: 'History' });
  const entries = panel.getByRole('list', { name: 'History' }).getByRole('listitem');
  await expect(entries).toHaveCount(3);
  const session = entries.first();
  await expect(session).toContainText('Edited Hero headline');
  await expect(session).toContainText('3 saves');
  await expect(session).toContainText('Current');
  await expect(entries.nth(1)).toContainText('Ready for copy');
  await expect(entries.nth(2)).toContainText('Created the email');

  // Name the session's last version, from the keyboard.
  await session.getByRole('button', { name: 'Name', exact: true }).click();
  const nameDialog = page.getByRole('dialog', { name: 'Name this version' });
  await expect(nameDialog.getByRole('textbox', { name: 'Name' })).toBeFocused();
  await page.keyboard.type('   ');
  await page.keyboard.press('Enter');
  await expect(nameDialog).toContainText('Enter a name, or clear it.');
  await nameDialog.getByRole('textbox', { name: 'Name' }).fill('Sent to legal');
  await page.keyboard.press('Enter');
  await expect(nameDialog).toBeHidden();
  await expect(session.getByTestId('version-name')).toHaveText('Sent to legal');
  await testInfo.attach('history panel', { body: await panel.screenshot(), contentType: 'image/png' });

  // Preview shows the version the way the editor renders it.
  await session.getByRole('button', { name: 'Preview' }).click();
  const previewDialog = page.getByRole('dialog', { name: /Sent to legal/ });
  // The version's frame is sandboxed to an opaque origin: Playwright reads it through the browser, not the page.
  await expect(previewDialog.frameLocator('iframe[title="Version preview"]').locator('body')).toContainText(
    'Spring is here at last',
  );
  await page.keyboard.press('Escape');
  await expect(previewDialog).toBeHidden();

  // Restoring the named version brings its headline back, as a new entry on top.
  await entries.nth(1).getByRole('button', { name: 'Restore' }).click();
  await page
    .getByRole('dialog', { name: 'Restore this version?' })
    .getByRole('button', { name: 'Restore' })
    .click();
  await expect.poll(() => frameText(page, 'Email preview')).toContain('Original headline');
  // The restored email reopens in the editor on its History, with the restore on top.
  await expect(page.getByRole('tab', { name: 'History' })).toHaveAttribute('aria-selected', 'true');
  await expect(entries).toHaveCount(4);
  await expect(entries.first()).toContainText('Restored “Ready for copy”: Edited Hero headline');
  await expect(entries.nth(1).getByTestId('version-name')).toHaveText('Sent to legal');

  expect(problems).toEqual([]);
});
