/** A replay in a night that waits for answers asks every task's request before it stops to wait. */
import { describe, expect, it } from 'vitest';
import { AnswerPendingError } from '../core/errors.js';
import { emptyTask } from '../core/task.js';
import { zeroUsage } from '../core/usage.js';
import { WaitingNightSim } from '../../test/helpers/waiting-llm.js';
import { replayTasks } from './replay.js';

const rubricTask = (id: string) =>
  emptyTask({ id, intent: `Explain step ${id}`, reference_kind: 'rubric', reference: 'names the step' });
const docs = { skill: '# Skill', memory: '' };
const JUDGED = '{"hard": 1, "soft": 1, "rationale": "names the step"}';

describe('replayTasks in a night that waits', () => {
  it('queues every attempt in one invocation, then every judge in the next', async () => {
    const sim = new WaitingNightSim();
    const tasks = Array.from({ length: 12 }, (_, i) => rubricTask(`t${i}`));
    // One request at a time: the queue fills only as each wait hands its slot on.
    const invocation = () => replayTasks(tasks, docs, sim.invocation(1), zeroUsage());
    const purposes = (): string[] => [...new Set(sim.open.map((q) => q.purpose))];
    // What is queued when the wait reaches the caller is what the night reports waiting.
    expect(await invocation().catch((e: unknown) => e)).toBeInstanceOf(AnswerPendingError);
    expect(sim.open).toHaveLength(12);
    expect(purposes()).toEqual(['attempt']);
    sim.answerAll(() => 'the answer');
    expect(await invocation().catch((e: unknown) => e)).toBeInstanceOf(AnswerPendingError);
    expect(sim.open).toHaveLength(12);
    expect(purposes()).toEqual(['judge']);
    sim.answerAll(() => JUDGED);
    const results = await invocation();
    expect(results.every((r) => r.hard === 1)).toBe(true);
  });
});
