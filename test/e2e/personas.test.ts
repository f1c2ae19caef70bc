import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RULE_TABLE } from '../../src/backends/mock/rule-grammar.js';
import { PERSONAS, runCli, sandbox } from './cli-helpers.js';

describe('persona tasks files on the mock backend', () => {
  it('researcher reaches 1.0 only with both of its joint rules', async () => {
    const box = sandbox();
    const r = await runCli(box, [
      'dry-run',
      '--backend',
      'mock',
      '--json',
      '--tasks-file',
      path.join(PERSONAS, 'researcher.tasks.json'),
    ]);
    expect(r.code, r.stderr).toBe(0);
    const out = r.json();
    expect(out.baseline as number).toBeLessThan(1);
    expect(out.candidate).toBe(1);
    expect(out.accepted).toBe(true);
    expect(out.gate_action).toBe('accept_new_best');
    expect((out.edits as Array<{ content: string }>).map((e) => e.content)).toEqual([
      RULE_TABLE['wrap-answer'],
      RULE_TABLE['units-si'],
    ]);
    expect(out.tasks_reviewed).toBe(true);
    // The night as one trainer step, with per-task deltas.
    const steps = out.steps as Array<Record<string, unknown>>;
    expect(steps).toHaveLength(1);
    expect(steps[0]).toMatchObject({ kind: 'night', lr: 4, accepted: true, val_after: 1 });
    expect(steps[0]?.val_before).toBe(out.baseline);
    const deltas = out.task_deltas as Array<{ status: string }>;
    expect(deltas.length).toBeGreaterThan(0);
    expect(deltas.every((d) => d.status === 'improved')).toBe(true);
  });

  it('programmer reaches 1.0 with its one rule', async () => {
    const box = sandbox();
    const r = await runCli(box, [
      'dry-run',
      '--json',
      '--tasks-file',
      path.join(PERSONAS, 'programmer.tasks.json'),
    ]);
    expect(r.code, r.stderr).toBe(0);
    const out = r.json();
    expect(out.baseline as number).toBeLessThan(1);
    expect(out.candidate).toBe(1);
    expect(out.n_accepted_edits).toBe(1);
    expect(out.learned_rules).toEqual([RULE_TABLE['json-only']]);
  });

  it('dry-run writes nothing into the project', async () => {
    const box = sandbox();
    const r = await runCli(box, ['dry-run', '--tasks-file', path.join(PERSONAS, 'researcher.tasks.json')]);
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(path.join(box.project, '.skillopt-sleep'))).toBe(false);
    expect(existsSync(path.join(box.project, '.claude'))).toBe(false);
  });
});
