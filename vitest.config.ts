import { defineConfig } from 'vitest/config';

// Tests read and write local times as UTC whatever the shell's zone (`npx vitest run` included);
// set before the workers are forked so they inherit it, and again in each worker's env.
process.env.TZ = 'UTC';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'harvesters/**/*.test.ts', 'proposals/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    pool: 'forks',
    env: { TZ: 'UTC' },
    globalSetup: ['test/global-setup.ts'],
  },
});
