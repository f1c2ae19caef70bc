/**
 * A dry-run ends with the `run` that stages what it showed (issue 37, item 16): with the options it was
 * given, or run as printed it would be another night.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, sandbox } from './cli-helpers.js';

const SEED = path.resolve(import.meta.dirname, '../fixtures/seeds/seed-rambling');

describe('the run a dry-run suggests', () => {
  it('carries the night options and the tasks file the dry-run was given', async () => {
    const box = sandbox();
    const r = await runCli(box, [
      'dry-run',
      '--backend',
      'mock',
      '--tasks-file',
      SEED,
      '--lookback-hours',
      '0',
      '--edit-budget',
      '2',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const last = r.stdout.trim().split('\n').at(-1) ?? '';
    expect(last).toContain(`skillopt-sleep run --project ${box.project}`);
    for (const part of ['--backend mock', '--lookback-hours 0', '--edit-budget 2', `--tasks-file ${SEED}`])
      expect(last).toContain(part);
  });

  it('quotes what the shell would split', async () => {
    const box = sandbox();
    const r = await runCli(box, [
      'dry-run',
      '--backend',
      'mock',
      '--demo',
      '--preferences',
      'use pnpm; never npm',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("--preferences 'use pnpm; never npm'");
  });
});
