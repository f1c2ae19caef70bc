import { defineConfig } from 'vitest/config';

// Tests read and write local times as UTC whatever the shell's zone (`npx vitest run` included);
// set before the workers are forked so they inherit it, and again in each worker's env.
process.env.TZ = 'UTC';

// Two projects: `unit` (beside the code, no spawned CLI) and `e2e` (the CLI end to end, in-process or
// spawned from dist, which only this project's global setup builds). `npm run test:unit` runs one.
export default defineConfig({
  test: {
    testTimeout: 30_000,
    pool: 'forks',
    env: { TZ: 'UTC' },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          // Unit tests share no global state, so each worker reuses one module graph across files:
          // the tier's wall time is its tests, not 130 fresh imports of the same modules.
          isolate: false,
          include: [
            'src/**/*.test.ts',
            'harvesters/**/*.test.ts',
            'proposals/**/*.test.ts',
            'test/*.test.ts',
          ],
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/global-setup.ts'],
          // The in-process CLI keeps nothing between runs (its I/O is per run), so files share one
          // module graph per worker too; spawned tests have their own processes anyway.
          isolate: false,
        },
      },
    ],
  },
});
