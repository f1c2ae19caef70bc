/** A tasks file with a mistake in it is refused (exit 2, one line naming the task and the field), never run. */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, sandbox } from './cli-helpers.js';

const rule = (op: string) => ({ kind: 'rule', checks: [{ op, arg: 'pnpm' }] });

describe('dry-run --tasks-file with a mistake in the file', () => {
  it.each([
    [
      'a judge without reference_kind',
      { id: 'j1', intent: 'install deps', judge: rule('contains') },
      'task #0 (id "j1"): field "reference_kind"',
    ],
    [
      'an unknown check op',
      { id: 'f1', intent: 'install deps', reference_kind: 'rule', judge: rule('frobnicate') },
      'task #0 (id "f1"): field "judge": check #0 has unknown op "frobnicate"',
    ],
    [
      'the old split name "holdout"',
      { id: 'h1', intent: 'install deps', split: 'holdout' },
      'task #0 (id "h1"): field "split"',
    ],
  ])('%s is exit 2 naming the task and the field', async (_label, task, message) => {
    const box = sandbox();
    const file = path.join(box.root, 'tasks.json');
    writeFileSync(file, JSON.stringify({ format: 'skillopt_sleep.tasks.v1', tasks: [task] }));
    const r = await runCli(box, ['dry-run', '--backend', 'mock', '--tasks-file', file]);
    expect(r.code, r.stdout).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stdout).not.toContain('[sleep] validation');
  });
});
