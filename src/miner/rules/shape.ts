/**
 * Rules that have a shape but no word to name them: what changed between the rejected answer and the
 * corrected one, read as a pattern. No word is known in advance; the change itself says what to check:
 *
 * - **a number's width**: a name kept its text but its digits changed length (`migrations/0007_add…`
 *   → `migrations/20260313180700_add…`): the corrected width must be there, in the same context
 *   (`migrations/\d{14}_`);
 * - **a prefix**: a line gained a prefix (`Speed up the query` → `perf(invoices): speed up the query`):
 *   lines must start with that shape (`(?m)^[a-z]+\([a-z]+\): `), letters and digits generalised;
 * - **a word ending**: the first word of a line lost an ending (`Bumps vitest` → `Bump vitest`,
 *   `Added retry` → `Add retry`): that word may not end so, after the same preceding line (a fence);
 * - **a replaced line**: under the same line, one line became another (`def downgrade() -> None:` then
 *   `pass` → a real body): that pair of lines may not appear.
 *
 * One session's change is a guess; the caller keeps a shape only when it recurs across corrected
 * sessions of the kind, or when the user's sentence names a word of the changed lines.
 */
import type { Check } from '../../core/task.js';
import { escapeRegExp } from '../../replay/judges/rule-checks.js';
import { workText, type AnswerEvidence } from './evidence.js';
import { fails, passes } from './verdict.js';

export interface ShapeCheck {
  check: Check;
  /** The changed lines and their context, to match against the user's sentence. */
  evidence: string;
  /**
   * The check quotes a whole line of this answer ("never this line again"): it says something about
   * the kind only when the same line is corrected in another session, however the user named it.
   */
  verbatim: boolean;
}

const MAX_ENDING = 3;
const MIN_SHARED_SUFFIX = 4;
const MAX_CONTEXT_LINE = 12;
const MIN_LINE_SIMILARITY = 0.5;
const MAX_LINES = 400;
/** A rewrite bigger than this is new work, not a change of shape. */
const MAX_CHANGED_LINES = 60;

export function shapeChecks(answers: {
  firstAttempt: AnswerEvidence;
  rejected: AnswerEvidence;
  accepted: AnswerEvidence;
}): ShapeCheck[] {
  const { firstAttempt, rejected, accepted } = answers;
  const found = new Map<string, ShapeCheck>();
  const keep = (check: Check | null, evidence: string, verbatim = false): void => {
    if (check === null) return;
    const key = `${check.op}\u0000${String(check.arg)}`;
    if (found.has(key)) return;
    if (fails(check, firstAttempt.full) && passes(check, workText(accepted)))
      found.set(key, { check, evidence, verbatim });
  };
  for (const { before, after } of changedTokens(workText(rejected), workText(accepted))) {
    keep(numberWidth(before, after), `${before} ${after}`);
  }
  const oldLines = shapeLines(rejected);
  const newLines = shapeLines(accepted);
  const oldSet = new Set(oldLines.map((l) => l.text));
  const newSet = new Set(newLines.map((l) => l.text));
  const removed = oldLines
    .filter((l) => !newSet.has(l.text) && l.text.trim() !== '')
    .slice(0, MAX_CHANGED_LINES);
  const added = newLines
    .filter((l) => !oldSet.has(l.text) && l.text.trim() !== '')
    .slice(0, MAX_CHANGED_LINES);
  const addedLower = added.map((l) => l.text.toLowerCase());
  for (const r of removed) {
    const partner = bestPartner(r.text, added, addedLower);
    if (partner !== null) {
      keep(linePrefix(r.text, partner.text), `${r.text}\n${partner.text}`);
      keep(wordEnding(r, partner), `${r.previous}\n${r.text}\n${partner.text}`);
      continue;
    }
    const sameContext = added.find((a) => a.previous === r.previous && r.previous.trim() !== '');
    if (sameContext !== undefined) keep(replacedLine(r), `${r.previous}\n${r.text}`, true);
  }
  return [...found.values()];
}

interface Line {
  text: string;
  previous: string;
}

/** The lines of what the answer produced: fenced blocks (with their fences) and file texts. */
function shapeLines(e: AnswerEvidence): Line[] {
  const out: Line[] = [];
  const add = (text: string): void => {
    const all = text.split('\n').slice(0, MAX_LINES);
    all.forEach((line, i) => out.push({ text: line.trimEnd(), previous: (all[i - 1] ?? '').trimEnd() }));
  };
  for (const block of e.blocks) add(`\`\`\`\n${block}\n\`\`\``);
  for (const file of e.files.values()) add(file.text);
  return out;
}

/** Removed/added whitespace-separated tokens paired by a long shared ending (a renamed file). */
function changedTokens(oldText: string, newText: string): Array<{ before: string; after: string }> {
  // Only a token with a digit can change a number's width.
  const candidate = (t: string): boolean => t.length > MIN_SHARED_SUFFIX && HAS_DIGIT.test(t);
  const oldTokens = new Set(oldText.split(/\s+/).filter(candidate));
  const newTokens = [...new Set(newText.split(/\s+/))].filter((t) => candidate(t) && !oldTokens.has(t));
  const pairs: Array<{ before: string; after: string }> = [];
  for (const after of newTokens) {
    let best: string | null = null;
    let bestShared = 0;
    for (const before of oldTokens) {
      const shared = sharedSuffix(before, after);
      if (shared > bestShared) {
        best = before;
        bestShared = shared;
      }
    }
    if (best !== null && bestShared >= MIN_SHARED_SUFFIX) pairs.push({ before: best, after });
  }
  return pairs;
}

const HAS_DIGIT = /\d/;

function sharedSuffix(a: string, b: string): number {
  let n = 0;
  while (n < a.length && n < b.length && a[a.length - 1 - n] === b[b.length - 1 - n]) n += 1;
  return n;
}

function sharedPrefix(a: string, b: string): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n += 1;
  return n;
}

/** `…/migrations/0007_x.up.sql` → `migrations/2026…_x.up.sql` gives `migrations/\d{14}_`. */
function numberWidth(before: string, after: string): Check | null {
  let suffix = sharedSuffix(before, after);
  // The shared ending must not cut into a number ("0010_x" and "…0700_x" share "0_x", not a digit).
  while (suffix > 0 && /\d/.test(after[after.length - suffix] ?? '')) suffix -= 1;
  const oldHead = before.slice(0, before.length - suffix);
  const newHead = after.slice(0, after.length - suffix);
  const oldDigits = /(\d+)$/.exec(oldHead)?.[1] ?? '';
  const newDigits = /(\d+)$/.exec(newHead)?.[1] ?? '';
  if (oldDigits === '' || newDigits === '' || oldDigits.length === newDigits.length) return null;
  const newContext = newHead.slice(0, newHead.length - newDigits.length);
  const oldContext = oldHead.slice(0, oldHead.length - oldDigits.length);
  // The text before the digits, as far as both names agree on it (a folder), is the context.
  const context = commonEnding(oldContext, newContext);
  const next = after[after.length - suffix] ?? '';
  const tail = next !== '' && !/[\p{L}\p{N}]/u.test(next) ? escapeRegExp(next) : '';
  return { op: 'regex', arg: `${escapeRegExp(context)}\\d{${newDigits.length}}${tail}` };
}

function commonEnding(a: string, b: string): string {
  const n = sharedSuffix(a, b);
  return b.slice(b.length - n);
}

/** The added line most like `text` (shared start and end), if alike enough; `lower`: the added lines lowercased. */
function bestPartner(text: string, added: readonly Line[], lower: readonly string[]): Line | null {
  let best: Line | null = null;
  let bestScore = 0;
  const mine = text.toLowerCase();
  for (let i = 0; i < added.length; i++) {
    const other = lower[i] as string;
    const longer = Math.max(mine.length, other.length);
    const shorter = Math.min(mine.length, other.length);
    // No line scores above its length ratio: one that cannot beat the best is not compared.
    if (shorter / longer <= bestScore) continue;
    const shared = sharedPrefix(mine, other) + sharedSuffix(mine, other);
    const score = Math.min(shared, shorter) / longer;
    if (score > bestScore) {
      best = added[i] as Line;
      bestScore = score;
    }
  }
  return best !== null && bestScore >= MIN_LINE_SIMILARITY ? best : null;
}

/** `Speed up x` → `perf(invoices): speed up x`: lines must start with the prefix's shape. */
function linePrefix(oldLine: string, newLine: string): Check | null {
  const oldTrim = oldLine.trimStart().toLowerCase();
  const newTrim = newLine.trimStart();
  if (oldTrim.length < MIN_SHARED_SUFFIX || !newTrim.toLowerCase().endsWith(oldTrim)) return null;
  const prefix = newTrim.slice(0, newTrim.length - oldTrim.length);
  if (!/[\p{L}\p{N}]/u.test(prefix) || !/[^\p{L}\p{N}\s]/u.test(prefix)) return null;
  return { op: 'regex', arg: `(?m)^\\s*${shapeOf(prefix)}` };
}

/** Letters by case, digits and spaces generalised; other characters literal. */
function shapeOf(text: string): string {
  return text.replace(
    /(\p{Ll}+)|(\p{Lu}\p{Ll}*)|(\d+)|(\s+)|([^\p{L}\p{N}\s])/gu,
    (_, lower, upper, digits, spaces, other: string) => {
      if (lower !== undefined) return '[a-z]+';
      if (upper !== undefined) return '[A-Z][a-z]*';
      if (digits !== undefined) return '\\d+';
      if (spaces !== undefined) return '\\s+';
      return escapeRegExp(other);
    },
  );
}

/** `Bumps vitest` → `Bump vitest` (after the same short line): that word may not end with "s" there. */
function wordEnding(oldLine: Line, newLine: Line): Check | null {
  const oldWord = /^\s*(\p{L}+)/u.exec(oldLine.text)?.[1] ?? '';
  const newWord = /^\s*(\p{L}+)/u.exec(newLine.text)?.[1] ?? '';
  if (newWord === '' || oldWord.length <= newWord.length || !oldWord.startsWith(newWord)) return null;
  const ending = oldWord.slice(newWord.length);
  if (ending.length > MAX_ENDING || oldLine.text.slice(oldWord.length) !== newLine.text.slice(newWord.length))
    return null;
  const context =
    oldLine.previous === newLine.previous &&
    oldLine.previous.trim() !== '' &&
    oldLine.previous.length <= MAX_CONTEXT_LINE
      ? `${escapeRegExp(oldLine.previous.trim())}[^\\n]*\\n\\s*`
      : '(?:^|\\n)\\s*';
  return negativeRegex(`${context}[A-Za-z]+${escapeRegExp(ending)}\\b`);
}

/** Under `def downgrade() -> None:` the line `pass` was replaced: that pair may not appear. */
function replacedLine(oldLine: Line): Check | null {
  const previous = oldLine.previous.trim();
  const text = oldLine.text.trim();
  if (previous === '' || text === '') return null;
  const end = /[\p{L}\p{N}_]$/u.test(text) ? '\\b' : '';
  return negativeRegex(`${escapeRegExp(previous)}\\s*\\n\\s*${escapeRegExp(text)}${end}`);
}

/** "must not match": a negative lookahead over the whole answer, as the word checks are written. */
function negativeRegex(pattern: string): Check {
  return { op: 'regex', arg: `(?i)^(?![\\s\\S]*${pattern})` };
}
