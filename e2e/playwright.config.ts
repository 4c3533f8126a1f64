import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 4010);
const baseURL = `http://localhost:${port}`;
// Clear of the fakes' ports (the app's port + 7 to + 11).
const docsPort = Number(process.env.E2E_DOCS_PORT ?? port + 20);
const docsURL = `http://localhost:${docsPort}`;
// Every run starts from an empty embedded database, like a fresh `npm start`.
// Workers load this file again and inherit the environment, so all of them see one folder: tests
// read the server's mail outbox (invitation links) from `${E2E_DATA_DIR}/outbox`.
process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), 'letterset-e2e-'));
const dataDir = process.env.E2E_DATA_DIR;
// The fake sending platforms (Iterable US and EU, Marketing Cloud) listen on the three ports after this one.
const fakesPort = port + 7;
const connectorEndpoints = JSON.stringify({
  iterableUs: `http://127.0.0.1:${fakesPort}`,
  iterableEu: `http://127.0.0.1:${fakesPort + 1}`,
  salesforceAuth: `http://127.0.0.1:${fakesPort + 2}`,
});
// The fake OpenAI-compatible model server listens on the fourth port after them (serve-fakes.ts);
// tests script its answers through its control endpoints (tests/support/fake-model.ts). An outside
// MCP server listens on the port after it (tests/support/fake-mcp.ts).
const fakeModelUrl = `http://127.0.0.1:${fakesPort + 3}`;
// E2E_APP_ONLY=1 skips the docs build and its tests, for quick runs of the app's own flows.
const appOnly = process.env.E2E_APP_ONLY === '1';

export default defineConfig({
  testDir: './tests',
  timeout: 30_000,
  fullyParallel: false,
  workers: 1,
  forbidOnly: Boolean(process.env.CI),
  reporter: [
    ['list'],
    // .ci/run totals every runner's results from their JSON reports.
    ...(process.env.E2E_JSON_REPORT ? [['json', { outputFile: process.env.E2E_JSON_REPORT }] as const] : []),
    ...(process.env.CI ? [] : [['html', { open: 'never' }] as const]),
  ],
  use: {
    baseURL,
    trace: 'retain-on-failure',
    launchOptions: {
      // Debian's Chromium, never a downloaded browser; these flags keep it off the network.
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  projects: [
    // The first-run screen on the empty server creates the organization the app tests use.
    { name: 'first-run', testMatch: /first-run\.setup\.ts$/ },
    { name: 'app', testIgnore: /(docs\.spec|\.setup)\.ts$/, dependencies: ['first-run'] },
    // The docs site is a separate static site; its /api/ page reads the app server's /openapi.yml.
    ...(appOnly ? [] : [{ name: 'docs', testMatch: /docs\.spec\.ts$/, use: { baseURL: docsURL } }]),
  ],
  webServer: [
    {
      command: `node ../apps/server/src/test/fakes/serve-fakes.ts ${fakesPort} ${baseURL}`,
      // The fake answers 401 without an API key: Playwright counts that as up.
      url: `http://127.0.0.1:${fakesPort}/api/messageTypes`,
      timeout: 30_000,
      reuseExistingServer: false,
      stdout: 'pipe',
    },
    {
      command: 'node ../apps/server/src/main.ts',
      url: `${baseURL}/readyz`,
      timeout: 90_000,
      reuseExistingServer: false,
      stdout: 'pipe',
      env: {
        PORT: String(port),
        DATA_DIR: dataDir,
        PUBLIC_API_URL: baseURL,
        LOG_LEVEL: 'warn',
        DATABASE_URL: '',
        // The docs are served by the second web server below, not on the API server's docs port.
        DOCS_DIST_DIR: '/nonexistent',
        // Feed tests run their feed on this machine, which the SSRF guard refuses by default.
        ALLOW_PRIVATE_NETWORK_FETCH: 'true',
        // Connectors reach the fakes above instead of the real platforms.
        LETTERSET_TEST_CONNECTOR_ENDPOINTS: connectorEndpoints,
        // AI features use the fake model server, as the server's default provider.
        AI_PROVIDER: 'openai_compatible',
        AI_BASE_URL: `${fakeModelUrl}/v1`,
        AI_MODEL: 'e2e-model',
        AI_IMAGE_MODEL: 'e2e-image-model',
      },
    },
    ...(appOnly
      ? []
      : [
          {
            // The production build, served statically, pointed at the e2e API server. This is the one
            // docs build of a test run (and of CI).
            // Built into its own folder: apps/docs/build is what `npm start` serves, for the real API URL.
            command: `npm run build -w @letterset/docs -- --out-dir build-e2e && npm run serve -w @letterset/docs -- --dir build-e2e --port ${docsPort} --no-open`,
            cwd: '..',
            url: `${docsURL}/`,
            timeout: 240_000,
            reuseExistingServer: false,
            env: {
              LETTERSET_API_URL: baseURL,
              LETTERSET_APP_URL: baseURL,
              LETTERSET_SITE_URL: baseURL,
              DOCS_URL: docsURL,
            },
          },
        ]),
  ],
});
