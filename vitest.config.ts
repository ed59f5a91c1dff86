import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Dawn for Node and the corpus tests are CPU heavy; two workers match the CI machine.
    maxWorkers: 2,
  },
});
