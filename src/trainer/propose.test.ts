import { describe, expect, it } from 'vitest';
import type { Backend, ReflectRequest, SupportedEdit, Trajectory } from '../backends/types.js';
import { zeroUsage } from '../core/usage.js';
import { emptyTask, type Edit } from '../core/task.js';
import { BLOCK_END, BLOCK_START, withRules } from './learned-block.js';
import { dedupeEdits, proposeEdits, rankEdits, type ProposeInput } from './propose.js';
import { AnswerPendingError, BackendError, BudgetExhaustedError } from '../core/errors.js';

const add = (content: string, rationale = ''): Edit => ({
  target: 'skill',
  op: 'add',
  content,
  anchor: '',
  rationale,
});
const sup = (e: Edit, support = 1, source: SupportedEdit['source'] = 'failure'): SupportedEdit => ({
  ...e,
  support,
  source,
});
const traj = (id: string, hard: number): Trajectory => ({
  task: emptyTask({ id, intent: id }),
  response: '',
  score: { hard, soft: hard, rationale: '' },
});

/** Each reflection call proposes one rule per failed task id (and "success rule" for successes). */
function scriptedBackend(extra: Partial<Backend> = {}): Backend & { calls: ReflectRequest[] } {
  const calls: ReflectRequest[] = [];
  return {
    name: 'scripted',
    offline: true,
    calls,
    attempt: () => Promise.reject(new Error('unused')),
    judgeRubric: () => Promise.reject(new Error('unused')),
    reflect: (req) => {
      calls.push(req);
      const edits = [
        ...req.failures.map((f) => add(`Rule for ${f.task.id.replace(/\d+$/, '')}.`)),
        ...req.successes.map(() => add('Success rule.')),
      ];
      return Promise.resolve({ edits, usage: { calls: 1, inputTokens: 0, outputTokens: 0 } });
    },
    ...extra,
  };
}

const input = (backend: Backend, over: Partial<ProposeInput> = {}): ProposeInput => ({
  backend,
  doc: '# Skill\n',
  otherDoc: '',
  failures: [traj('a1', 0), traj('a2', 0), traj('a3', 0), traj('b1', 0), traj('c1', 0)],
  successes: [traj('s1', 1), traj('s2', 1)],
  minibatchSize: 1,
  reflectSuccesses: false,
  reflectBudget: 4,
  select: 2,
  rejected: [],
  preferences: '',
  workers: 2,
  seed: 1,
  usage: zeroUsage(),
  ...over,
});

describe('proposeEdits', () => {
  it('reflects once per minibatch of failures and keeps the learning rate worth of best-supported edits', async () => {
    const backend = scriptedBackend();
    const p = await proposeEdits(input(backend));
    expect(backend.calls).toHaveLength(5);
    expect(p.proposed).toHaveLength(5);
    expect(new Set(p.ranked.map((e) => e.content))).toEqual(
      new Set(['Rule for a.', 'Rule for b.', 'Rule for c.']),
    );
    expect(p.ranked[0]).toMatchObject({ content: 'Rule for a.', support: 3 });
    expect(p.selected).toHaveLength(2);
    expect(p.selected[0]?.content).toBe('Rule for a.');
    expect(p.merge).toBe('none');
  });

  it('reflects on successes only when asked, and ranks their edits after failure-driven ones', async () => {
    const off = scriptedBackend();
    await proposeEdits(input(off, { minibatchSize: 2 }));
    expect(off.calls.every((c) => c.successes.length === 0)).toBe(true);
    const on = scriptedBackend();
    const p = await proposeEdits(input(on, { minibatchSize: 2, reflectSuccesses: true, select: 9 }));
    expect(on.calls.filter((c) => c.successes.length > 0)).toHaveLength(1);
    expect(p.ranked.at(-1)).toMatchObject({ content: 'Success rule.', source: 'success' });
  });

  it('minibatch size 0 makes one call with failures and successes together (how a night reflects)', async () => {
    const backend = scriptedBackend();
    await proposeEdits(input(backend, { minibatchSize: 0 }));
    expect(backend.calls).toHaveLength(1);
    expect(backend.calls[0]?.failures).toHaveLength(5);
    expect(backend.calls[0]?.successes).toHaveLength(2);
  });

  it('drops edits that lowered the score before, and passes the meta note to reflection', async () => {
    const backend = scriptedBackend();
    const p = await proposeEdits(
      input(backend, {
        rejected: [{ target: 'skill', op: 'add', content: 'rule for A.', delta: -0.1 }],
        metaNote: 'epoch 1: rules about b helped',
      }),
    );
    expect(p.ranked.map((e) => e.content)).not.toContain('Rule for a.');
    expect(backend.calls[0]?.metaNote).toBe('epoch 1: rules about b helped');
    // The rejected-edit buffer is shown to every reflection call.
    expect(backend.calls.every((c) => c.rejected.length === 1 && c.rejected[0]?.delta === -0.1)).toBe(true);
  });

  it('uses the backend merge when its reply is usable', async () => {
    const backend = scriptedBackend({
      mergeEdits: (req) =>
        Promise.resolve({
          edits: [{ op: 'add', content: `Merged ${req.edits.length} rules.`, support: 5 }],
          usage: { calls: 1, inputTokens: 0, outputTokens: 0 },
        }),
    });
    const p = await proposeEdits(input(backend));
    expect(p.merge).toBe('backend');
    expect(p.ranked).toEqual([expect.objectContaining({ content: 'Merged 3 rules.', support: 5 })]);
  });

  it('falls back to de-duplication when the merge reply is unusable', async () => {
    for (const mergeEdits of [
      () => Promise.resolve({ edits: [{ op: 'explode', content: 'x' }], usage: zeroUsage() }),
      () => Promise.resolve({ edits: [null], usage: zeroUsage() }),
      () => Promise.resolve({ edits: [], usage: zeroUsage() }),
      () => Promise.reject(new SyntaxError('Unexpected token in sk-secret')),
    ]) {
      const p = await proposeEdits(input(scriptedBackend({ mergeEdits })));
      expect(p.merge).toBe('fallback');
      expect(p.ranked[0]).toMatchObject({ content: 'Rule for a.', support: 3 });
      expect(p.ranked).toHaveLength(3);
    }
  });

  it('a spent budget or an auth failure during the merge propagates instead of falling back', async () => {
    for (const err of [
      new BudgetExhaustedError('max_calls reached', 'max_calls'),
      new BackendError('401 auth'),
    ]) {
      const mergeEdits = (): Promise<never> => Promise.reject(err);
      await expect(proposeEdits(input(scriptedBackend({ mergeEdits })))).rejects.toBe(err);
    }
  });
});

describe('a merge waiting for a handoff answer', () => {
  it('stops the night instead of falling back to de-duplication', async () => {
    const backend = scriptedBackend({ mergeEdits: () => Promise.reject(new AnswerPendingError('abc')) });
    await expect(proposeEdits(input(backend))).rejects.toBeInstanceOf(AnswerPendingError);
  });
});

describe('dedupeEdits and rankEdits', () => {
  it('merges identical edits (case and spacing aside) and keeps one edit per replaced anchor', () => {
    const replace = (content: string): Edit => ({
      target: 'skill',
      op: 'replace',
      content,
      anchor: 'old rule',
      rationale: '',
    });
    const out = dedupeEdits([
      sup(add('Use pnpm.')),
      sup(add('use  PNPM.')),
      sup(replace('New rule A.'), 1),
      sup(replace('New rule B.'), 2),
    ]);
    expect(out.map((e) => [e.content, e.support])).toEqual([
      ['Use pnpm.', 2],
      ['New rule B.', 2],
    ]);
  });

  it('ranks failure-driven edits first, then by support, stable on ties', () => {
    const ranked = rankEdits([
      sup(add('s'), 9, 'success'),
      sup(add('f1'), 1),
      sup(add('f2'), 3),
      sup(add('f3'), 1),
    ]);
    expect(ranked.map((e) => e.content)).toEqual(['f2', 'f1', 'f3', 's']);
  });
});

describe('proposeEdits tells reflection whether the learned block exists yet', () => {
  it.each([
    ['# Skill\n', 'absent'],
    [`# Skill\n\n${BLOCK_START}\n${BLOCK_END}\n`, 'empty'],
    [withRules('# Skill\n', ['Use pnpm.']), 'filled'],
  ])('case %#', async (doc, state) => {
    const backend = scriptedBackend();
    await proposeEdits(input(backend, { doc }));
    expect(backend.calls.map((c) => c.learnedBlock)).toEqual(backend.calls.map(() => state));
    expect(backend.calls.length).toBeGreaterThan(0);
  });
});
