/** A night asks once per (documents, task) for an answer, and once per answer for a model's verdict. */
import { describe, expect, it } from 'vitest';
import { MockBackend } from '../backends/mock/mock-backend.js';
import type { AttemptRequest, AttemptResult, RubricRequest } from '../backends/types.js';
import { emptyTask } from '../core/task.js';
import { zeroUsage } from '../core/usage.js';
import { emptyTally, ReplayMemo } from './replay-memo.js';
import { replayTasks } from './replay.js';

class CountingMock extends MockBackend {
  attempts = 0;
  judges = 0;
  override attempt(req: AttemptRequest): Promise<AttemptResult> {
    this.attempts += 1;
    return super.attempt(req);
  }
  override judgeRubric(req: RubricRequest) {
    this.judges += 1;
    return super.judgeRubric(req);
  }
}

const rubric = emptyTask({
  id: 'r',
  intent: 'Explain the release steps',
  attempted_solution: 'Update the changelog, then tag.',
  reference_kind: 'rubric',
  reference: 'names the changelog',
});
const rule = emptyTask({
  id: 'k',
  intent: 'Add zod',
  attempted_solution: 'npm install zod',
  reference_kind: 'rule',
  judge: { kind: 'rule', checks: [{ op: 'contains', arg: 'pnpm' }] },
});

describe('replayTasks with a memo', () => {
  it('does not ask again for documents it replayed, and says what it reused', async () => {
    const backend = new CountingMock();
    const memo = new ReplayMemo();
    const usage = zeroUsage();
    const docs = { skill: '# Skill', memory: '' };
    const first = emptyTally();
    const a = await replayTasks([rubric, rule], docs, backend, usage, { memo, tally: first });
    expect(first).toEqual({ attempts: 2, judges: 1, reusedAnswers: 0, reusedVerdicts: 0 });
    const again = emptyTally();
    const b = await replayTasks([rule, rubric], { ...docs }, backend, usage, { memo, tally: again });
    expect(again).toEqual({ attempts: 0, judges: 0, reusedAnswers: 2, reusedVerdicts: 0 });
    expect(backend.attempts).toBe(2);
    expect(b.map((r) => [r.task.id, r.hard, r.soft])).toEqual([
      [a[1]?.task.id, a[1]?.hard, a[1]?.soft],
      [a[0]?.task.id, a[0]?.hard, a[0]?.soft],
    ]);
    // Nothing was sent for the reused answers, so nothing was spent.
    expect(usage.calls).toBe(3);
  });

  it('asks the target for other documents, but judges an answer it already judged only once', async () => {
    const backend = new CountingMock();
    const memo = new ReplayMemo();
    const tally = emptyTally();
    await replayTasks([rubric], { skill: '# Skill', memory: '' }, backend, zeroUsage(), { memo, tally });
    // A rule about something else leaves the mock's answer as it was: the same answer, the same verdict.
    const other = { skill: '# Skill\n- Always run the linter.', memory: '' };
    await replayTasks([rubric], other, backend, zeroUsage(), { memo, tally });
    expect(backend.attempts).toBe(2);
    expect(backend.judges).toBe(1);
    expect(tally).toEqual({ attempts: 2, judges: 1, reusedAnswers: 0, reusedVerdicts: 1 });
  });

  it('forgets a request that failed, so it is asked again', async () => {
    let fail = true;
    const backend = new (class extends CountingMock {
      override attempt(req: AttemptRequest): Promise<AttemptResult> {
        if (fail) return Promise.reject(new Error('waiting for an answer'));
        return super.attempt(req);
      }
    })();
    const memo = new ReplayMemo();
    const docs = { skill: '# Skill', memory: '' };
    await expect(replayTasks([rule], docs, backend, zeroUsage(), { memo })).rejects.toThrow('waiting');
    fail = false;
    const [r] = await replayTasks([rule], docs, backend, zeroUsage(), { memo });
    expect(r?.response).toContain('npm install zod');
  });
});
