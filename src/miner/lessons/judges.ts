/**
 * Which lessons judge which task. A lesson applies to the tasks its evidence comes from; once the
 * user said it in two sessions or more (consolidated), also to every session of the kinds where it
 * was said. Never a raw follow-up, never criteria pooled across a kind: a task's criteria are the
 * rules of the lessons that apply to it, and a retired lesson judges nothing.
 */
import type { Lesson } from '../../core/lesson.js';
import { checkKey, type Check } from '../../core/task.js';

const CONSOLIDATED = 2;

/** Shared by the sessions a judge is the same for: read it, copy what you keep. */
export interface TaskJudge {
  checks: readonly Check[];
  /** Rules of lessons without a check, in the user's words, for a model's rubric. */
  criteria: readonly string[];
  /** The lessons that apply (ids), for provenance. */
  lessons: readonly string[];
  /** The sessions whose words the task carries (each lesson's rule), for `forget`'s trace. */
  sessions: readonly string[];
  /** The prompt (episode index) of this session's last lesson with a check: its reply is the accepted answer. */
  acceptedAt: number | null;
}

export interface LessonIndex {
  judgeOf: (sessionKey: string, kindId: string) => TaskJudge;
}

export function lessonIndex(lessons: readonly Lesson[]): LessonIndex {
  const active = lessons.filter((l) => l.retired_by === undefined);
  const bySession = new Map<string, Lesson[]>();
  const byKind = new Map<string, Lesson[]>();
  for (const lesson of active) {
    for (const session of new Set(lesson.evidence.map((e) => e.session))) {
      const list = bySession.get(session);
      if (list) list.push(lesson);
      else bySession.set(session, [lesson]);
    }
    if (lesson.support >= CONSOLIDATED) {
      for (const kind of lesson.kinds) {
        const list = byKind.get(kind);
        if (list) list.push(lesson);
        else byKind.set(kind, [lesson]);
      }
    }
  }
  // A kind's sessions mostly share one judge (its consolidated lessons): built once per set of lessons.
  const memo = new Map<string, TaskJudge>();
  const judgeOfLessons = (applied: readonly Lesson[]): TaskJudge => {
    const key = applied.map((l) => l.id).join('\u0000');
    const known = memo.get(key);
    if (known) return known;
    const checks: Check[] = [];
    const seen = new Set<string>();
    for (const lesson of applied) {
      for (const check of lesson.checks) {
        const k = checkKey(check);
        if (seen.has(k)) continue;
        seen.add(k);
        checks.push(check);
      }
    }
    const judge = {
      checks,
      criteria: [...new Set(applied.filter((l) => l.criterion !== null).map((l) => l.criterion as string))],
      lessons: applied.map((l) => l.id),
      sessions: [...new Set(applied.map((l) => l.rule_from))],
      acceptedAt: null,
    };
    memo.set(key, judge);
    return judge;
  };
  const kindMemo = new Map<string, TaskJudge>();
  const judgeOfKind = (kindId: string, ofKind: readonly Lesson[]): TaskJudge => {
    const known = kindMemo.get(kindId);
    if (known) return known;
    const judge = judgeOfLessons(ofKind);
    kindMemo.set(kindId, judge);
    return judge;
  };
  return {
    judgeOf(sessionKey, kindId) {
      const own = bySession.get(sessionKey) ?? [];
      const ofKind = byKind.get(kindId) ?? [];
      // Most sessions taught nothing themselves: their judge is their kind's, known by the kind alone.
      const judge =
        own.length === 0
          ? judgeOfKind(kindId, ofKind)
          : judgeOfLessons([...own, ...ofKind.filter((lesson) => !own.includes(lesson))]);
      let acceptedAt: number | null = null;
      for (const lesson of own) {
        if (lesson.checks.length === 0) continue;
        for (const e of lesson.evidence) {
          if (e.session === sessionKey && e.rejected !== '' && (acceptedAt === null || e.turn > acceptedAt))
            acceptedAt = e.turn;
        }
      }
      return acceptedAt === null ? judge : { ...judge, acceptedAt };
    },
  };
}
