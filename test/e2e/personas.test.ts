import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PERSONAS, runCli, sandbox } from './cli-helpers.js';

const hasPersonas = existsSync(path.join(PERSONAS, 'researcher.tasks.json'));

describe.skipIf(!hasPersonas)('reference persona tasks files on the mock backend', () => {
  it('researcher goes from 0.3333 to 1.0 with both rules', () => {
    const box = sandbox();
    const r = runCli(box, [
      'dry-run',
      '--backend',
      'mock',
      '--json',
      '--tasks-file',
      path.join(PERSONAS, 'researcher.tasks.json'),
    ]);
    expect(r.code).toBe(0);
    const out = r.json();
    expect(out.baseline).toBeCloseTo(0.3333, 4);
    expect(out.candidate).toBe(1);
    expect(out.accepted).toBe(true);
    expect(out.gate_action).toBe('accept_new_best');
    expect((out.edits as Array<{ content: string }>).map((e) => e.content)).toEqual([
      'Always wrap the final answer in <answer>...</answer> tags.',
      'Report arXiv ids in the exact form arXiv:XXXX.XXXXX.',
    ]);
    expect(out.tasks_reviewed).toBe(true);
    // The night as one trainer step, with per-task deltas.
    const steps = out.steps as Array<Record<string, unknown>>;
    expect(steps).toHaveLength(1);
    expect(steps[0]).toMatchObject({ kind: 'night', lr: 4, accepted: true, val_after: 1 });
    expect(steps[0]?.val_before as number).toBeCloseTo(0.3333, 4);
    const deltas = out.task_deltas as Array<{ status: string }>;
    expect(deltas.length).toBeGreaterThan(0);
    expect(deltas.every((d) => d.status === 'improved')).toBe(true);
  });

  it('programmer goes from 0.3194 to 1.0 with the commit rule', () => {
    const box = sandbox();
    const r = runCli(box, [
      'dry-run',
      '--json',
      '--tasks-file',
      path.join(PERSONAS, 'programmer.tasks.json'),
    ]);
    expect(r.code).toBe(0);
    const out = r.json();
    expect(out.baseline).toBeCloseTo(0.3194, 4);
    expect(out.candidate).toBe(1);
    expect(out.n_accepted_edits).toBe(1);
  });

  it('dry-run writes nothing into the project', () => {
    const box = sandbox();
    runCli(box, ['dry-run', '--tasks-file', path.join(PERSONAS, 'researcher.tasks.json')]);
    expect(existsSync(path.join(box.project, '.skillopt-sleep'))).toBe(false);
    expect(existsSync(path.join(box.project, '.claude'))).toBe(false);
  });
});
