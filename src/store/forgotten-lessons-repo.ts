/**
 * Lessons the user forgot and rules they rejected (migrations 17 and 19): the lesson's id, project,
 * the hash of its normalised rule, its evidence as (session key hash, turn), and the hashes of its
 * rule's tokens and of its checks. No text: see `src/core/forgotten-lesson.ts`. Forgetting the
 * sessions removes their evidence rows, and a record they leave with none (`forget-repo.ts`).
 */
import type { ForgottenLesson } from '../core/forgotten-lesson.js';
import type { Db } from './db.js';

/** Records `lesson` as forgotten (again: its evidence joins what was recorded). True when it is new. */
export function recordForgottenLesson(db: Db, lesson: ForgottenLesson, now: number): boolean {
  const insert = db.transaction((): boolean => {
    const added =
      db
        .prepare(
          `INSERT INTO forgotten_lessons (lesson_id, project, rule_key, forgotten_at, origin) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (lesson_id) DO NOTHING`,
        )
        .run(lesson.id, lesson.project, lesson.ruleKey, now, lesson.origin ?? 'forget').changes > 0;
    const evidence = db.prepare(
      `INSERT OR IGNORE INTO forgotten_lesson_evidence (lesson_id, session_hash, turn) VALUES (?, ?, ?)`,
    );
    for (const e of lesson.evidence) evidence.run(lesson.id, e.session, e.turn);
    const mark = db.prepare(
      `INSERT OR IGNORE INTO forgotten_lesson_marks (lesson_id, kind, hash) VALUES (?, ?, ?)`,
    );
    for (const hash of lesson.tokens ?? []) mark.run(lesson.id, 'token', hash);
    for (const hash of lesson.checks ?? []) mark.run(lesson.id, 'check', hash);
    return added;
  });
  return insert.immediate();
}

/** Every forgotten lesson, by id (mining drops them in every project: ids and sessions are unique). */
export function forgottenLessons(db: Db): ForgottenLesson[] {
  const rows = db
    .prepare(
      `SELECT l.lesson_id AS id, l.project, l.rule_key AS ruleKey, l.origin, e.session_hash AS session, e.turn
       FROM forgotten_lessons l LEFT JOIN forgotten_lesson_evidence e ON e.lesson_id = l.lesson_id
       ORDER BY l.lesson_id, e.session_hash, e.turn`,
    )
    .all() as Array<{
    id: string;
    project: string;
    ruleKey: string;
    origin: string;
    session: string | null;
    turn: number | null;
  }>;
  const byId = new Map<string, ForgottenLesson>();
  for (const r of rows) {
    const lesson = byId.get(r.id) ?? {
      id: r.id,
      project: r.project,
      ruleKey: r.ruleKey,
      evidence: [],
      tokens: [],
      checks: [],
      origin: r.origin === 'reject' ? ('reject' as const) : ('forget' as const),
    };
    if (r.session !== null && r.turn !== null) lesson.evidence.push({ session: r.session, turn: r.turn });
    byId.set(r.id, lesson);
  }
  const marks = db
    .prepare('SELECT lesson_id AS id, kind, hash FROM forgotten_lesson_marks ORDER BY lesson_id, kind, hash')
    .all() as Array<{ id: string; kind: string; hash: string }>;
  for (const m of marks) {
    const lesson = byId.get(m.id);
    if (lesson) (m.kind === 'check' ? (lesson.checks ??= []) : (lesson.tokens ??= [])).push(m.hash);
  }
  return [...byId.values()];
}

/** True when the lesson `id` was forgotten. */
export function isForgottenLesson(db: Db, id: string): boolean {
  return db.prepare('SELECT 1 FROM forgotten_lessons WHERE lesson_id = ?').get(id) !== undefined;
}
