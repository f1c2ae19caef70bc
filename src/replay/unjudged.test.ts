/** A judge that never gives a valid reply leaves the answer out of the score instead of scoring it 0/0. */
import { describe, expect, it } from 'vitest';
import { zeroUsage } from '../core/usage.js';
import { emptyTask } from '../core/task.js';
import { judgeCandidate } from '../trainer/gate.js';
import { queueBackend } from '../../test/helpers/queue-llm.js';
import { meanScores, replayTasks, type ReplayResult } from './replay.js';

const rubricTask = (id: string) =>
  emptyTask({
    id,
    intent: 'Explain the release steps',
    reference_kind: 'rubric',
    reference: 'names the changelog',
  });
const docs = { skill: '# Skill', memory: '' };
const INVALID = 'I would rate this answer highly: it covers the changelog and the tag.';
const PASS = '{"hard": 1, "soft": 0.9, "rationale": "names the changelog"}';

async function replayOne(task: ReturnType<typeof emptyTask>, replies: string[]) {
  const b = queueBackend(replies);
  const [result] = await replayTasks([task], docs, b.llm, zeroUsage());
  return { result: result as ReplayResult, spend: b.meter.summary() };
}

describe('an unjudged answer', () => {
  it('is marked, counted, and left out of the means', async () => {
    const bad = await replayOne(rubricTask('r1'), ['Update CHANGELOG.md, then tag.', INVALID, INVALID]);
    expect(bad.result.unjudged).toBe(true);
    expect(bad.spend).toMatchObject({ invalid_replies: 1, unjudged_answers: 1 });
    const good = await replayOne(rubricTask('r2'), ['Update CHANGELOG.md, then tag.', PASS]);
    expect(good.result.unjudged).toBeUndefined();
    expect(meanScores([good.result, bad.result])).toEqual({ hard: 1, soft: 0.9 });
  });

  it('is not a regression at the gate, and the candidate is compared on the tasks judged on both sides', async () => {
    const r1 = await replayOne(rubricTask('r1'), ['answer', PASS]);
    const r2 = await replayOne(rubricTask('r2'), ['answer', PASS]);
    const r1Unjudged = await replayOne(rubricTask('r1'), ['answer', INVALID, INVALID]);
    const verdict = judgeCandidate(
      [r1.result, r2.result],
      [r1Unjudged.result, r2.result],
      { metric: 'hard', mixedWeight: 0.5 },
      true,
    );
    expect(verdict.blockedByRegression).toBe(false);
    expect(verdict.candidate).toBe(verdict.baseline);
    expect(verdict.deltas.find((d) => d.task_id === 'r1')).toMatchObject({
      status: 'unchanged',
      unjudged: true,
    });
  });

  it('keeps a rule task scored by its checks when the rubric judge fails on its criteria', async () => {
    const task = emptyTask({
      id: 'k1',
      intent: 'Add zod',
      reference_kind: 'rule',
      judge: { kind: 'rule', checks: [{ op: 'contains', arg: 'pnpm' }] },
      rubric_criteria: ['explain why the workspace uses pnpm'],
    });
    const { result } = await replayOne(task, ['pnpm add zod', INVALID, INVALID]);
    expect(result.unjudged).toBeUndefined();
    expect(result).toMatchObject({ hard: 1, soft: 1 });
  });
});
