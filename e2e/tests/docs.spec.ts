import { expect, type Page, test } from '@playwright/test';

/** Runs in the `docs` project: baseURL is the statically served production build of apps/docs. */

const siteTitle = 'Letterset Docs';
/** The e2e API server, which the docs build is pointed at (see playwright.config.ts). */
const apiURL = `http://localhost:${process.env.E2E_PORT ?? 4010}`;

/** Every route of the docs site, with the page title before ` | Letterset Docs`. */
const routes: Record<string, string> = {
  '/': 'Home',
  '/search/': 'Search the documentation',
  '/api/': 'API reference',
  '/blog/': 'Blog',
  '/blog/archive/': 'Archive',
  '/blog/authors/': 'Authors',
  '/blog/tags/': 'Tags',
  '/blog/tags/ai/': 'One post tagged with "AI"',
  '/blog/tags/design/': 'One post tagged with "Design"',
  '/blog/tags/email-generation/': 'One post tagged with "Email generation"',
  '/blog/tags/email/': 'One post tagged with "Email"',
  '/blog/tags/systems/': 'One post tagged with "Systems"',
  '/blog/ai-and-email-design-systems/': 'Why email design systems matter more with AI',
  '/docs/': 'Getting started',
  '/docs/category/getting-started/': 'Getting started',
  '/docs/category/conditionals/': 'Conditionals',
  '/docs/category/personalization-tags/': 'Personalization tags',
  '/docs/category/email-design-systems/': 'Email design systems',
  '/docs/category/how-tos/': 'How-tos',
  '/docs/AI/ai_agents/': 'AI agents',
  '/docs/AI/ai_connectors/': 'AI connectors',
  '/docs/AI/email_chat/': 'Email chat',
  '/docs/AI/image_generation/': 'Image generation',
  '/docs/brand_profiles/': 'Brand profiles',
  '/docs/collaboration/approval_workflows/': 'Approval workflows',
  '/docs/collaboration/comments_and_mentions/': 'Comments and mentions',
  '/docs/collaboration/setting_up_ai_reviewers/': 'Setting up AI reviewers',
  '/docs/connectors/iterable/': 'Iterable',
  '/docs/connectors/salesforce_marketing_cloud/': 'Salesforce Marketing Cloud',
  '/docs/dynamic_content/conditionals/creating_a_conditional/': 'Creating a conditional',
  '/docs/dynamic_content/conditionals/using_a_conditional_in_an_email/': 'Using a conditional in an email',
  '/docs/dynamic_content/dynamic_content_profiles/': 'Dynamic content profiles',
  '/docs/dynamic_content/link_tracking_profiles/': 'Link tracking profiles',
  '/docs/dynamic_content/personalization_tags/creating_a_personalization_tag/':
    'Creating a personalization tag',
  '/docs/dynamic_content/personalization_tags/using_personalization_tags_in_the_editor/':
    'Using personalization tags in the editor',
  '/docs/email_design_systems/avoiding_conflicts_with_esp_code/':
    'Avoiding conflicts with sending-platform code',
  '/docs/email_design_systems/component_builder/': 'Component builder',
  '/docs/email_design_systems/sharing_email_design_systems_across_workspaces/':
    'Sharing email design systems across workspaces',
  '/docs/email_design_systems/how_tos/hide_or_show_content_in_the_preview/':
    'Hide or show content in the preview',
  '/docs/email_design_systems/how_tos/link_tracking/': 'Link tracking',
  '/docs/email_design_systems/how_tos/reference_subject_preheaders/': 'Reference the subject and preheader',
  '/docs/email_design_systems/how_tos/themes/': 'Themes',
  '/docs/feeds/': 'Feeds',
  '/docs/getting_started/creating_your_first_email/': 'Creating your first email',
  '/docs/getting_started/using_the_editor/': 'Using the editor',
  '/docs/image_library/': 'Image library',
  '/docs/layouts/': 'Layouts',
  '/docs/localization/': 'Localization',
  '/docs/roles_and_permissions/': 'Roles and permissions',
  '/docs/team_and_project_organization/': 'Team and project organization',
  '/docs/using_the_api/authentication/': 'Authentication',
  '/docs/using_the_api/creating_an_api_key/': 'Creating an API key',
  '/docs/using_the_api/the_render_api/': 'The render API',
};

/** Fails the test on any script error or console error, after the test body ran. */
function collectPageProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
  page.on('requestfailed', (request) => problems.push(`${request.url()}: ${request.failure()?.errorText}`));
  return problems;
}

test('every route of the spec answers 200 with its title', async ({ request }) => {
  for (const [route, pageTitle] of Object.entries(routes)) {
    const response = await request.get(route);
    expect(response.status(), route).toBe(200);
    expect(titleOf(await response.text()), route).toBe(`${pageTitle} | ${siteTitle}`);
  }
});

test('a docs page renders its title, the navbar and the footer in the browser', async ({ page }) => {
  const problems = collectPageProblems(page);
  await page.goto('/docs/AI/ai_agents/');
  await expect(page).toHaveTitle(`AI agents | ${siteTitle}`);
  await expect(page.getByRole('heading', { level: 1, name: 'AI agents' })).toBeVisible();
  const navbar = page.getByRole('navigation', { name: 'Main' });
  for (const item of ['Articles', 'API', 'Blog']) {
    await expect(navbar.getByRole('link', { name: item, exact: true })).toBeVisible();
  }
  // Home leads to the product's main site, another origin, so it is marked as opening a new tab.
  await expect(navbar.getByRole('link', { name: /^Home/ })).toHaveAttribute('href', apiURL);
  await expect(page.locator('footer')).toContainText('Copyright ©');
  // The brand colour, the same one the API reference uses, overrides the theme's default.
  const primaryColour = await page.evaluate(() =>
    getComputedStyle(document.documentElement).getPropertyValue('--ifm-color-primary').trim(),
  );
  expect(primaryColour).toBe('#1890ff');
  expect(problems).toEqual([]);
});

test('/docs/ lands on the Getting started category', async ({ page }) => {
  await page.goto('/docs/');
  await expect(page).toHaveURL(/\/docs\/category\/getting-started\/$/);
  await expect(page).toHaveTitle(`Getting started | ${siteTitle}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Getting started' })).toBeVisible();
});

test('the navbar search box suggests pages for a known term', async ({ page }) => {
  await page.goto('/');
  const searchBox = page.getByRole('navigation', { name: 'Main' }).getByPlaceholder('Search');
  await searchBox.fill('pagination');
  const suggestions = page.getByRole('option');
  await expect(suggestions.first()).toBeVisible();
  expect(await suggestions.count()).toBeLessThanOrEqual(8);
  await expect(suggestions.first()).toContainText(/pagination/i);
});

test('the search page lists results for a known term and "No results" for nonsense', async ({ page }) => {
  await page.goto('/search/?q=pagination');
  await expect(page).toHaveTitle(`Search results for "pagination" | ${siteTitle}`);
  const firstResult = page.locator('article h2 a').first();
  await expect(firstResult).toBeVisible();
  await expect(page.locator('article mark').first()).toHaveText(/pagination/i);

  await page.goto('/search/?q=zqxjvwkpf');
  await expect(page.getByText('No results', { exact: true })).toBeVisible();
});

test("/api/ renders the live server's OpenAPI document with RapiDoc", async ({ page }) => {
  // RapiDoc's read mode lays out every operation of the document (over a hundred) before the last
  // tag (System, with /healthz) appears: 8.5-10 s measured on a 2-core machine under load.
  test.slow();
  const rendered = { timeout: 60_000 };
  const problems = collectPageProblems(page);
  const specResponses: { url: string; status: number }[] = [];
  page.on('response', (response) => {
    if (response.url().endsWith('/openapi.yml'))
      specResponses.push({ url: response.url(), status: response.status() });
  });
  await page.goto('/api/');

  const reference = page.locator('rapi-doc');
  await expect(reference).toHaveAttribute('spec-url', `${apiURL}/openapi.yml`);
  await expect(reference).toHaveAttribute('primary-color', '#1890ff');
  // Locators pierce RapiDoc's open shadow root.
  await expect(reference.getByText('/healthz').first()).toBeVisible(rendered);
  await expect(reference.getByText('/readyz').first()).toBeVisible(rendered);
  await expect(reference.locator('header')).toHaveCount(0);
  expect(specResponses).toEqual([{ url: `${apiURL}/openapi.yml`, status: 200 }]);
  expect(problems).toEqual([]);
});

test('each API operation has a generated reference page', async ({ page }) => {
  await page.goto('/docs/api-reference/get-health/');
  await expect(page).toHaveTitle(`Check that the server process is up | ${siteTitle}`);
  await expect(page.getByText('/healthz').first()).toBeVisible();
});

test('an unknown path shows the not-found page', async ({ page }) => {
  const response = await page.goto('/docs/no-such-page/');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
});

test('the mobile menu toggle appears at 900 px wide and not at 1200 px', async ({ page }) => {
  const menuToggle = page.getByRole('button', { name: 'Toggle navigation bar' });

  await page.setViewportSize({ width: 900, height: 800 });
  await page.goto('/docs/AI/ai_agents/');
  await expect(menuToggle).toBeVisible();
  await menuToggle.click();
  await expect(page.locator('.navbar-sidebar')).toBeVisible();

  await page.setViewportSize({ width: 1200, height: 800 });
  await page.goto('/docs/AI/ai_agents/');
  await expect(menuToggle).toBeHidden();
});

/** The document title of a server-rendered page, as the browser would show it. */
function titleOf(html: string): string | undefined {
  const encoded = /<title[^>]*>([^<]*)<\/title>/.exec(html)?.[1];
  return encoded
    ?.replaceAll('&quot;', '"')
    .replaceAll('&#x27;', "'")
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');
}
