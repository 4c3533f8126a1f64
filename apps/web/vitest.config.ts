import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test/setup.ts'],
    // Typing into Mantine forms in jsdom takes seconds when the other projects share the 2 cores.
    testTimeout: 20_000,
  },
});
