import { describe, expect, it } from 'vitest';
import { configSchema } from '../../config/schema.js';
import { AnswerPendingError, BudgetExhaustedError } from '../../core/errors.js';
import { emptyTask, type Edit } from '../../core/task.js';
import { zeroUsage } from '../../core/usage.js';
import { emptyTaskSet } from '../handoff-night.js';
import { idleStep } from '../night-outcome.js';
import { planSpend } from '../spend-plan.js';
import { NIGHT_PASSES, runPasses } from './index.js';
import type { NightPass, TrainRequest, TrainingPlan } from './types.js';

const config = configSchema.parse({ edit_budget: 3, evolve_memory: true });
const tasks = [emptyTask({ id: 't1', intent: 'do it' })];

function plan(): TrainingPlan {
  return {
    project: '/p',
    mode: 'dry-run',
    config,
    tasksFile: null,
    tasksFrom: null,
    records: false,
    night: 1,
    started: 0,
    tasks: { ...emptyTaskSet(), tasks },
    skill: { livePath: '/p/SKILL.md', liveText: 'skill v0', workingText: 'skill v0' },
    pending: [],
    rejected: [],
    spend: planSpend(tasks, config, 0),
    targets: {
      memory: {
        livePath: '/p/CLAUDE.md',
        liveText: 'memory v0',
        chosenBy: 'config',
        format: 'markdown',
        startText: 'memory v0',
      },
      fanout: null,
    },
    refusal: null,
  };
}

const edit = (target: Edit['target'], content: string): Edit => ({
  target,
  op: 'add',
  content,
  anchor: '',
  rationale: 'why',
});

/** A trainer that accepts one edit per call and records what each pass asked for. */
function recordingTrainer(calls: TrainRequest[]) {
  return (req: TrainRequest) => {
    calls.push(req);
    return Promise.resolve({
      ...idleStep(tasks),
      accepted: true,
      gateAction: 'accept_new_best' as const,
      baseline: 0,
      candidate: 1,
      skill: `${req.doc} + ${req.target} rule`,
      edits: [edit(req.target, `${req.target} rule`)],
    });
  };
}

describe('the pass registry', () => {
  it('runs skill, then memory with the updated skill and what the skill left of edit_budget', async () => {
    const calls: TrainRequest[] = [];
    const result = await runPasses(plan(), recordingTrainer(calls));
    expect(result.outcomes.map((o) => o.pass)).toEqual(['skill', 'memory']);
    expect(calls.map((c) => [c.target, c.editBudget, c.other])).toEqual([
      ['skill', 3, 'memory v0'],
      ['memory', 2, 'skill v0 + skill rule'],
    ]);
    expect(result.outcomes.flatMap((o) => o.targets.map((t) => t.kind))).toEqual(['skill', 'memory']);
    // Fan-out is off: its key stays out of the report.
    expect(Object.keys(result.sections)).toEqual(['memory']);
  });

  it('trains each memory file on its own tasks, sharing what is left of edit_budget', async () => {
    const calls: TrainRequest[] = [];
    const p = plan();
    const agentsTask = emptyTask({ id: 't2', intent: 'other' });
    const memoryFiles = [
      { ...p.targets.memory!, tasks: tasks },
      {
        livePath: '/p/AGENTS.md',
        liveText: null,
        chosenBy: 'shared',
        format: 'markdown' as const,
        startText: '',
        tasks: [agentsTask],
      },
    ];
    const result = await runPasses(
      { ...p, targets: { ...p.targets, memory: memoryFiles[0] ?? null, memoryFiles } },
      recordingTrainer(calls),
    );
    expect(calls.map((c) => [c.target, c.editBudget, c.tasks?.map((t) => t.id), c.pending])).toEqual([
      ['skill', 3, undefined, undefined],
      ['memory', 2, ['t1'], undefined],
      ['memory', 1, ['t2'], []],
    ]);
    expect(result.outcomes.flatMap((o) => o.targets.map((t) => [t.livePath, t.baseText]))).toEqual([
      ['/p/SKILL.md', 'skill v0'],
      ['/p/CLAUDE.md', 'memory v0'],
      ['/p/AGENTS.md', null],
    ]);
    expect(result.sections.memory_files?.map((m) => m.target_path)).toEqual(['/p/CLAUDE.md', '/p/AGENTS.md']);
  });

  it('drops every outcome when the budget stops the night, and gives the idle sections', async () => {
    let n = 0;
    const trainer = recordingTrainer([]);
    const result = await runPasses(plan(), (req) => {
      n += 1;
      if (n === 2) throw new BudgetExhaustedError('out', 'max_calls');
      return trainer(req);
    });
    expect(result).toEqual({ outcomes: [], budgetStop: { limit: 'max_calls' }, sections: { memory: null } });
  });

  it('takes a new pass as one registry entry: it runs after the others and sees their outcomes', async () => {
    // What adding a pass to the product is: this object in its own file, and one line in NIGHT_PASSES.
    const seen: string[] = [];
    const lintPass: NightPass = {
      name: 'lint',
      applies: (p) => p.config.evolve_skill,
      async run({ before, train }) {
        seen.push(...before.map((o) => o.pass));
        const step = await train({ target: 'skill', doc: 'lint doc', other: '', editBudget: 1 });
        return {
          pass: 'lint',
          joined: null,
          apartUsage: { ...zeroUsage(), calls: step.edits.length },
          targets: [],
          section: {},
          notes: ['lint: one rule'],
        };
      },
      idleSection: () => ({}),
    };
    const result = await runPasses(plan(), recordingTrainer([]), [...NIGHT_PASSES, lintPass]);
    expect(seen).toEqual(['skill', 'memory']);
    expect(result.outcomes.at(-1)).toMatchObject({ pass: 'lint', notes: ['lint: one rule'] });
  });

  it('while a pass waits for answers, an independent pass still trains and a dependent one waits', async () => {
    const ran: string[] = [];
    const pass = (name: string, independent: boolean): NightPass => ({
      name,
      ...(independent ? { independent } : {}),
      applies: () => true,
      run() {
        ran.push(name);
        if (name === 'skill') return Promise.reject(new AnswerPendingError('r').inPhase('skill train'));
        return Promise.resolve({
          pass: name,
          joined: null,
          apartUsage: zeroUsage(),
          targets: [],
          section: {},
          notes: [],
        });
      },
      idleSection: () => ({}),
    });
    const run = runPasses(plan(), recordingTrainer([]), [
      pass('skill', false),
      pass('memory', false),
      pass('groups', true),
    ]);
    await expect(run).rejects.toMatchObject({ phases: ['skill train'] });
    expect(ran).toEqual(['skill', 'groups']);
  });
});
