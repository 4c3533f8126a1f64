import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'docs',
    include: ['src/**/*.test.ts'],
    // Each case runs a real (tiny) Docusaurus build.
    testTimeout: 120_000,
  },
});
