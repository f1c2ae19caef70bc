import { describe, expect, it } from 'vitest';
import { emptyTask, type Edit, type TaskRecord } from '../core/task.js';
import type { ReplayResult } from '../replay/replay.js';
import { learnedRules } from './learned-block.js';
import { selectEdits, TIE_REASON } from './select-edits.js';

const add = (content: string): Edit => ({ target: 'skill', op: 'add', content, anchor: '', rationale: '' });
const tasks = ['v1', 'v2', 'v3'].map((id) => emptyTask({ id, intent: id, split: 'val' }));

/** A fake val judge: each task passes when the skill's rules satisfy it. */
function judge(doc: string): ReplayResult[] {
  const rules = learnedRules(doc);
  const has = (x: string): boolean => rules.includes(x);
  const pass = (id: string): boolean => {
    if (has('HARM')) return false;
    if (id === 'v1') return has('A') && has('B'); // only together
    if (id === 'v2') return has('C');
    return false;
  };
  return tasks.map((task) => {
    const hard = pass(task.id) ? 1 : 0;
    return { task, response: '', toolsCalled: [], hard, soft: hard, rationale: '', latencyMs: 0, tokens: 0 };
  });
}

const run = (edits: Edit[]) =>
  selectEdits({
    baseDoc: '# Skill\n',
    edits,
    baselineResults: judge('# Skill\n'),
    metric: { metric: 'hard', mixedWeight: 0.5 },
    noRegression: false,
    replay: (_phase, _tasks, doc) => Promise.resolve(judge(doc)),
  });

describe('selectEdits', () => {
  it('keeps rules that only help together', async () => {
    const s = await run([add('A'), add('B')]);
    expect(s.accepted).toBe(true);
    expect(learnedRules(s.doc)).toEqual(['A', 'B']);
  });

  it('drops a harmful edit bundled with good ones (backward elimination) and reports its negative delta', async () => {
    const s = await run([add('A'), add('HARM'), add('B')]);
    expect(s.accepted).toBe(true);
    expect(learnedRules(s.doc)).toEqual(['A', 'B']);
    const harm = s.rejected.find((e) => e.content === 'HARM');
    expect(harm?.delta).toBeLessThan(0);
    expect(harm?.reason).toBe('lowered the validation score');
  });

  it('prunes a free rider that neither helps nor hurts (leave-one-out)', async () => {
    const s = await run([add('C'), add('USELESS')]);
    expect(learnedRules(s.doc)).toEqual(['C']);
    expect(s.rejected).toEqual([expect.objectContaining({ content: 'USELESS', delta: 0 })]);
  });

  it('rejects a tie, marking the edits as tied (pending material)', async () => {
    const s = await run([add('A')]);
    expect(s.accepted).toBe(false);
    expect(s.doc).toBe('# Skill\n');
    expect(s.rejected).toEqual([expect.objectContaining({ content: 'A', delta: 0, reason: TIE_REASON })]);
  });
});

describe('selectEdits leave-one-out replays', () => {
  const four = ['w1', 'w2', 'w3', 'w4'].map((id) => emptyTask({ id, intent: id, split: 'val' }));
  /** w1, w2 pass with rule A; w3, w4 with rule B: together they pass everything. */
  const judgeFour = (doc: string, only: TaskRecord[]): ReplayResult[] => {
    const rules = learnedRules(doc);
    return only.map((task) => {
      const hard = rules.includes(task.id < 'w3' ? 'A' : 'B') ? 1 : 0;
      return {
        task,
        response: '',
        toolsCalled: [],
        hard,
        soft: hard,
        rationale: '',
        latencyMs: 0,
        tokens: 0,
      };
    });
  };
  const counted = async (edits: Edit[]) => {
    const replayed: Record<string, number> = {};
    const s = await selectEdits({
      baseDoc: '# Skill\n',
      edits,
      baselineResults: judgeFour('# Skill\n', four),
      metric: { metric: 'mixed', mixedWeight: 0.5 },
      noRegression: false,
      replay: (phase, only, doc) => {
        replayed[phase] = (replayed[phase] ?? 0) + only.length;
        return Promise.resolve(judgeFour(doc, only));
      },
    });
    return { s, replayed };
  };

  it('stops a trial once the rest cannot keep the score instead of replaying every task', async () => {
    const { s, replayed } = await counted([add('A'), add('B')]);
    expect(learnedRules(s.doc)).toEqual(['A', 'B']);
    expect(s.score).toBe(1);
    // Waves of 1, 2: without A, w1 fails at once; without B, w3 fails in the second wave (w1 w2 | w3).
    // Re-running every validation task per edit would be 4 + 4.
    expect(replayed).toEqual({ gate_trial: 4, prune_trial: 1 + 3 });
  });

  it('still replays a free rider on every task, and drops it', async () => {
    const { s, replayed } = await counted([add('A'), add('USELESS'), add('B')]);
    expect(learnedRules(s.doc)).toEqual(['A', 'B']);
    expect(s.rejected).toEqual([
      expect.objectContaining({ content: 'USELESS', delta: 0, reason: 'did not help on validation tasks' }),
    ]);
    // Without A: 1 task; without USELESS: all 4 (it is dropped); then without B: 3 (full: 4 + 4 + 4).
    expect(replayed).toEqual({ gate_trial: 4, prune_trial: 1 + 4 + 3 });
  });
});

describe('selectEdits leave-one-out bound', () => {
  it('leaves a task the baseline left unjudged out of the bound, as the gate leaves it out of the score', async () => {
    const t0 = emptyTask({ id: 't0', intent: 't0', split: 'val' });
    const rest = ['w1', 'w2', 'w3'].map((id) => emptyTask({ id, intent: id, split: 'val' }));
    const result = (task: TaskRecord, hard: number, response: string, unjudged = false): ReplayResult => ({
      task,
      response,
      toolsCalled: [],
      hard,
      soft: hard,
      rationale: '',
      latencyMs: 0,
      tokens: 0,
      ...(unjudged ? { unjudged: true } : {}),
    });
    // t0 always scores 0 (first in line: its answer changed); w1..w3 pass with rule A.
    const judgeEdges = (doc: string, only: TaskRecord[]): ReplayResult[] =>
      only.map((task) =>
        task.id === 't0' ? result(task, 0, doc) : result(task, learnedRules(doc).includes('A') ? 1 : 0, ''),
      );
    const s = await selectEdits({
      baseDoc: '# Skill\n',
      edits: [add('A'), add('USELESS')],
      baselineResults: [result(t0, 0, '', true), ...judgeEdges('# Skill\n', rest)],
      metric: { metric: 'hard', mixedWeight: 0.5 },
      noRegression: true,
      replay: (_phase, only, doc) => Promise.resolve(judgeEdges(doc, only)),
    });
    // Counting t0's 0 against the bound would stop the USELESS trial early and keep the free rider.
    expect(learnedRules(s.doc)).toEqual(['A']);
    expect(s.rejected).toEqual([expect.objectContaining({ content: 'USELESS', delta: 0 })]);
  });
});
