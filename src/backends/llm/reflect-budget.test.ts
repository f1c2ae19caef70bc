/** The reflect prompt is bounded: failures first, each verdict once with a count, under a byte budget. */
import { describe, expect, it } from 'vitest';
import { emptyTask, type TaskRecord } from '../../core/task.js';
import { scoreAnswer } from '../../replay/score.js';
import { MockBackend } from '../mock/mock-backend.js';
import type { Trajectory } from '../types.js';
import { REFLECT_EVIDENCE_BYTES, reflectEvidence } from './reflect-evidence.js';
import { queueBackend } from '../../../test/helpers/queue-llm.js';

const BECAUSE = 'stop using npm, we are on pnpm workspaces';
const install = (i: number): TaskRecord =>
  emptyTask({
    id: `add-${i}`,
    intent: `add package number ${i} to the app`,
    reference_kind: 'rule',
    judge: { kind: 'rule', checks: [{ op: 'contains', arg: 'pnpm', because: BECAUSE }] },
  });
/** A failure whose verdict is its own: each task asks for its own word. */
const distinct = (i: number): TaskRecord =>
  emptyTask({
    id: `own-${i}`,
    intent: `task ${i}`,
    reference_kind: 'rule',
    judge: { kind: 'rule', checks: [{ op: 'contains', arg: `word${i}` }] },
  });

async function judged(task: TaskRecord, response: string): Promise<Trajectory> {
  const { usage: _usage, ...score } = await scoreAnswer(task, response, [], new MockBackend());
  return { task, response, score };
}

const bytes = (s: string): number => Buffer.byteLength(s, 'utf8');

describe('the reflect prompt’s evidence', () => {
  it('shows a verdict shared by many failures once, with a count and the other requests', async () => {
    const failures = await Promise.all(
      Array.from({ length: 30 }, (_, i) => judged(install(i), `$ npm install pkg${i}\n${'x'.repeat(1000)}`)),
    );
    const e = reflectEvidence(failures, [], 8);
    expect(e.failures.match(/Answer given:/g)).toHaveLength(1);
    expect(e.failures.split(BECAUSE)).toHaveLength(2);
    expect(e.failures).toContain('The same verdict on 29 other tasks (answers not shown):');
    expect(e.failures).toContain('- Task add-1: add package number 1 to the app');
    expect(e.failures).toContain('- and 17 more');
  });

  it('puts the most shared verdict first and stays under its byte budget, failures before successes', async () => {
    const answer = (i: number): string => `${i} ${'y'.repeat(1400)}`;
    const failures = [
      ...(await Promise.all(Array.from({ length: 40 }, (_, i) => judged(distinct(i), answer(i))))),
      ...(await Promise.all([1, 2, 3].map((i) => judged(install(i), answer(i))))),
    ];
    const successes = await Promise.all([7, 8].map((i) => judged(install(i), `$ pnpm add x${i}`)));
    const e = reflectEvidence(failures, successes, 8);
    expect(e.failures.indexOf('add-1')).toBeLessThan(e.failures.indexOf('own-0'));
    const total = bytes(e.failures) + bytes(e.successes) + bytes(e.unchecked);
    expect(total).toBeLessThanOrEqual(REFLECT_EVIDENCE_BYTES + 200);
    expect(e.failures).toMatch(/\(\d+ more failed replays left out: the prompt's size budget\)$/);
    // The budget went to failures: the passed replays are counted, not shown.
    expect(e.successes).toBe("(2 more passed replays left out: the prompt's size budget)");
  });

  it('is what the reflect request sends', async () => {
    const failures = await Promise.all(
      Array.from({ length: 60 }, (_, i) => judged(distinct(i), `${i} ${'z'.repeat(1400)}`)),
    );
    const b = queueBackend(['{"edits": []}']);
    await b.llm.reflect({
      target: 'skill',
      doc: '# Skill\n',
      otherDoc: '',
      failures,
      successes: [],
      editBudget: 2,
      rejected: [],
      preferences: '',
    });
    const sent = b.provider.sent[0];
    const prompt = `${sent?.system ?? ''}${sent?.messages.map((m) => m.content).join('') ?? ''}`;
    expect(bytes(prompt)).toBeLessThan(REFLECT_EVIDENCE_BYTES + 5000);
    expect(prompt).toContain('more failed replays left out');
  });
});
