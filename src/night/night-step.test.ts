import { describe, expect, it } from 'vitest';
import { MockBackend } from '../backends/mock/mock-backend.js';
import { RULE_TABLE } from '../backends/mock/rule-grammar.js';
import { negativeWordCheck } from '../core/negative-check.js';
import { emptyTask, type Split, type TaskRecord } from '../core/task.js';
import { runNightStep, type NightStepInput } from './night-step.js';
import { BLOCK_START, learnedRules } from '../trainer/learned-block.js';

const REFS = [
  'arXiv:2605.23904',
  'arXiv:1706.03762',
  'arXiv:1406.2661',
  'arXiv:1810.04805',
  'arXiv:1512.03385',
  'arXiv:1412.6980',
];

/** Persona-style tasks: they need both the wrap-answer and arxiv-id rules to pass. */
function researcher(splits: Split[]): TaskRecord[] {
  return splits.map((split, i) =>
    emptyTask({
      id: `r${i}`,
      intent: `arXiv id for paper ${i}?`,
      reference_kind: 'exact',
      reference: REFS[i % REFS.length] ?? '',
      tags: ['rule:wrap-answer', 'rule:arxiv-id'],
      outcome: 'fail',
      split,
    }),
  );
}

const harmfulTask = (split: Split): TaskRecord =>
  emptyTask({
    id: 'harm',
    intent: 'answer this freely',
    reference_kind: 'exact',
    reference: 'an-answer-that-the-harmful-rule-cannot-produce',
    tags: ['rule:__harmful__'],
    split,
  });

function input(tasks: TaskRecord[], overrides: Partial<NightStepInput> = {}): NightStepInput {
  return {
    tasks,
    skill: '# Skill\n\nHand-written.\n',
    memory: '',
    backend: new MockBackend(),
    rejected: [],
    options: {
      editBudget: 4,
      metric: { metric: 'mixed', mixedWeight: 0.5 },
      noRegression: false,
      preferences: '',
    },
    ...overrides,
  };
}

describe('runNightStep on the mock backend', () => {
  it('learns rules that only help together and keeps text outside the block', async () => {
    const r = await runNightStep(input(researcher(['train', 'train', 'val', 'val'])));
    expect(r.accepted).toBe(true);
    expect(r.gateAction).toBe('accept_new_best');
    expect(r.baseline).toBeCloseTo(1 / 3, 4);
    expect(r.candidate).toBe(1);
    expect(learnedRules(r.skill)).toEqual([RULE_TABLE['wrap-answer'], RULE_TABLE['arxiv-id']]);
    expect(r.skill.startsWith('# Skill\n\nHand-written.\n')).toBe(true);
    expect(r.skill).toContain(BLOCK_START);
  });

  it('rejects a harmful edit that is actually proposed, and keeps the good ones', async () => {
    const tasks = [harmfulTask('train'), ...researcher(['train', 'train', 'val', 'val', 'val'])];
    const r = await runNightStep(input(tasks));
    const proposed = r.trials[0]?.edits.map((e) => e.content) ?? [];
    expect(proposed).toContain(RULE_TABLE.__harmful__);
    expect(r.accepted).toBe(true);
    expect(learnedRules(r.skill)).not.toContain(RULE_TABLE.__harmful__);
    expect(learnedRules(r.skill)).toEqual([RULE_TABLE['wrap-answer'], RULE_TABLE['arxiv-id']]);
    const harmful = r.rejectedEdits.find((e) => e.content === RULE_TABLE.__harmful__);
    expect(harmful?.delta).toBeLessThan(0);
  });

  it('does not propose again an edit that lowered the score before', async () => {
    const tasks = [harmfulTask('train'), ...researcher(['train', 'val'])];
    const r = await runNightStep(
      input(tasks, {
        rejected: [{ target: 'skill', op: 'add', content: RULE_TABLE.__harmful__ ?? '', delta: -0.5 }],
      }),
    );
    expect(r.trials.flatMap((t) => t.edits).map((e) => e.content)).not.toContain(RULE_TABLE.__harmful__);
  });

  it('never accepts on a leaked holdout', async () => {
    const r = await runNightStep(input(researcher(['train', 'train'])));
    expect(r.holdoutLeaked).toBe(true);
    expect(r.accepted).toBe(false);
    expect(r.gateAction).toBe('reject_unverified');
    expect(r.skill).toBe('# Skill\n\nHand-written.\n');
  });

  it('obeys the edit budget and reports why nothing changed', async () => {
    const one = await runNightStep(
      input(researcher(['train', 'val']), { options: { ...input([]).options, editBudget: 1 } }),
    );
    expect(one.trials[0]?.edits).toHaveLength(1);
    const zero = await runNightStep(
      input(researcher(['train', 'val']), { options: { ...input([]).options, editBudget: 0 } }),
    );
    expect(zero.noEditsReason).toBe('edit_budget is 0');
    expect(zero.trials).toHaveLength(0);
  });

  it('learns a scoped rule from a correction check and leaves other tasks alone', async () => {
    const checks = [{ op: 'contains', arg: 'pnpm' }, negativeWordCheck('npm')];
    const install = (id: string, pkg: string, split: Split): TaskRecord =>
      emptyTask({
        id,
        intent: `Add \`${pkg}\` to the web app`,
        attempted_solution: `Run npm install ${pkg} and import it.`,
        reference_kind: 'rule',
        judge: { kind: 'rule', checks },
        split,
      });
    const other = emptyTask({
      id: 'other',
      intent: 'Explain the npm registry',
      attempted_solution: 'The npm registry hosts packages.',
      reference_kind: 'rule',
      judge: { kind: 'rule', checks: [{ op: 'contains', arg: 'npm registry' }] },
      split: 'val',
    });
    const r = await runNightStep(
      input([
        install('a', 'zod', 'train'),
        install('b', 'dayjs', 'train'),
        install('c', 'clsx', 'val'),
        other,
      ]),
    );
    expect(r.accepted).toBe(true);
    expect(learnedRules(r.skill)).toEqual(['When the task mentions "add": Use "pnpm" instead of "npm".']);
    const otherDelta = r.trials[0]?.task_deltas.find((d) => d.task_id === 'other');
    expect(otherDelta?.status).toBe('unchanged');
  });

  it('blocks a candidate that regresses a task when no-regression is on', async () => {
    // The learned "always include" rule helps two commit tasks but breaks the length check of a third.
    const needsRefs = (id: string, answer: string, split: Split): TaskRecord =>
      emptyTask({
        id,
        intent: 'commit message please',
        attempted_solution: answer,
        reference_kind: 'rule',
        judge: { kind: 'rule', checks: [{ op: 'contains', arg: 'Refs: #' }] },
        split,
      });
    const tasks = [
      needsRefs('t1', 'Fix bug', 'train'),
      needsRefs('v1', 'Fix typo', 'val'),
      needsRefs('v3', 'Add test', 'val'),
      emptyTask({
        id: 'v2',
        intent: 'commit message please, short',
        attempted_solution: 'Fix',
        reference_kind: 'rule',
        judge: { kind: 'rule', checks: [{ op: 'max_chars', arg: 5 }] },
        split: 'val',
      }),
    ];
    const loose = await runNightStep(input(tasks));
    expect(loose.accepted).toBe(true);
    const strict = await runNightStep(
      input(tasks, { options: { ...input([]).options, noRegression: true } }),
    );
    expect(strict.accepted).toBe(false);
    expect(strict.trials[0]?.blocked_by_regression).toBe(true);
  });

  it('with several rollouts per train task still learns, replaying train once per sample', async () => {
    let trainReplays = 0;
    const r = await runNightStep(
      input(researcher(['train', 'train', 'val', 'val']), {
        options: { ...input([]).options, rollouts: 3 },
        onReplay: (phase) => {
          if (phase === 'train') trainReplays++;
        },
      }),
    );
    expect(trainReplays).toBe(3);
    expect(r.accepted).toBe(true);
  });
  it('scores the held-out test with the starting skill and the final one, and shows it to no one else', async () => {
    const phases: Array<{ phase: string; ids: string[] }> = [];
    const r = await runNightStep(
      input(researcher(['train', 'train', 'val', 'val', 'test', 'test']), {
        onReplay: (phase, _doc, results) => phases.push({ phase, ids: results.map((x) => x.task.id) }),
      }),
    );
    expect(r.accepted).toBe(true);
    expect(r.testBefore).toBeCloseTo(1 / 3, 4);
    expect(r.testScore).toBe(1);
    const testIds = ['r4', 'r5'];
    for (const { phase, ids } of phases) {
      const test = ids.filter((id) => testIds.includes(id));
      if (phase === 'baseline_test' || phase === 'final_test') expect(ids).toEqual(testIds);
      else expect(test, phase).toEqual([]);
    }
    expect(phases.map((p) => p.phase)).toContain('baseline_test');
    expect(phases.at(-1)?.phase).toBe('final_test');
  });

  it('replays the test once when the skill did not change: its score is before and after', async () => {
    const phases: string[] = [];
    const r = await runNightStep(
      input(researcher(['train', 'val', 'test']), {
        options: {
          editBudget: 0,
          metric: { metric: 'hard', mixedWeight: 0 },
          noRegression: false,
          preferences: '',
        },
        onReplay: (phase) => phases.push(phase),
      }),
    );
    expect(r.accepted).toBe(false);
    expect(r.testBefore).toBe(0);
    expect(r.testScore).toBe(0);
    expect(phases.filter((p) => p.endsWith('_test'))).toEqual(['baseline_test']);
  });
});
