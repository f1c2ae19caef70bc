import { describe, expect, it } from 'vitest';
import { emptyTask, type Edit } from '../core/task.js';
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
    expect(harm?.reason).toBe('lowered the held-out score');
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
