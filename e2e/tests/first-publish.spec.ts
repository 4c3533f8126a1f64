import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect as baseExpect, type Page, test } from '@playwright/test';
import { collectPageProblems } from './support/page-problems.ts';

// The app tests share one server whose organization the first-run project already made. This
// test needs an empty one: it starts its own Letterset on a fresh embedded database, like a new
// `npm start`, on a port clear of the others (the app's, the fakes' and the docs').
const port = Number(process.env.E2E_PORT ?? 4010) + 33;
const baseURL = `http://localhost:${port}`;
const serverEntry = path.join(import.meta.dirname, '..', '..', 'apps', 'server', 'src', 'main.ts');

// Setup, creating an email from a layout and the pre-send checks of each review step all render
// on the server: on a busy machine they take longer than the default five seconds.
const expect = baseExpect.configure({ timeout: 30_000 });

let server: ChildProcess | undefined;
let dataDir: string | undefined;
let serverOutput = '';

test.beforeAll(async () => {
  test.setTimeout(120_000);
  dataDir = mkdtempSync(path.join(tmpdir(), 'letterset-first-publish-'));
  server = spawn(process.execPath, [serverEntry], {
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      PUBLIC_API_URL: baseURL,
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      DOCS_DIST_DIR: '/nonexistent',
      AI_PROVIDER: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout?.on('data', (chunk) => {
    serverOutput += chunk;
  });
  server.stderr?.on('data', (chunk) => {
    serverOutput += chunk;
  });
  const deadline = Date.now() + 110_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`the server stopped at start-up:\n${serverOutput}`);
    const ready = await fetch(`${baseURL}/readyz`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) throw new Error(`the server did not start in time:\n${serverOutput}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
});

test.afterAll(async () => {
  if (server && server.exitCode === null) {
    const stopped = new Promise((resolve) => server?.once('exit', resolve));
    server.kill('SIGTERM');
    await stopped;
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

test.afterEach(() => {
  // What the server said, to tell a server-side failure from a screen that changed.
  const info = test.info();
  if (info.status !== info.expectedStatus) console.log(serverOutput.slice(-4000));
});

test.use({ baseURL, storageState: { cookies: [], origins: [] }, actionTimeout: 15_000 });

const statusBadge = (page: Page, label: string) =>
  page.getByRole('heading', { level: 1 }).locator('..').getByText(label, { exact: true });

test('a new organization goes from setup to a first published email, only through what the screens show', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const problems = collectPageProblems(page);

  // The one typed address: the server's root, which sends an empty server to its first-run screen.
  await page.goto('/');
  await expect(page).toHaveURL(/\/setup$/);
  await page.getByLabel('Organization name').fill('Fresh Start Outfitters');
  await page.getByLabel('First name').fill('Fay');
  await page.getByLabel('Last name').fill('Founder');
  await page.getByLabel('Email').fill('fay@fresh-start.test');
  await page.getByRole('textbox', { name: 'Password' }).fill('a long founder password');
  await page.getByRole('button', { name: 'Create organization' }).click();
  await expect(page.getByRole('heading', { name: 'Main workspace' })).toBeVisible();

  // The workspace home says where to start, and nothing is done yet.
  const start = page.getByRole('region', { name: 'Get started' });
  await expect(start.getByRole('listitem', { name: 'Create a project', exact: true })).toBeVisible();
  await expect(start.getByRole('listitem', { name: 'Create an email', exact: true })).toBeVisible();
  await expect(start.getByRole('listitem', { name: 'Invite people', exact: true })).toBeVisible();
  await expect(
    start.getByRole('listitem', { name: 'Connect a sending platform', exact: true }),
  ).toBeVisible();
  await expect(start).toContainText('0 of 4 done');

  // A project: the organization's default team is the only one, so it is already chosen.
  await start.getByRole('button', { name: 'New project' }).click();
  const projectDialog = page.getByRole('dialog', { name: 'New project' });
  await expect(projectDialog.getByRole('combobox', { name: 'Team' })).toHaveValue('Fresh Start Outfitters');
  await projectDialog.getByRole('textbox', { name: 'Name' }).fill('Welcome series');
  await projectDialog.getByRole('button', { name: 'Create project' }).click();
  await expect(page.getByRole('heading', { name: 'Welcome series', level: 1 })).toBeVisible();

  // The empty project says what to do next; the only design system is already chosen.
  await expect(page.getByText('No emails in this project yet.')).toBeVisible();
  await page.getByRole('button', { name: 'Create the first email' }).click();
  const emailDialog = page.getByRole('dialog', { name: 'New email' });
  await expect(emailDialog.getByRole('combobox', { name: 'Design system', exact: true })).toHaveValue(
    'Letterset Starter',
  );
  await emailDialog.getByRole('textbox', { name: 'Name' }).fill('Welcome aboard');
  await emailDialog.getByRole('combobox', { name: 'Start from layout' }).click();
  await page.getByRole('option').filter({ hasText: 'Welcome' }).click();
  await emailDialog.getByRole('button', { name: 'Create email' }).click();
  await expect(page).toHaveURL(/\/emails\/\d+\/edit$/);

  // A text of its own in the hero, found in the outline.
  await page.getByRole('tab', { name: 'Outline' }).click();
  await page.getByRole('button', { name: 'Select Hero' }).click();
  const headline = page.getByRole('textbox', { name: 'Headline', exact: true });
  await headline.fill('Welcome to Fresh Start, Fay');
  await expect(page.getByRole('status', { name: 'Save state' })).toHaveText('Saved');
  await expect
    .poll(() =>
      page.evaluate(
        () =>
          document.querySelector<HTMLIFrameElement>('iframe[title="Email preview"]')?.contentDocument?.body
            ?.textContent ?? '',
      ),
    )
    .toContain('Welcome to Fresh Start, Fay');

  // Review by the only person there is: the Admin submits to herself, approves, and publishes.
  await expect(statusBadge(page, 'Draft')).toBeVisible();
  await page.getByRole('button', { name: 'Submit for approval' }).click();
  const submit = page.getByRole('dialog', { name: 'Submit for approval' });
  await submit.getByLabel('Stage 1 reviewers').click();
  await page.getByRole('option', { name: 'Fay Founder' }).click();
  await page.keyboard.press('Escape');
  await submit.getByRole('button', { name: 'Submit', exact: true }).click();
  await expect(submit).toBeHidden();
  await expect(statusBadge(page, 'In review')).toBeVisible();

  await page.getByRole('button', { name: 'Approve', exact: true }).click();
  const approve = page.getByRole('dialog', { name: 'Approve' });
  await approve.getByRole('textbox').fill('Ready to go');
  await approve.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(approve).toBeHidden();
  await expect(statusBadge(page, 'Approved')).toBeVisible();

  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(statusBadge(page, 'Published')).toBeVisible();

  // Back home through the header: the first two steps are ticked off.
  await page.getByRole('link', { name: 'Letterset', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Main workspace' })).toBeVisible();
  await expect(start.getByRole('listitem', { name: 'Create a project (done)' })).toBeVisible();
  await expect(start.getByRole('listitem', { name: 'Create an email (done)' })).toBeVisible();
  await expect(start).toContainText('2 of 4 done');
  await expect(
    page
      .getByRole('region', { name: 'Recently changed emails' })
      .getByRole('link', { name: 'Welcome aboard' }),
  ).toBeVisible();
  expect(problems).toEqual([]);
});
