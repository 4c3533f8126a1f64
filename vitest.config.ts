import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['packages/core', 'packages/api-client', 'apps/server', 'apps/web', 'apps/docs'],
  },
});
