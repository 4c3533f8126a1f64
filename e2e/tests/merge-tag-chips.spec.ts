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
const tagLabel = `First name ${unique}`;
const exampleValue = 'Ada';

interface FieldValues {
  [variable: string]: { value: unknown };
}
interface SavedEmail {
  email_content: { component_instances: { field_values: { null_branch: { 'en-US': FieldValues } } }[] };
}

/** A personalization tag, and an email of the Letterset Starter with a Text and a Heading. */
async function buildEmail(page: Page): Promise<{ emailId: number; tagId: number }> {
  const tag = await postJson<{ id: number }>(page, `${workspaceApi}/personalization_tags`, {
    label: tagLabel,
    default_value: 'friend',
    example_value: exampleValue,
  });
  const { projectId } = await createProjectWithTeam(page, {
    teamName: `Tag team ${unique}`,
    badgeColor: 'purple',
  });
  const starter = await starterDesignSystem(page);
  const email = await postJson<{ id: number; email_content: Record<string, unknown> }>(
    page,
    `${workspaceApi}/emails`,
    { name: `Tagged ${unique}`, email_design_system_id: starter.id, project_id: projectId },
  );
  const instance = (component: string, values: FieldValues) => ({
    id: crypto.randomUUID(),
    component_id: starter.componentNamed(component).id,
    field_values: { null_branch: { 'en-US': values } },
  });
  const patched = await page.request.patch(`${workspaceApi}/emails/${email.id}`, {
    data: {
      email_content: {
        ...email.email_content,
        subject: { branch_content: { null_branch: { 'en-US': 'Tags' } } },
        component_instances: [
          instance('rich_text', { body: { value: '<p>Hello</p>' } }),
          instance('heading', { text: { value: 'Welcome' } }),
        ],
      },
    },
  });
  expect(patched.ok(), await patched.text()).toBe(true);
  return { emailId: email.id, tagId: tag.id };
}

/** The preview frame runs no script: the test reads its document from the page, as the editor does. */
function previewText(page: Page): Promise<string> {
  return page.evaluate(
    () =>
      document.querySelector<HTMLIFrameElement>('iframe[title="Email preview"]')?.contentDocument?.body
        .innerText ?? '',
  );
}

async function savedValues(page: Page, emailId: number): Promise<FieldValues[]> {
  await expect(page.getByRole('status', { name: 'Save state' })).toHaveText('Saved', { timeout: 10_000 });
  const saved = (await (await page.request.get(`${workspaceApi}/emails/${emailId}`)).json()) as SavedEmail;
  return saved.email_content.component_instances.map(
    (instance) => instance.field_values.null_branch['en-US'],
  );
}

test('personalization tags are chips: inserted with { or the button, previewed with example values or names, deleted with one Backspace', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const problems = collectPageProblems(page);
  const { emailId, tagId } = await buildEmail(page);
  await page.goto(`/workspaces/${workspaceId}/emails/${emailId}/edit`);
  await expect.poll(() => previewText(page), { timeout: 20_000 }).toContain('Hello');

  // Rich text: typing { opens the picker at the caret; typing filters it, Enter inserts the chip.
  await page.getByRole('button', { name: 'Select Text' }).click();
  const body = page.getByRole('textbox', { name: 'Text', exact: true });
  await body.click();
  await page.keyboard.press('End');
  await page.keyboard.type('{');
  const picker = page.getByRole('listbox', { name: 'Personalization tags' });
  await expect(picker).toBeVisible();
  await page.keyboard.type(unique);
  await expect(picker.getByRole('option')).toHaveText([tagLabel]);
  await page.keyboard.press('Enter');
  await expect(picker).toBeHidden();
  // One chip with the tag's label, a space before it as it follows a word.
  await expect(body.locator('.ls-tag-chip')).toHaveText(tagLabel);
  await expect.poll(() => previewText(page)).toContain(`Hello ${exampleValue}`);
  expect((await savedValues(page, emailId))[0]?.body?.value).toBe(`<p>Hello {tag:${tagId}}</p>`);

  // The preview shows the tags' names instead of their example values while the setting is on;
  // below 1600 px it waits in More actions, as a checked entry.
  const toggleNames = async (checked: boolean) => {
    await page.getByRole('button', { name: 'More actions', exact: true }).click();
    await page.getByRole('menuitem', { name: `Show tag names (${checked ? 'off' : 'on'})` }).click();
  };
  await toggleNames(true);
  await expect.poll(() => previewText(page)).toContain(`Hello {${tagLabel}}`);
  await toggleNames(false);
  await expect.poll(() => previewText(page)).toContain(`Hello ${exampleValue}`);
  // On a wide screen it is a switch in the bar.
  await page.setViewportSize({ width: 1680, height: 900 });
  const showNames = page.getByRole('switch', { name: 'Show tag names' });
  await showNames.check();
  await expect.poll(() => previewText(page)).toContain(`Hello {${tagLabel}}`);
  await showNames.uncheck();
  await page.setViewportSize({ width: 1440, height: 900 });

  // One Backspace after the chip takes the whole chip.
  await body.click();
  await page.keyboard.press('End');
  await page.keyboard.press('Backspace');
  await expect(body.locator('.ls-tag-chip')).toHaveCount(0);
  await expect(body).toHaveText('Hello');
  await expect.poll(() => previewText(page)).not.toContain(exampleValue);

  // A plain text field: the button opens the same picker, with a search box.
  await page.getByRole('button', { name: 'Select Heading' }).click();
  const heading = page.getByRole('textbox', { name: 'Text', exact: true });
  await expect(heading).toHaveText('Welcome');
  await heading.click();
  await page.keyboard.press('End');
  await page.getByRole('button', { name: 'Insert a personalization tag into Text' }).click();
  await expect(page.getByRole('textbox', { name: 'Search personalization tags' })).toBeFocused();
  await page.keyboard.type(unique);
  await page.keyboard.press('Enter');
  await expect(heading.locator('.ls-tag-chip')).toHaveText(tagLabel);
  await expect.poll(() => previewText(page)).toContain(`Welcome ${exampleValue}`);
  const values = await savedValues(page, emailId);
  expect(values[0]?.body?.value).toBe('<p>Hello </p>');
  expect(values[1]?.text?.value).toBe(`Welcome {tag:${tagId}}`);

  expect(problems).toEqual([]);
});
