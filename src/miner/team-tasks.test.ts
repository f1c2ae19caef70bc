import { describe, expect, it } from 'vitest';
import { emptyTask, type TaskRecord } from '../core/task.js';
import { teamExportTasks, unionTeamTasks } from './team-tasks.js';

const task = (id: string, intent: string, extra: Partial<TaskRecord> = {}): TaskRecord =>
  emptyTask({ id, intent, ...extra });

describe('teamExportTasks', () => {
  it('keeps the recurring kinds and drops the project path and session ids', () => {
    const tasks = [
      task('a', 'add zod', {
        derived_from: 'k1',
        project: '/home/alice/web',
        source_sessions: ['claude:1234'],
        trace_sessions: ['claude:1234', 'claude:5678'],
        reference: 'pnpm add zod',
      }),
      task('b', 'one-off question', { derived_from: 'k2', project: '/home/alice/web' }),
    ];
    const out = teamExportTasks(tasks, new Set(['k1']), { project: '/home/alice/web', home: '/home/alice' });
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ id: 'a', project: '', source_sessions: [], reference: 'pnpm add zod' });
    expect(out[0]).not.toHaveProperty('trace_sessions');
    expect(JSON.stringify(out)).not.toContain('alice');
  });

  it('writes the project and home paths in every text relatively, and redacts again', () => {
    const key = `sk-ant-api03-${'a1B2c3D4e5'.repeat(9)}`;
    const [out] = teamExportTasks(
      [
        task('a', 'fix /home/alice/web/src/app.ts, not /home/alice/webapp', {
          derived_from: 'k1',
          attempted_solution: `$ cat /home/alice/web/package.json /home/alice/.npmrc ${key}`,
          reference_kind: 'rule',
          judge: { kind: 'rule', checks: [{ op: 'contains', arg: '/home/alice/web/src' }] },
        }),
      ],
      new Set(['k1']),
      { project: '/home/alice/web', home: '/home/alice' },
    );
    expect(out?.intent).toBe('fix ./src/app.ts, not ~/webapp');
    expect(out?.attempted_solution).toContain('$ cat ./package.json ~/.npmrc ');
    expect(out?.attempted_solution).not.toContain(key);
    expect(out?.judge).toEqual({ kind: 'rule', checks: [{ op: 'contains', arg: './src' }] });
  });
});

describe('unionTeamTasks', () => {
  it('counts a task two people exported once, whatever its split, path or sessions', () => {
    const alice = task('t1', 'add zod', { split: 'train', project: '/home/alice/web' });
    const bob = task('t1', 'add zod', { split: 'val', project: '/home/bob/web', source_sessions: ['x'] });
    const union = unionTeamTasks([
      { file: 'alice.json', tasks: [alice] },
      { file: 'bob.json', tasks: [bob] },
    ]);
    expect(union.tasks).toEqual([alice]);
    expect(union).toMatchObject({ duplicates: 1, renamed: 0 });
  });

  it('keeps the same content under two ids once (the first id)', () => {
    const union = unionTeamTasks([
      { file: 'a.json', tasks: [task('x', 'add zod')] },
      { file: 'b.json', tasks: [task('y', 'add zod')] },
    ]);
    expect(union.tasks.map((t) => t.id)).toEqual(['x']);
  });

  it('gives every task of a shared id with different content an id of its content, in any file order', () => {
    const a = task('t1', 'add zod');
    const b = task('t1', 'format the code');
    const forward = unionTeamTasks([
      { file: 'a.json', tasks: [a] },
      { file: 'b.json', tasks: [b] },
    ]);
    const backward = unionTeamTasks([
      { file: 'b.json', tasks: [b] },
      { file: 'a.json', tasks: [a] },
    ]);
    expect(forward.renamed).toBe(2);
    const ids = forward.tasks.map((t) => t.id);
    expect(new Set(ids).size).toBe(2);
    for (const id of ids) expect(id).toMatch(/^t1~[0-9a-f]{8}$/);
    const byIntent = (u: typeof forward) => Object.fromEntries(u.tasks.map((t) => [t.intent, t.id]));
    expect(byIntent(backward)).toEqual(byIntent(forward));
  });

  it('leaves unique ids alone and does not reuse an id already taken', () => {
    const union = unionTeamTasks([
      { file: 'a.json', tasks: [task('t1', 'one'), task('t2', 'two')] },
      { file: 'b.json', tasks: [task('t1', 'three')] },
    ]);
    expect(union.tasks.map((t) => t.id)).toContain('t2');
    expect(new Set(union.tasks.map((t) => t.id)).size).toBe(3);
  });

  it('treats key order in the judge as the same content', () => {
    const checksA = { kind: 'rule' as const, checks: [{ op: 'contains' as const, arg: 'pnpm' }] };
    const checksB = JSON.parse('{"checks":[{"arg":"pnpm","op":"contains"}],"kind":"rule"}') as typeof checksA;
    const union = unionTeamTasks([
      { file: 'a.json', tasks: [task('t1', 'add zod', { reference_kind: 'rule', judge: checksA })] },
      { file: 'b.json', tasks: [task('t9', 'add zod', { reference_kind: 'rule', judge: checksB })] },
    ]);
    expect(union.tasks).toHaveLength(1);
  });
});
