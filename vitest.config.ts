import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['packages/core', 'packages/api-client', 'apps/server', 'apps/web', 'apps/docs', 'scripts'],
    // Vitest's default for a run is one worker fewer than the cores: on the 2-core machines the
    // project runs on, that ran one test file at a time and left a core idle.
    maxWorkers: '100%',
  },
});
