import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'web',
    environment: 'jsdom',
    // The build's own checks (bundle-budget.test.ts) beside the app's sources.
    include: ['src/**/*.test.{ts,tsx}', '*.test.ts'],
    setupFiles: ['./src/test/setup.ts'],
    // Typing into Mantine forms in jsdom takes seconds when the other projects share the 2 cores.
    testTimeout: 20_000,
  },
});
