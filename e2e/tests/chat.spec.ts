import { expect, type Page, test } from '@playwright/test';
import { adminStorageState } from './support/accounts.ts';
import { fakeModelRequests, resetFakeModel, scriptFakeModel } from './support/fake-model.ts';
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
// The outside MCP server serve-fakes.ts starts next to the fake model (playwright.config.ts).
const mcpServerUrl = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 4010) + 11}/mcp`;
// What its get_brief tool answers (e2eCampaignBrief in serve-fakes.ts).
const briefText = 'Autumn trail shoes launch. Headline: Trails are calling.';

function previewText(page: Page): Promise<string> {
  return page.evaluate(
    () =>
      document.querySelector<HTMLIFrameElement>('iframe[title="Email preview"]')?.contentDocument?.body
        .innerText ?? '',
  );
}

/** An empty email of the Letterset Starter in a project of its own. */
async function emptyEmail(page: Page): Promise<number> {
  const { projectId } = await createProjectWithTeam(page, {
    teamName: `Chat team ${unique}`,
    projectName: `Chat project ${unique}`,
    badgeColor: 'purple',
  });
  const starter = await starterDesignSystem(page);
  const email = await postJson<{ id: number }>(page, `${workspaceApi}/emails`, {
    name: `Trail launch ${unique}`,
    email_design_system_id: starter.id,
    project_id: projectId,
  });
  return email.id;
}

test.beforeEach(() => resetFakeModel());

test('connects an MCP server, enables a tool, and the chat builds a section from it in one undo step', async ({
  page,
}) => {
  test.setTimeout(60_000);
  const problems = collectPageProblems(page);
  const name = `Briefs ${unique}`;

  // An Admin adds the server, checks it and enables the brief tool; new tools start disabled.
  await page.goto(`/workspaces/${workspaceId}/connectors/mcp`);
  await expect(page.getByText('Add only servers you trust.').first()).toBeVisible();
  await page.getByRole('button', { name: 'New MCP connector' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
  await dialog.getByRole('textbox', { name: 'URL' }).fill(mcpServerUrl);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await dialog.getByRole('button', { name: 'Run health check' }).click();
  const briefTool = dialog.getByRole('switch', { name: 'get_brief' });
  await expect(briefTool).not.toBeChecked();
  await expect(dialog.getByRole('switch', { name: 'list_products' })).not.toBeChecked();
  // The switch turns on once the server has saved it.
  await briefTool.click();
  await expect(briefTool).toBeChecked();
  await dialog.getByRole('button', { name: 'Close' }).click();

  // Each person connects their own account: this server needs no sign-in.
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText('Healthy');
  await row.getByRole('button', { name: `Connect ${name}` }).click();
  await expect(row.getByText('Connected')).toBeVisible();
  const servers = await (await page.request.get(`${workspaceApi}/mcp_servers?per=100`)).json();
  const server = servers.results.find((candidate: { name: string }) => candidate.name === name);

  // The model reads the brief through the MCP tool, then builds the section with Letterset's tools.
  const emailId = await emptyEmail(page);
  await scriptFakeModel(
    { kind: 'toolCalls', calls: [{ name: `mcp${server.id}_get_brief`, arguments: { campaign: 'autumn' } }] },
    {
      kind: 'toolCalls',
      calls: [
        {
          name: 'add_component',
          arguments: { component: 'heading', values: { text: 'Trails are calling', level: 'h1' } },
        },
        {
          name: 'add_component',
          arguments: {
            component: 'rich_text',
            values: { body: '<p>20% off with code TRAIL20 until Sunday.</p>' },
          },
        },
      ],
    },
    { kind: 'text', text: 'I added a headline and the offer from the brief.', delayMs: 300 },
  );
  await page.goto(`/workspaces/${workspaceId}/emails/${emailId}/edit`);
  await page.getByRole('tab', { name: 'Chat' }).click();
  const chat = page.getByRole('tabpanel', { name: 'Chat' });
  await chat
    .getByRole('textbox', { name: 'Message to the assistant' })
    .fill('Build the opening section from the autumn campaign brief.');
  await chat.getByRole('button', { name: 'Send' }).click();

  await expect(chat.getByText('I added a headline and the offer from the brief.')).toBeVisible();
  await expect(chat.getByRole('status')).toContainText('2 changes are in the email as one step');
  // The connector's tool goes by the connector's name, never the model's id for it.
  await expect(chat.getByText(`Used ${name} › get_brief`)).toBeVisible();
  await expect(chat.getByText(/mcp\d+_get_brief/)).toHaveCount(0);
  await expect.poll(() => previewText(page)).toContain('Trails are calling');
  expect(await previewText(page)).toContain('20% off with code TRAIL20 until Sunday.');
  // The tool's answer reached the model: the section came from the brief, not from the prompt.
  const sent = JSON.stringify(await fakeModelRequests());
  expect(sent).toContain(briefText);

  // One undo takes back everything the answer changed; the conversation stays.
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect.poll(() => previewText(page)).not.toContain('Trails are calling');
  expect(await previewText(page)).not.toContain('TRAIL20');
  await page.getByRole('button', { name: 'Redo' }).click();
  await expect.poll(() => previewText(page)).toContain('Trails are calling');

  // The redone section is saved, and the conversation is kept with the email.
  await expect(page.getByRole('status', { name: 'Save state' })).toHaveText('Saved', { timeout: 10_000 });
  await page.reload();
  await page.getByRole('tab', { name: 'Chat' }).click();
  await expect(chat.getByText('Build the opening section from the autumn campaign brief.')).toBeVisible();
  await expect(chat.getByText('I added a headline and the offer from the brief.')).toBeVisible();
  await expect(chat.getByText(`Used ${name} › get_brief`)).toBeVisible();
  await expect.poll(() => previewText(page)).toContain('TRAIL20');
  expect(problems).toEqual([]);
});
