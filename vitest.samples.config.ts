// The optional real-samples suite: `SKILLOPT_SAMPLES=<folder> npm run test:samples` (see bench/README.md).
import { defineConfig } from 'vitest/config';

process.env.TZ = 'UTC';

export default defineConfig({
  test: {
    include: ['bench/samples/**/*.test.ts'],
    testTimeout: 60_000,
    pool: 'forks',
    env: { TZ: 'UTC' },
  },
});
