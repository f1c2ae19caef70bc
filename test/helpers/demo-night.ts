// A dry-run night over the bundled demo corpus with a given backend and config, in a temporary home;
// shared by the night tests of the model passes. Call `cleanupDemoNights` after each test.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Backend } from '../../src/backends/types.js';
import { fixedClock } from '../../src/core/clock.js';
import { silentLogger } from '../../src/core/logger.js';
import type { Config } from '../../src/config/schema.js';
import { prepareDemo, type DemoSetup } from '../../src/night/demo.js';
import { runNight, type NightDeps } from '../../src/night/run-night.js';
import type { NightReport } from '../../src/night/night-report.js';
import { openStore } from '../../src/store/db.js';

const demos: DemoSetup[] = [];

export function cleanupDemoNights(): void {
  for (const demo of demos.splice(0)) demo.cleanup();
}

export function demoNight(backend: Backend, config: Config): Promise<NightReport> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'sos-demo-night-'));
  const demo = prepareDemo(path.join(root, 'state'), false);
  demos.push(demo);
  const deps: NightDeps = {
    home: path.join(root, 'state'),
    userHome: path.join(root, 'home'),
    env: {},
    clock: fixedClock(Date.UTC(2026, 10, 29)),
    db: openStore(':memory:'),
    backend,
    logger: silentLogger,
  };
  return runNight(
    {
      project: demo.project,
      config,
      mode: 'dry-run',
      ignoreLookback: true,
      harvestCtx: demo.harvestCtx,
      mapCwd: demo.mapCwd,
    },
    deps,
  );
}
