/**
 * A lesson the user forgot (`lessons forget`) or a rule they rejected (`reject`), as the store keeps
 * it: hashes only, never the rule's or the evidence's text, so forgetting the sessions later leaves
 * nothing of them behind. Mining drops a lesson that has a forgotten id, shares a piece of evidence
 * with a forgotten lesson (consolidation may give it a new id), or says a forgotten rule again in the
 * same project in any wording: the same requirement (a check of the same op and argument, when both
 * have checks: "use yarn, not pnpm" is worded like its opposite), else most of the same distinctive
 * words (their hashes, the miner's own measure of two sentences saying one thing).
 */
import { sha256Hex } from './hash.js';
import type { Lesson } from './lesson.js';
import { checkKey, type Check } from './task.js';
import { containment, jaccard, textTokens } from './text-tokens.js';

export interface ForgottenLesson {
  id: string;
  /** The lesson's project (its repository or folder). */
  project: string;
  /** `ruleKey` of the lesson's rule ('' when the rule has no letter or digit to compare). */
  ruleKey: string;
  /** Where it was said: the session key's hash (`sessionHash`) and the prompt's index. */
  evidence: Array<{ session: string; turn: number }>;
  /** Hashes of the rule's tokens (`tokenHash`); empty in records older than them. */
  tokens?: string[];
  /** Hashes of its checks' keys (`checkHash`): the requirement, whatever the words. */
  checks?: string[];
  /** `lessons forget` or `reject` (default forget). */
  origin?: 'forget' | 'reject';
}

export const tokenHash = (token: string): string => sha256Hex(`token\u0000${token}`);
export const checkHash = (check: Check): string => sha256Hex(`check\u0000${checkKey(check)}`);

/** The hashes of a text's distinctive tokens. */
export function ruleTokenHashes(text: string): string[] {
  return [...textTokens(text.normalize('NFKC'))].map(tokenHash).sort();
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

/** What the store keeps of a lesson the user forgets (or whose rule they reject). */
export function forgottenOf(
  lesson: Pick<Lesson, 'id' | 'project' | 'rule' | 'evidence' | 'checks'>,
  origin: 'forget' | 'reject' = 'forget',
): ForgottenLesson {
  const seen = new Set<string>();
  const evidence: ForgottenLesson['evidence'] = [];
  for (const e of lesson.evidence) {
    const session = sessionHash(e.session);
    if (seen.has(`${session}:${e.turn}`)) continue;
    seen.add(`${session}:${e.turn}`);
    evidence.push({ session, turn: e.turn });
  }
  return {
    id: lesson.id,
    project: lesson.project,
    ruleKey: ruleKey(lesson.rule),
    evidence,
    tokens: ruleTokenHashes(lesson.rule),
    checks: [...new Set(lesson.checks.map(checkHash))].sort(),
    origin,
  };
}

/** Jaccard of two rules' distinctive tokens at which the miner takes them for one lesson. */
export const SAME_RULE_WORDS = 0.5;
/** Fewer distinctive tokens than this say too little to be compared by words. */
const MIN_RULE_TOKENS = 2;

/**
 * Whether a rule (its text's token hashes and its checks' hashes) says the forgotten one again. With
 * checks on both sides only the checks decide; otherwise their distinctive words (minus `common`, the
 * hashes of the corpus's function words) must mostly be the same.
 */
export function saysForgottenRule(
  rule: { tokens: readonly string[]; checks: readonly string[] },
  forgotten: ForgottenLesson,
  common: ReadonlySet<string> = new Set(),
): boolean {
  const fChecks = forgotten.checks ?? [];
  if (fChecks.length > 0 && rule.checks.length > 0) return rule.checks.some((c) => fChecks.includes(c));
  const a = new Set(rule.tokens.filter((t) => !common.has(t)));
  const b = new Set((forgotten.tokens ?? []).filter((t) => !common.has(t)));
  if (a.size < MIN_RULE_TOKENS || b.size < MIN_RULE_TOKENS) return false;
  return jaccard(a, b) >= SAME_RULE_WORDS;
}

/**
 * Whether a line a night would write states a rejected rule: it names one of its checks' requirement
 * (`statedChecks`, the hashes of the checks the line states), or holds most of its distinctive words
 * (a model's rewording that keeps the rule's own terms, or a scope prefix before the user's sentence).
 */
export function lineSaysForgottenRule(
  line: string,
  statedChecks: readonly string[],
  forgotten: ForgottenLesson,
): boolean {
  const fChecks = forgotten.checks ?? [];
  if (statedChecks.some((c) => fChecks.includes(c))) return true;
  const rule = new Set(forgotten.tokens ?? []);
  if (rule.size < MIN_RULE_TOKENS) return false;
  return containment(rule, new Set(ruleTokenHashes(line))) >= LINE_HOLDS_RULE;
}

/** Share of a rejected rule's tokens a line must hold to be taken for it. */
const LINE_HOLDS_RULE = 0.6;

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
  /** The corpus's common words (function words), left out of the comparison by words. */
  commonWords: ReadonlySet<string> = new Set(),
): ForgetSplit {
  if (forgotten.length === 0) return { kept: [...lessons], dropped: [] };
  const ids = new Set(forgotten.map((f) => f.id));
  const evidence = new Set(forgotten.flatMap((f) => f.evidence.map((e) => `${e.session}:${e.turn}`)));
  const rules = new Set(
    forgotten.filter((f) => f.ruleKey !== '').map((f) => `${f.project}\u0000${f.ruleKey}`),
  );
  const common = new Set([...commonWords].map(tokenHash));
  const isForgotten = (lesson: Lesson): boolean => {
    if (ids.has(lesson.id)) return true;
    if (lesson.evidence.some((e) => evidence.has(`${sessionHash(e.session)}:${e.turn}`))) return true;
    const key = ruleKey(lesson.rule);
    if (key !== '' && rules.has(`${lesson.project}\u0000${key}`)) return true;
    const said = { tokens: ruleTokenHashes(lesson.rule), checks: lesson.checks.map(checkHash) };
    return forgotten.some((f) => f.project === lesson.project && saysForgottenRule(said, f, common));
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
