/**
 * A night step that waits for answers (handoff, batch) queues each round whole: every request that
 * does not depend on an unanswered one goes out in the same invocation, and once all are answered the
 * step decides exactly as the same step run interactively.
 */
import { describe, expect, it } from 'vitest';
import { emptyTask, type Split, type TaskRecord } from '../core/task.js';
import {
  answeringBackend,
  driveWaitingNight,
  promptOf,
  WaitingNightSim,
  type QueuedAsk,
} from '../../test/helpers/waiting-llm.js';
import type { Backend } from '../backends/types.js';
import { runNightStep, type NightStepResult } from './night-step.js';

const PNPM = 'Add packages with pnpm.';
const VITEST = 'Run tests with vitest --run.';
const SHORT = 'Keep answers short.';
/** Breaks the documentation tasks, which pass without any rule. */
const NO_README = 'Never mention the README.';

const task = (id: string, intent: string, arg: string, split: Split): TaskRecord =>
  emptyTask({
    id,
    intent,
    reference_kind: 'rule',
    judge: { kind: 'rule', checks: [{ op: 'contains', arg }] },
    split,
  });

const pkgTask = (n: number, split: Split) => task(`pkg${n}`, `Add package p${n}`, 'pnpm', split);
const testTask = (n: number, split: Split) => task(`test${n}`, `Test module m${n}`, 'vitest --run', split);
const docTask = (n: number, split: Split) => task(`doc${n}`, `Document feature f${n}`, 'README', split);

/** A model that follows the skill it is shown, and proposes `edits` when asked to reflect. */
function brain(edits: string[]): (ask: QueuedAsk) => string {
  return (ask) => {
    const text = promptOf(ask.request);
    if (ask.purpose === 'reflect')
      return JSON.stringify({
        edits: edits.map((content) => ({ op: 'add', content, anchor: '', rationale: 'fixes failures' })),
      });
    const skill = text.slice(0, text.indexOf('# Memory'));
    const intent = text.slice(text.lastIndexOf('# Task'));
    if (intent.includes('Add package')) return skill.includes(PNPM) ? '$ pnpm add p' : '$ npm install p';
    if (intent.includes('Test module')) return skill.includes(VITEST) ? '$ vitest --run' : '$ npm test';
    return skill.includes(NO_README) ? 'Documented in the docs.' : 'Documented in the README.';
  };
}

const step = (tasks: TaskRecord[], backend: Backend, noRegression = false) =>
  runNightStep({
    tasks,
    skill: '# Skill\n\nHand-written.\n',
    memory: '',
    backend,
    rejected: [],
    options: { editBudget: 3, metric: { metric: 'hard', mixedWeight: 0.5 }, noRegression, preferences: '' },
  });

/** What a step decided, without its usage (a waiting night counts its requests once per invocation). */
const decided = ({ usage: _usage, ...rest }: NightStepResult) => rest;

describe('a night step that waits for answers', () => {
  it('queues baseline and train together, then the candidate, then every leave-one-out trial whole', async () => {
    const tasks = [
      pkgTask(1, 'train'),
      pkgTask(2, 'train'),
      testTask(1, 'train'),
      testTask(2, 'train'),
      pkgTask(3, 'val'),
      pkgTask(4, 'val'),
      testTask(3, 'val'),
      testTask(4, 'val'),
    ];
    const reply = brain([PNPM, VITEST, SHORT]);
    const sim = new WaitingNightSim();
    const waiting = await driveWaitingNight(sim, (backend) => step(tasks, backend), reply);
    expect(sim.rounds).toEqual([
      { attempt: 8 }, // the baseline (4 val tasks) and the train replay (4), together
      { reflect: 1 },
      { attempt: 4 }, // the candidate on val
      // The two useful edits fix their own held-out tasks and get no trial; the third's trial, whole.
      { attempt: 4 },
    ]);
    expect(waiting.invocations).toBe(5);

    const interactive = answeringBackend(reply);
    const once = await step(tasks, interactive.llm);
    expect(decided(waiting.result)).toEqual(decided(once));
    expect(once.edits.map((e) => e.content)).toEqual([PNPM, VITEST]);
    expect(once.rejectedEdits.map((e) => e.content)).toEqual([SHORT]);
    // Interactively the same 17 requests (the one trial has nothing to cut short), in 5 invocations.
    expect(interactive.sent()).toBe(17);
    expect(sim.rounds.flatMap((r) => Object.values(r)).reduce((a, b) => a + b, 0)).toBe(17);
  });

  it('queues the trials of a backward-elimination round together', async () => {
    const tasks = [
      pkgTask(1, 'train'),
      pkgTask(2, 'train'),
      docTask(1, 'train'),
      pkgTask(3, 'val'),
      docTask(2, 'val'),
      docTask(3, 'val'),
    ];
    const reply = brain([PNPM, NO_README]);
    const sim = new WaitingNightSim();
    const waiting = await driveWaitingNight(sim, (backend) => step(tasks, backend, true), reply);
    // The whole batch regresses the documentation tasks; each edit left out is then tried, together.
    expect(sim.rounds).toEqual([{ attempt: 6 }, { reflect: 1 }, { attempt: 3 }, { attempt: 6 }]);
    expect(waiting.invocations).toBe(5);
    const once = await step(tasks, answeringBackend(reply).llm, true);
    expect(decided(waiting.result)).toEqual(decided(once));
    expect(once.edits.map((e) => e.content)).toEqual([PNPM]);
  });
});
