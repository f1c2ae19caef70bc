/** What a night step asks for: never a task no answer can change, never the same replay twice. */
import { describe, expect, it } from 'vitest';
import { MockBackend } from '../backends/mock/mock-backend.js';
import type { AttemptRequest, AttemptResult, ReflectRequest, ReflectResult } from '../backends/types.js';
import { emptyTask, type Split, type TaskRecord } from '../core/task.js';
import { ReplayMemo } from '../replay/replay-memo.js';
import { runNightStep, type NightStepInput } from './night-step.js';

/** The mock, recording which task each attempt was for. */
class CountingMock extends MockBackend {
  attempted: string[] = [];
  reflections = 0;
  override attempt(req: AttemptRequest): Promise<AttemptResult> {
    this.attempted.push(req.task.id);
    return super.attempt(req);
  }
  override reflect(req: ReflectRequest): Promise<ReflectResult> {
    this.reflections += 1;
    return super.reflect(req);
  }
}

const researcher = (id: string, split: Split): TaskRecord =>
  emptyTask({
    id,
    intent: `arXiv id for paper ${id}?`,
    reference_kind: 'exact',
    reference: 'arXiv:1706.03762',
    tags: ['rule:wrap-answer', 'rule:arxiv-id'],
    split,
  });

function input(tasks: TaskRecord[], backend: CountingMock): NightStepInput {
  return {
    tasks,
    skill: '# Skill\n',
    memory: '',
    backend,
    rejected: [],
    options: {
      editBudget: 4,
      metric: { metric: 'mixed', mixedWeight: 0.5 },
      noRegression: false,
      preferences: '',
    },
  };
}

describe('a night step', () => {
  it('replays no task whose score cannot change, in any phase, and counts them', async () => {
    const ended = (id: string, split: Split): TaskRecord =>
      emptyTask({ id, intent: 'what is the GIL?', reference_kind: 'none', outcome: 'fail', split });
    // Criteria without a check: an offline backend has no judge for them, so the score is constant.
    const criteriaOnly = emptyTask({
      id: 'criteria',
      intent: 'write the migration',
      reference_kind: 'rule',
      judge: { kind: 'rule', checks: [] },
      rubric_criteria: ['keep the down migration real'],
      split: 'val',
    });
    const emptyReference = emptyTask({ id: 'blank', intent: 'x', reference_kind: 'exact', split: 'val' });
    const backend = new CountingMock();
    const r = await runNightStep(
      input(
        [
          researcher('t1', 'train'),
          researcher('t2', 'train'),
          researcher('v1', 'val'),
          researcher('v2', 'val'),
          ended('n1', 'train'),
          ended('n2', 'val'),
          ended('n3', 'test'),
          criteriaOnly,
          emptyReference,
        ],
        backend,
      ),
    );
    expect(r.accepted).toBe(true);
    expect(r.counts).toEqual({ train: 2, val: 2, test: 0, unscored: 5 });
    expect(new Set(backend.attempted)).toEqual(new Set(['t1', 't2', 'v1', 'v2']));
  });

  it('does not replay again what it already replayed: a leaked holdout trains on its baseline', async () => {
    const backend = new CountingMock();
    const r = await runNightStep(input([researcher('t1', 'train'), researcher('t2', 'train')], backend));
    expect(r.holdoutLeaked).toBe(true);
    // val is train: the train replay of the same skill is the baseline's, asked once.
    expect(r.requests.replays.baseline_val).toMatchObject({ attempts: 2, reusedAnswers: 0 });
    expect(r.requests.replays.train).toMatchObject({ attempts: 0, reusedAnswers: 2 });
    expect(backend.attempted.filter((id) => id === 't1')).toHaveLength(2); // baseline, gate trial
    expect(r.requests.reflect).toBe(backend.reflections);
  });

  it('a later pass asks nothing for the documents an earlier pass replayed: the memory baseline is the skill candidate', async () => {
    const backend = new CountingMock();
    const memo = new ReplayMemo();
    const tasks = ['train', 'train', 'val', 'val'].map((split, i) => researcher(`r${i}`, split as Split));
    const skill = await runNightStep({ ...input(tasks, backend), memory: '# Memory\n', memo });
    expect(skill.accepted).toBe(true);
    const asked = backend.attempted.length;
    const memory = await runNightStep({
      ...input(tasks, backend),
      target: 'memory',
      skill: '# Memory\n',
      memory: skill.skill,
      memo,
    });
    expect(memory.requests.replays.baseline_val).toEqual({
      attempts: 0,
      judges: 0,
      reusedAnswers: 2,
      reusedVerdicts: 0,
    });
    expect(backend.attempted.length - asked).toBe(memory.requests.replays.train?.attempts);
  });
});
