/** The one summary of a lesson every output shares (`lessons`, `harvest --json`, a night's report). */
import type { Lesson } from '../core/lesson.js';
import type { LessonReport } from './night-report.js';

/** Lessons a night's report carries; `skillopt-sleep lessons` lists the rest. */
export const MAX_REPORT_LESSONS = 100;
/** Pieces of evidence per lesson in a report (its support still counts every session). */
export const MAX_REPORT_EVIDENCE = 10;

/** A lesson as `--json` shows it: the rule, where it was said, and how a night judges it. */
export function lessonSummary(lesson: Lesson): LessonReport {
  return {
    id: lesson.id,
    rule: lesson.rule,
    project: lesson.project,
    kind: lesson.kind,
    support: lesson.support,
    evidence: lesson.evidence.map((e) => ({
      session: e.session,
      turn: e.turn,
      sentence: e.sentence,
      signals: e.signals,
    })),
    checks: lesson.checks,
    criterion: lesson.criterion,
    origin: lesson.origin,
    ...(lesson.retired_by !== undefined ? { retired_by: lesson.retired_by } : {}),
  };
}

/** The lessons a night's report carries (the miner's order: most supported first), and a note when capped. */
export function reportLessons(lessons: readonly Lesson[]): { lessons: LessonReport[]; note: string | null } {
  const shown = lessons.slice(0, MAX_REPORT_LESSONS).map((lesson) => {
    const summary = lessonSummary(lesson);
    return { ...summary, evidence: summary.evidence.slice(0, MAX_REPORT_EVIDENCE) };
  });
  const note =
    lessons.length > MAX_REPORT_LESSONS
      ? `the report lists ${MAX_REPORT_LESSONS} of ${lessons.length} lessons; skillopt-sleep lessons lists them all`
      : null;
  return { lessons: shown, note };
}

/** How a lesson is judged, in a few words: its checks, or its rule as a model's criterion. */
export function judgedBy(lesson: Pick<LessonReport, 'checks' | 'criterion'>): string {
  const n = lesson.checks.length;
  if (n > 0) return `${n} check${n === 1 ? '' : 's'}`;
  return lesson.criterion !== null ? 'criterion' : 'not judged';
}
