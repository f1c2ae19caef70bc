import { describe, expect, it } from 'vitest';
import { forgottenOf } from '../../core/forgotten-lesson.js';
import { ruleChecks } from '../../core/task.js';
import { mineSessions } from '../mine.js';
import { read, run, session } from '../test-helpers.js';

const PROJECT = '/work/app';

const addDependency = (key: string, minute: number, request: string, pkg: string, correction?: string) =>
  session(
    [
      {
        prompt: request,
        reply: `Installed ${pkg}.`,
        actions: [read(`${PROJECT}/package.json`), run(`npm install ${pkg}`)],
      },
      ...(correction === undefined
        ? []
        : [
            {
              prompt: correction,
              reply: 'Redone with pnpm.',
              actions: [run('rm -f package-lock.json'), run(`pnpm add ${pkg}`)],
            },
            { prompt: 'thanks, works now', reply: 'Glad to help.' },
          ]),
    ],
    { key, minute },
  );

const night = [
  addDependency('claude:d1', 1, 'add zod to the web app', 'zod', 'wrong package manager: it has to be pnpm'),
  addDependency('claude:d2', 2, 'we need dayjs, install it please', 'dayjs', 'No, use pnpm not npm'),
  addDependency('claude:d3', 3, 'pino is missing from the deps, add it', 'pino'),
  addDependency('claude:d4', 4, 'add msw as a dependency', 'msw'),
];

describe('mining with forgotten lessons', () => {
  const mined = mineSessions(night, { project: PROJECT, maxTasks: 10 });
  const pnpm = mined.lessons.find((l) => l.checks.some((c) => c.arg === 'pnpm'));

  it('finds the lesson to forget, judging the kind’s tasks', () => {
    expect(pnpm?.evidence.map((e) => e.session)).toEqual(['claude:d1', 'claude:d2']);
    expect(mined.tasks.filter((t) => ruleChecks(t).length > 0)).toHaveLength(4);
  });

  it('a forgotten lesson is not mined, judges no task, and its corrections leave the kind', () => {
    if (pnpm === undefined) throw new Error('no lesson');
    const again = mineSessions(night, {
      project: PROJECT,
      maxTasks: 10,
      forgottenLessons: [forgottenOf(pnpm)],
    });
    expect(again.lessons.filter((l) => l.evidence.some((e) => e.session === 'claude:d1'))).toEqual([]);
    for (const task of again.tasks) {
      expect(ruleChecks(task)).toEqual([]);
      expect(task.rubric_criteria ?? []).toEqual([]);
      expect(task.reference_kind).toBe('none');
    }
    const deps = again.clusters.find((c) => c.members.includes('claude:d1'));
    expect(deps?.checks).toEqual([]);
    expect(deps?.criteria).toEqual([]);
    expect(deps?.checkSources).toEqual([]);
    expect(deps?.correctionReports).toEqual([]);
    expect(deps?.corrections).toEqual([]);
    // The kinds and the tasks stay: only what the user taught there is gone.
    expect(again.clusters.map((c) => c.members)).toEqual(mined.clusters.map((c) => c.members));
    expect(again.tasks.map((t) => [t.id, t.intent, t.context_excerpt])).toEqual(
      mined.tasks.map((t) => [t.id, t.intent, t.context_excerpt]),
    );
  });

  it('another lesson of the kind keeps judging', () => {
    const withOther = [
      ...night,
      addDependency('claude:d5', 5, 'add ky to the api client', 'ky', 'No, use pnpm not npm'),
    ];
    const all = mineSessions(withOther, { project: PROJECT, maxTasks: 10 });
    const lesson = all.lessons.find((l) => l.checks.some((c) => c.arg === 'pnpm'));
    if (lesson === undefined) throw new Error('no lesson');
    const later = mineSessions(withOther, {
      project: PROJECT,
      maxTasks: 10,
      forgottenLessons: [forgottenOf(lesson)],
    });
    // d5 said it again, consolidated with the forgotten evidence: it does not come back under a new id.
    expect(later.lessons.filter((l) => l.checks.some((c) => c.arg === 'pnpm'))).toEqual([]);
  });
});
