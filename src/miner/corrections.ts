/**
 * Correction patterns from config turned into checks (see `correction-patterns.ts`), and the order and
 * validation every mined check goes through.
 *
 * Negative checks are the word-bounded negative form (`negativeWordCheck` in core): the `regex` op
 * with a negative lookahead over the whole answer, `(?i)^(?![\s\S]*\bnpm\b)`, instead of
 * `not_contains`, which would also reject "pnpm". `\b` goes only on a side where the term has a
 * word character, so `dist/` and `--force` work. The judge accepts a leading `(?i)` flag.
 *
 * Order of the checks: the mock optimizer reads a "use X" check (`contains`, `runs`, `writes`, `edits`)
 * directly followed by a negative check for Y (the word-bounded text check or a `not_` action op) as
 * "Use X instead of Y". So the result lists the "use X instead of Y" pairs first (each pair
 * adjacent), then the other negative checks, then the other checks, then the lone "use" checks: a
 * lone "use" is never directly followed by a negative check it has nothing to do with.
 */
import { avoidedTerm, NEGATIVE_ACTION_OPS, usedTerm } from '../core/action-checks.js';
import { checkKey, type Check } from '../core/task.js';
import { codePointLength, evaluateCheck, parseCharBound } from '../replay/judges/rule-checks.js';
import type { CorrectionPattern, MatchContext } from './correction-patterns.js';
import type { CorrectionChecks } from './types.js';

/** What one user message implies. */
export interface CorrectionResult extends CorrectionChecks {
  /** Same length and order as `checks`: the sentence each check was read from. */
  evidence: string[];
}

/** Checks with the sentence each came from (same length and order). */
export interface SourcedChecks {
  checks: Check[];
  evidence: string[];
}

/**
 * The checks `patterns` (from `compileUserPatterns`) read in a user message, deduplicated; the
 * occurrence kept gives the evidence sentence.
 */
export function correctionsToChecks(
  userText: string,
  patterns: readonly CorrectionPattern[],
): CorrectionResult {
  const units: Unit[] = [];
  const corrections: string[] = [];
  for (const sentence of splitSentences(userText)) {
    const found = readSentence(sentence, patterns);
    if (found.length === 0) continue;
    for (const checks of found) units.push(...unitsOf(checks, sentence, units.length));
    corrections.push(sentence);
  }
  return { ...arrange(units), corrections };
}

/**
 * Sentences of a message, with fenced code removed first: pasted logs say things like "use X
 * instead" (npm deprecation warnings) that the user never said.
 */
export function splitSentences(text: string): string[] {
  return text
    .replace(/```[\s\S]*?(?:```|$)/g, ' ')
    .split(/(?<=[.!?])\s+|\n+/)
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence !== '');
}

/** Same op and same argument means the same check; the first occurrence keeps its place. */
export function dedupeChecks(checks: readonly Check[]): Check[] {
  const seen = new Set<string>();
  return checks.filter((check) => {
    const key = checkKey(check);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Whether a check read from a correction is worth keeping for a task: it is well-formed, it FAILS on
 * the agent's first attempt (the answer the user corrected), and some answer satisfies it together with
 * `siblings`, the other checks of the same correction (`contains "npm ci"` and the negative `npm`
 * check contradict each other, so neither is kept). When no first attempt was recorded (blank), the
 * failure test is skipped: nothing shows the check would have passed.
 */
export function isUsefulCheck(check: Check, firstAttempt: string, siblings: readonly Check[] = []): boolean {
  const onAttempt = evaluateCheck(check, firstAttempt, []);
  if (onAttempt.problem !== undefined) return false;
  if (firstAttempt.trim() !== '' && onAttempt.pass) return false;
  return isSatisfiableWith(
    check,
    siblings.filter((sibling) => sibling !== check),
  );
}

/**
 * Keeps the checks `isUsefulCheck` accepts, with their evidence. Checks with the same evidence
 * sentence are one correction (each other's siblings). The result is in the pairing order described
 * at the top of this file; a pair that loses one half leaves the other as a lone check.
 */
export function filterUsefulChecks(
  checks: readonly Check[],
  evidence: readonly string[],
  firstAttempt: string,
): SourcedChecks {
  const sentenceOf = (i: number): string => evidence[i] ?? '';
  const useful = checks.map((check, i) =>
    isUsefulCheck(
      check,
      firstAttempt,
      checks.filter((_, j) => j !== i && sentenceOf(j) === sentenceOf(i)),
    ),
  );
  const units: Unit[] = [];
  for (const unit of unitsOfList(checks, evidence)) {
    const kept = unit.indices.filter((i) => useful[i] === true).map((i) => checks[i] as Check);
    units.push(...unitsOf(kept, unit.evidence, units.length));
  }
  return arrange(units);
}

/**
 * Puts checks with their evidence into the pairing order (see the top of this file) and drops
 * duplicates. Use it after concatenating the results of several messages: a lone `contains` at the
 * end of one must not end up directly before a negative check of the next.
 */
export function arrangeChecks(checks: readonly Check[], evidence: readonly string[]): SourcedChecks {
  const units: Unit[] = [];
  for (const unit of unitsOfList(checks, evidence)) {
    units.push(
      ...unitsOf(
        unit.indices.map((i) => checks[i] as Check),
        unit.evidence,
        units.length,
      ),
    );
  }
  return arrange(units);
}

// ---------------------------------------------------------------------------------------------------

const compiled = new WeakMap<CorrectionPattern, RegExp>();

/** The pattern as a global regex for `matchAll` (compiled once per pattern). */
function globalRegex(pattern: CorrectionPattern, source: RegExp | string): RegExp {
  let regex = compiled.get(pattern);
  if (regex === undefined) {
    regex =
      typeof source === 'string'
        ? new RegExp(source, 'gi')
        : new RegExp(source.source, source.global ? source.flags : `${source.flags}g`);
    compiled.set(pattern, regex);
  }
  return regex;
}

/** Every match of the pattern in the sentence (a config pattern's matcher runs on RE2). */
function matchesIn(sentence: string, pattern: CorrectionPattern): Iterable<RegExpExecArray> {
  const source = pattern.pattern;
  if (typeof source === 'string' || source instanceof RegExp)
    return sentence.matchAll(globalRegex(pattern, source));
  return source.matchAll(sentence);
}

/** The checks of every match of every pattern in one sentence, one list per match. */
function readSentence(sentence: string, patterns: readonly CorrectionPattern[]): Check[][] {
  const claimed: Array<readonly [number, number]> = [];
  const context: MatchContext = {
    sentence,
    isClaimed: (index) => claimed.some(([from, to]) => index >= from && index < to),
  };
  const found: Check[][] = [];
  for (const pattern of patterns) {
    for (const match of matchesIn(sentence, pattern)) {
      if (match[0] === '') continue;
      const checks = pattern.checks(match, context);
      if (checks.length === 0) continue;
      found.push(checks);
      if (pattern.generic !== true) claimed.push([match.index, match.index + match[0].length]);
    }
  }
  return found;
}

/** A "use X instead of Y" pair, or one check by what the mock makes of it. */
type Role = 'pair' | 'avoid' | 'other' | 'use';
const ROLE_RANK: Readonly<Record<Role, number>> = { pair: 0, avoid: 1, other: 2, use: 3 };

interface Unit {
  role: Role;
  checks: Check[];
  evidence: string;
  /** Creation order, kept within a role. */
  order: number;
}

const isNegative = (check: Check | undefined): boolean => check !== undefined && avoidedTerm(check) != null;
/** A check that asks for a term, said or done (`contains`, `runs`, `writes`, `edits`). */
const isUse = (check: Check | undefined): boolean =>
  check !== undefined && check.op !== 'mentions' && usedTerm(check) != null;

function roleOf(check: Check): Role {
  if (isNegative(check)) return 'avoid';
  return isUse(check) ? 'use' : 'other';
}

/** Splits one match's checks (or what is left of a unit) into units: a "use" + negative is a pair. */
function unitsOf(checks: readonly Check[], evidence: string, firstOrder: number): Unit[] {
  const units: Unit[] = [];
  for (let i = 0; i < checks.length; i += 1) {
    const check = checks[i] as Check;
    const next = checks[i + 1];
    const order = firstOrder + units.length;
    if (isUse(check) && next !== undefined && isNegative(next)) {
      units.push({ role: 'pair', checks: [check, next], evidence, order });
      i += 1;
    } else {
      units.push({ role: roleOf(check), checks: [check], evidence, order });
    }
  }
  return units;
}

/** Units of an arranged list: a pair is a "use" directly followed by a negative, same evidence. */
function unitsOfList(
  checks: readonly Check[],
  evidence: readonly string[],
): Array<{ indices: number[]; evidence: string }> {
  const units: Array<{ indices: number[]; evidence: string }> = [];
  for (let i = 0; i < checks.length; i += 1) {
    const sentence = evidence[i] ?? '';
    const paired = isUse(checks[i]) && isNegative(checks[i + 1]) && (evidence[i + 1] ?? '') === sentence;
    units.push({ indices: paired ? [i, i + 1] : [i], evidence: sentence });
    if (paired) i += 1;
  }
  return units;
}

/**
 * Drops duplicate checks and orders the rest: pairs, negatives, others, lone `contains`. A pair wins
 * over an equal lone check wherever it comes; a pair whose half is already taken leaves the other half.
 */
function arrange(units: readonly Unit[]): SourcedChecks {
  const taken = new Set<string>();
  const kept: Unit[] = [];
  for (const unit of units) {
    if (unit.role !== 'pair') continue;
    const free = unit.checks.filter((check) => !taken.has(checkKey(check)));
    free.forEach((check) => taken.add(checkKey(check)));
    if (free.length === 2) kept.push(unit);
    else kept.push(...free.map((check) => ({ ...unit, role: roleOf(check), checks: [check] })));
  }
  for (const unit of units) {
    const [check] = unit.checks;
    if (unit.role === 'pair' || check === undefined || taken.has(checkKey(check))) continue;
    taken.add(checkKey(check));
    kept.push(unit);
  }
  kept.sort((a, b) => ROLE_RANK[a.role] - ROLE_RANK[b.role] || a.order - b.order);
  return {
    checks: kept.flatMap((unit) => unit.checks),
    evidence: kept.flatMap((unit) => unit.checks.map(() => unit.evidence)),
  };
}

// ---------------------------------------------------------------------------------------------------
// Satisfiability

/** Checks an answer meets by saying or doing something. */
const POSITIVE_OPS: ReadonlySet<string> = new Set([
  'contains',
  'section_present',
  'section_contains',
  'min_chars',
  'runs',
  'edits',
  'writes',
]);

/** Checks an answer meets by leaving something out or staying short. */
function isConstraint(check: Check): boolean {
  return (
    isNegative(check) ||
    NEGATIVE_ACTION_OPS.has(check.op) ||
    check.op === 'not_contains' ||
    check.op === 'max_chars'
  );
}

const passes = (check: Check, answer: string): boolean => evaluateCheck(check, answer, []).pass;

/**
 * The smallest answer that says and does what `positives` ask for: each `contains` text, each heading,
 * then (in the rendered-answer format) each command run, each path edited and the text written.
 */
function witness(positives: readonly Check[]): string {
  const argsOf = (op: string): string[] =>
    positives.filter((check) => check.op === op).map((check) => String(check.arg ?? ''));
  const lines = [
    ...positives.flatMap((check) => {
      const arg = String(check.arg ?? '');
      if (check.op === 'contains') return [arg];
      return check.op === 'section_present' || check.op === 'section_contains' ? [`## ${arg}`] : [];
    }),
    ...argsOf('runs').map((arg) => `$ ${arg}`),
    ...argsOf('edits').map((arg) => `--- ${arg}`),
  ];
  const written = argsOf('writes');
  if (written.length > 0) lines.push('--- answer.txt', ...written);
  const text = lines.join('\n');
  const minimum = Math.max(
    0,
    ...positives.filter((check) => check.op === 'min_chars').map((check) => parseCharBound(check.arg) ?? 0),
  );
  return text + ' '.repeat(Math.max(0, minimum - codePointLength(text)));
}

/**
 * A positive check must hold on its own witness without breaking a constraint of the same correction;
 * a constraint must hold on the witness of all the correction's positive checks.
 */
function isSatisfiableWith(check: Check, others: readonly Check[]): boolean {
  if (POSITIVE_OPS.has(check.op)) {
    const answer = witness([check]);
    return passes(check, answer) && others.filter(isConstraint).every((other) => passes(other, answer));
  }
  if (isConstraint(check)) {
    return passes(check, witness(others.filter((other) => POSITIVE_OPS.has(other.op))));
  }
  return true;
}
