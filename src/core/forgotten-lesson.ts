/**
 * A lesson the user forgot (`lessons forget`), as the store keeps it: hashes only, never the rule's
 * or the evidence's text, so forgetting the sessions later leaves nothing of them behind. Mining drops
 * a lesson that has a forgotten id, shares a piece of evidence with a forgotten lesson (consolidation
 * may give it a new id), or states a forgotten rule again in the same project.
 */
import { sha256Hex } from './hash.js';
import type { Lesson } from './lesson.js';

export interface ForgottenLesson {
  id: string;
  /** The lesson's project (its repository or folder). */
  project: string;
  /** `ruleKey` of the lesson's rule ('' when the rule has no letter or digit to compare). */
  ruleKey: string;
  /** Where it was said: the session key's hash (`sessionHash`) and the prompt's index. */
  evidence: Array<{ session: string; turn: number }>;
}

/** A session key as the forgotten-lesson records hold it (`forget` of the session finds them by it). */
export const sessionHash = (sessionKey: string): string => sha256Hex(`session\u0000${sessionKey}`);

/** The rule's words, lower-cased and in one normal form: the same sentence typed again matches. */
export function normalisedRule(rule: string): string {
  return (
    rule
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  ).join(' ');
}

export function ruleKey(rule: string): string {
  const words = normalisedRule(rule);
  return words === '' ? '' : sha256Hex(`rule\u0000${words}`);
}

/** What the store keeps of a lesson the user forgets. */
export function forgottenOf(lesson: Lesson): ForgottenLesson {
  const seen = new Set<string>();
  const evidence: ForgottenLesson['evidence'] = [];
  for (const e of lesson.evidence) {
    const session = sessionHash(e.session);
    if (seen.has(`${session}:${e.turn}`)) continue;
    seen.add(`${session}:${e.turn}`);
    evidence.push({ session, turn: e.turn });
  }
  return { id: lesson.id, project: lesson.project, ruleKey: ruleKey(lesson.rule), evidence };
}

export interface ForgetSplit {
  kept: Lesson[];
  /** The mined lessons that were forgotten (or came back from forgotten evidence or a forgotten rule). */
  dropped: Lesson[];
}

/**
 * The lessons minus the forgotten ones. A kept lesson that a dropped one retired stands again: the
 * user took back what contradicted it.
 */
export function withoutForgotten(
  lessons: readonly Lesson[],
  forgotten: readonly ForgottenLesson[],
): ForgetSplit {
  if (forgotten.length === 0) return { kept: [...lessons], dropped: [] };
  const ids = new Set(forgotten.map((f) => f.id));
  const evidence = new Set(forgotten.flatMap((f) => f.evidence.map((e) => `${e.session}:${e.turn}`)));
  const rules = new Set(
    forgotten.filter((f) => f.ruleKey !== '').map((f) => `${f.project}\u0000${f.ruleKey}`),
  );
  const isForgotten = (lesson: Lesson): boolean => {
    if (ids.has(lesson.id)) return true;
    if (lesson.evidence.some((e) => evidence.has(`${sessionHash(e.session)}:${e.turn}`))) return true;
    const key = ruleKey(lesson.rule);
    return key !== '' && rules.has(`${lesson.project}\u0000${key}`);
  };
  const kept: Lesson[] = [];
  const dropped: Lesson[] = [];
  for (const lesson of lessons) (isForgotten(lesson) ? dropped : kept).push(lesson);
  const gone = new Set(dropped.map((l) => l.id));
  return {
    kept: kept.map((lesson) => {
      if (lesson.retired_by === undefined || !gone.has(lesson.retired_by)) return lesson;
      const { retired_by: _gone, ...standing } = lesson;
      return standing;
    }),
    dropped,
  };
}

/**
 * True when `sentence` (a follow-up as the miner quoted it) is `evidence` of a dropped lesson: same
 * session, and one text is the start of the other (both are the same prompt, trimmed and capped).
 */
export function quotesEvidence(
  sessionKey: string,
  sentence: string,
  evidence: ReadonlyArray<{ session: string; sentence: string }>,
): boolean {
  const s = sentence.trim();
  if (s === '') return false;
  return evidence.some(
    (e) =>
      e.session === sessionKey && e.sentence !== '' && (e.sentence.startsWith(s) || s.startsWith(e.sentence)),
  );
}
