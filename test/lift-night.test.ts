/**
 * Honest lift on whole nights (mock backend, tasks files): a candidate that fixes three tasks and
 * breaks one is refused by default and names the broken task; with the gate off it is accepted, and
 * its report says how sure the night is and shows what the broken task answered before and after.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MockBackend } from '../src/backends/mock/mock-backend.js';
import { fixedClock } from '../src/core/clock.js';
import { silentLogger } from '../src/core/logger.js';
import { defaultConfig, type Config } from '../src/config/schema.js';
import { runNight, type NightDeps } from '../src/night/run-night.js';
import { openStore } from '../src/store/db.js';
import { brainBackend, textOf } from './helpers/brain-backend.js';
import { installTask, publishTask, writeTasksFile } from './helpers/pnpm-tasks.js';

function setup() {
  const root = mkdtempSync(path.join(os.tmpdir(), 'sos-lift-'));
  const deps: NightDeps = {
    home: path.join(root, 'state'),
    userHome: path.join(root, 'home'),
    env: {},
    clock: fixedClock(Date.UTC(2026, 10, 29)),
    db: openStore(':memory:'),
    backend: new MockBackend(),
    logger: silentLogger,
  };
  const project = path.join(root, 'project');
  mkdirSync(project);
  return { root, deps, project };
}

const tasksFile = (root: string, tasks: object[]): string =>
  writeTasksFile(root, `tasks-${tasks.length}.json`, tasks);

const VALIDATION = [
  installTask('t1', 'zod', 'train'),
  installTask('t2', 'dayjs', 'train'),
  installTask('v1', 'clsx', 'val'),
  installTask('v2', 'nanoid', 'val'),
  installTask('v3', 'ky', 'val'),
  publishTask('v4', 'val'),
];

describe('a night whose candidate fixes three tasks and breaks one', () => {
  it('is refused by default, and its report names the broken task with both answers', async () => {
    const { root, deps, project } = setup();
    const r = await runNight(
      { project, config: defaultConfig(), mode: 'run', tasksFile: tasksFile(root, VALIDATION) },
      deps,
    );
    expect(r.gate_no_regression).toBe(true);
    expect(r).toMatchObject({ accepted: false, gate_action: 'reject', staging_dir: '', lift: null });
    expect(r.gate_trials[0]).toMatchObject({ blocked_by_regression: true });
    expect(r.regressed_tasks).toEqual([
      {
        task_id: 'v4',
        tags: ['kind:deps'],
        split: 'validation',
        before: 1,
        after: 0,
        answer_before: 'Run npm publish --access public.',
        answer_after: 'Run pnpm publish --access public.',
      },
    ]);
  });

  it('is accepted with the gate off: the lift counts 3 better and 1 worse, and the report shows both answers', async () => {
    const { root, deps, project } = setup();
    const config: Config = { ...defaultConfig(), gate_no_regression: false };
    const r = await runNight({ project, config, mode: 'run', tasksFile: tasksFile(root, VALIDATION) }, deps);
    expect(r.accepted).toBe(true);
    expect(r.lift).toMatchObject({
      split: 'validation',
      n: 4,
      samples: 1,
      improved: ['v1', 'v2', 'v3'],
      regressed: ['v4'],
      // Three pairs went fail → pass, one pass → fail: 2·(1 + 4)/16.
      p_value: 0.625,
      seed: 42,
    });
    expect(r.lift?.mean_diff).toBeCloseTo(0.5, 6);
    // Both sides were the gate's own replays: the comparison asked nothing more.
    expect(r.requests.replays.lift).toBeUndefined();
    expect(r.regressed_tasks.map((t) => [t.task_id, t.split, t.answer_after])).toEqual([
      ['v4', 'validation', 'Run pnpm publish --access public.'],
    ]);
    const md = readFileSync(path.join(r.staging_dir, 'report.md'), 'utf8');
    expect(md).toContain('a task may get worse (no-regression gate off)');
    expect(md).toMatch(
      /how sure, on the validation tasks \(no held-out test: .*optimistic\): \*\*\+0\.50 \(95% interval [^)]*, p = 0\.625, 4 tasks\): could be luck\*\*/,
    );
    expect(md).toContain('## Tasks that got worse');
    expect(md).toContain('- **deps (v4)** (validation): 1.000 → 0.000');
    expect(md).toContain('  - before: “Run npm publish --access public.”');
    expect(md).toContain('  - after: “Run pnpm publish --access public.”');
  });

  it('measures the lift on the held-out test when there is one, and names a test task that got worse', async () => {
    const { root, deps, project } = setup();
    const tasks = [
      ...VALIDATION.filter((t) => t.id !== 'v4'),
      installTask('h1', 'zx', 'test'),
      installTask('h2', 'execa', 'test'),
      publishTask('h3', 'test'),
    ];
    const r = await runNight(
      {
        project,
        config: { ...defaultConfig(), lift_samples: 3 },
        mode: 'run',
        tasksFile: tasksFile(root, tasks),
      },
      deps,
    );
    // The gate saw no task get worse: only the held-out test shows it.
    expect(r.accepted).toBe(true);
    expect(r.test).toEqual({ before: expect.any(Number), after: expect.any(Number) });
    expect(r.lift).toMatchObject({
      split: 'test',
      n: 3,
      samples: 1,
      improved: ['h1', 'h2'],
      regressed: ['h3'],
    });
    expect(r.lift?.notes).toEqual([
      'the mock backend answers the same every time: 1 sample per task (3 asked)',
    ]);
    expect(r.regressed_tasks).toEqual([expect.objectContaining({ task_id: 'h3', split: 'test' })]);
    // Sample 0 of both sides was the test's before and after: the lift asked nothing more.
    expect(r.requests.replays.lift).toBeUndefined();
    expect((r.lift?.mean_diff ?? 0) + (r.test?.before ?? 0)).toBeCloseTo(r.test?.after ?? NaN, 6);
  });
});

describe('a night with several samples on a model backend', () => {
  it('asks the extra samples of both sides once each, under their own index, and counts them', async () => {
    const { root, deps, project } = setup();
    const { provider, backend } = brainBackend();
    const tasks = [
      installTask('t1', 'zod', 'train'),
      installTask('t2', 'dayjs', 'train'),
      installTask('v1', 'clsx', 'val'),
      installTask('h1', 'zx', 'test'),
      installTask('h2', 'execa', 'test'),
    ];
    const file = path.join(root, 'reviewed.json');
    writeFileSync(file, JSON.stringify({ format: 'skillopt_sleep.tasks.v1', reviewed: true, tasks }));
    const r = await runNight(
      { project, config: { ...defaultConfig(), lift_samples: 3 }, mode: 'run', tasksFile: file },
      { ...deps, backend },
    );
    expect(r.lift).toMatchObject({ split: 'test', n: 2, samples: 3, improved: ['h1', 'h2'], notes: [] });
    // Sample 0 was the test's before and after; samples 1 and 2 are new: 2 tasks × 2 sides × 2.
    expect(r.requests.replays.lift).toEqual({
      attempts: 8,
      judges: 0,
      reused_answers: 4,
      reused_verdicts: 0,
    });
    const heldOut = provider.sent.filter((q) => /Add (zx|execa) to the web app/.test(textOf(q)));
    expect(heldOut.map((q) => q.sample ?? 0).sort()).toEqual([0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2]);
  });
});
