import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'harvesters/**/*.test.ts', 'proposals/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    pool: 'forks',
    globalSetup: ['test/global-setup.ts'],
  },
});
