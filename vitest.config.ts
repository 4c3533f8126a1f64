import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['packages/core', 'packages/api-client', 'apps/server', 'apps/web', 'apps/docs', 'scripts'],
    // Vitest's default stays (one worker fewer than the cores): two workers on 2 cores made CI's
    // PGlite run take 23.5 min, longer than the PGlite and PostgreSQL runs together had with one, as
    // a test file's own servers, PGlite and Chromium already keep more than one core busy.
  },
});
