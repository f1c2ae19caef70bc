import { describe, expect, it } from 'vitest';
import { sessionHash, type ForgottenLesson } from '../core/forgotten-lesson.js';
import { openStore } from './db.js';
import { forgetSessions } from './forget-repo.js';
import { forgottenLessons, isForgottenLesson, recordForgottenLesson } from './forgotten-lessons-repo.js';

const NOW = Date.UTC(2026, 5, 1);

const forgotten = (id: string, sessions: Array<[string, number]>): ForgottenLesson => ({
  id,
  project: '/work/app',
  ruleKey: `rule-of-${id}`,
  evidence: sessions.map(([key, turn]) => ({ session: sessionHash(key), turn })),
  tokens: [],
  checks: [],
  origin: 'forget',
});

describe('forgotten lessons', () => {
  it('records a lesson once, adds evidence seen later, and reads them all back', () => {
    const db = openStore(':memory:');
    expect(recordForgottenLesson(db, forgotten('lesson_a', [['claude:s1', 1]]), NOW)).toBe(true);
    expect(recordForgottenLesson(db, forgotten('lesson_a', [['claude:s2', 3]]), NOW + 1)).toBe(false);
    recordForgottenLesson(db, forgotten('lesson_b', [['claude:s3', 0]]), NOW);
    expect(forgottenLessons(db)).toEqual([
      {
        ...forgotten('lesson_a', [['claude:s1', 1]]),
        evidence: [
          { session: sessionHash('claude:s1'), turn: 1 },
          { session: sessionHash('claude:s2'), turn: 3 },
        ].sort((x, y) => (x.session < y.session ? -1 : 1)),
      },
      forgotten('lesson_b', [['claude:s3', 0]]),
    ]);
    expect(isForgottenLesson(db, 'lesson_a')).toBe(true);
    expect(isForgottenLesson(db, 'lesson_c')).toBe(false);
    db.close();
  });

  it('forgetting sessions drops their evidence, and a record left with none', () => {
    const db = openStore(':memory:');
    recordForgottenLesson(
      db,
      forgotten('lesson_a', [
        ['claude:s1', 1],
        ['claude:s2', 1],
      ]),
      NOW,
    );
    recordForgottenLesson(db, forgotten('lesson_b', [['claude:s1', 4]]), NOW);
    const dry = forgetSessions(db, ['claude:s1'], { now: NOW, tombstone: true, dryRun: true });
    expect(dry.forgotten_lessons).toBe(1);
    expect(forgottenLessons(db).map((f) => f.id)).toEqual(['lesson_a', 'lesson_b']);

    const counts = forgetSessions(db, ['claude:s1'], { now: NOW, tombstone: true });
    expect(counts.forgotten_lessons).toBe(1);
    expect(forgottenLessons(db)).toEqual([forgotten('lesson_a', [['claude:s2', 1]])]);
    forgetSessions(db, ['claude:s2'], { now: NOW, tombstone: true });
    expect(forgottenLessons(db)).toEqual([]);
    expect(db.prepare('SELECT COUNT(*) AS n FROM forgotten_lesson_evidence').get()).toEqual({ n: 0 });
    db.close();
  });
});
