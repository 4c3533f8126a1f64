import { defineConfig } from '@playwright/test';
import base from './playwright.config.ts';

// `npm run screenshots`: the docs' pictures of the main screens, taken from a fresh server with
// demo data. Not part of the test run.
// The app server and the fake sending platforms it is pointed at; not the docs site.
const servers = (Array.isArray(base.webServer) ? base.webServer : [base.webServer]).filter(
  (server): server is NonNullable<typeof server> =>
    server !== undefined && !server.command.includes('@letterset/docs'),
);

export default defineConfig({
  ...base,
  reporter: [['list']],
  webServer: servers,
  projects: [
    { name: 'first-run', testDir: './tests', testMatch: /first-run\.setup\.ts$/ },
    {
      name: 'screenshots',
      testDir: '.',
      testMatch: /screenshots\.ts$/,
      dependencies: ['first-run'],
      use: { viewport: { width: 1280, height: 800 } },
    },
  ],
});
