/** What a night replays of its mined tasks: those a judge can score, and none alone in its lesson and kind. */
import { describe, expect, it } from 'vitest';
import { emptyTask, type TaskRecord } from '../core/task.js';
import { withoutOneOffs } from './mine-project.js';
import { separatesAnswers } from '../replay/score.js';

const task = (id: string, kind: string, lessons: string[] = []): TaskRecord =>
  emptyTask({
    id,
    intent: id,
    derived_from: kind,
    tags: [`kind:${kind}`, ...lessons.map((l) => `lesson:${l}`)],
    reference_kind: 'rule',
    judge: { kind: 'rule', checks: [{ op: 'contains', arg: 'pnpm' }] },
  });

describe('withoutOneOffs', () => {
  it('drops a one-off question and a task alone in the lesson that judges it', () => {
    const tasks = [
      task('gil', 'what is the GIL'),
      task('add-1', 'add', ['pnpm']),
      task('add-2', 'add', ['pnpm']),
      // Two commits of one kind, each judged by a lesson said once: no held-out task could show either.
      task('commit-1', 'commit', ['scope']),
      task('commit-2', 'commit', ['trailer']),
      // Judged by a lesson said once and one said for others: the shared one can show a fix.
      task('test-1', 'test', ['once', 'pnpm']),
    ];
    expect(withoutOneOffs(tasks).map((t) => t.id)).toEqual(['add-1', 'add-2', 'test-1']);
  });

  it('keeps a model-mined task of a recurring kind, and every dreamt variant', () => {
    const mined = task('llm', 'add');
    const dream = { ...task('dream', 'elsewhere'), origin: 'dream' as const };
    const kept = withoutOneOffs([
      task('add-1', 'add', ['pnpm']),
      task('add-2', 'add', ['npm']),
      mined,
      dream,
    ]);
    expect(kept.map((t) => t.id)).toEqual(['llm', 'dream']);
  });
});

describe('separatesAnswers', () => {
  const offline = { offline: true };
  const real = { offline: false };
  it('is false for a judge whose score no answer can change', () => {
    expect(separatesAnswers(emptyTask({ id: 'a', intent: 'x', reference_kind: 'none' }), real)).toBe(false);
    expect(separatesAnswers(emptyTask({ id: 'b', intent: 'x', reference_kind: 'answer' }), real)).toBe(false);
    expect(separatesAnswers(emptyTask({ id: 'c', intent: 'x', reference_kind: 'exact' }), real)).toBe(false);
    const noCheck = emptyTask({
      id: 'd',
      intent: 'x',
      reference_kind: 'rule',
      judge: { kind: 'rule', checks: [] },
    });
    expect(separatesAnswers(noCheck, real)).toBe(false);
  });

  it('reads criteria only where a model judges them', () => {
    const criteria = emptyTask({
      id: 'e',
      intent: 'x',
      reference_kind: 'rule',
      judge: { kind: 'rule', checks: [] },
      rubric_criteria: ['keep the down migration real'],
    });
    expect(separatesAnswers(criteria, real)).toBe(true);
    expect(separatesAnswers(criteria, offline)).toBe(false);
    expect(separatesAnswers(emptyTask({ id: 'f', intent: 'x', reference_kind: 'rubric' }), offline)).toBe(
      true,
    );
  });
});
