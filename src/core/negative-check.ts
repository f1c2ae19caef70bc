/**
 * The word-bounded "must not mention Y" check, written with the reference's `regex` op as a negative
 * lookahead so tasks files stay readable by the reference: "pnpm" does not count as "npm".
 */
import type { Check } from './task.js';
import { boundedMemo } from './memo.js';

const PREFIX = '(?i)^(?![\\s\\S]*';
const SUFFIX = ')';

const escapeRegex = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

/** `\b` only where the term starts or ends with a word character (so `dist/` still matches). */
export function boundedPattern(term: string): string {
  const head = /^\w/.test(term) ? '\\b' : '';
  const tail = /\w$/.test(term) ? '\\b' : '';
  return `${head}${escapeRegex(term)}${tail}`;
}

export function negativeWordCheck(term: string): Check {
  return { op: 'regex', arg: `${PREFIX}${boundedPattern(term)}${SUFFIX}` };
}

/**
 * The term a negative word check forbids, or null when the check is not of that form (another
 * regex, or a negative lookahead over a pattern rather than an escaped word).
 */
export function forbiddenTerm(check: Check): string | null {
  if (check.op === NOT_MENTIONS && typeof check.arg === 'string' && check.arg !== '') return check.arg;
  if (check.op !== 'regex' || typeof check.arg !== 'string') return null;
  const p = check.arg;
  if (!p.startsWith(PREFIX) || !p.endsWith(SUFFIX)) return null;
  const original = p.slice(PREFIX.length, p.length - SUFFIX.length);
  let body = original;
  if (body.startsWith('\\b')) body = body.slice(2);
  if (body.endsWith('\\b') && !body.endsWith('\\\\b')) body = body.slice(0, -2);
  const term = body.replace(/\\(.)/g, '$1');
  return term !== '' && boundedPattern(term) === original ? term : null;
}

/** The pattern a "must not match" check forbids (`(?i)^(?![\s\S]*PATTERN)`), or null. */
export function forbiddenPattern(check: Check): string | null {
  if (check.op !== 'regex' || typeof check.arg !== 'string') return null;
  const p = check.arg;
  if (!p.startsWith(PREFIX) || !p.endsWith(SUFFIX)) return null;
  const body = p.slice(PREFIX.length, p.length - SUFFIX.length);
  return body === '' ? null : body;
}

/** The rule-check op of "must not mention this word": word-bounded, so "pnpm" does not count as "npm". */
export const NOT_MENTIONS = 'not_mentions';
/** Its positive: must mention the word as a whole word. */
export const MENTIONS = 'mentions';

const SINGLE_WORD = /^[\p{L}\p{N}_.-]+$/u;

/**
 * A model's natural `not_contains "npm"` as the word-bounded check it means: a substring test would
 * fail every "pnpm" answer. Other checks, and `not_contains` of a phrase, stay as they are.
 */
export function wordBoundedNegative(check: Check): Check {
  if (check.op !== 'not_contains' || typeof check.arg !== 'string') return check;
  const term = check.arg.trim();
  return SINGLE_WORD.test(term) ? { ...check, op: NOT_MENTIONS, arg: term } : check;
}

const wordPattern = boundedMemo((term: string) => new RegExp(boundedPattern(term), 'i'), 8192);

/** True when `text` mentions `term` as a whole word (case-insensitive). */
export function mentionsWord(text: string, term: string): boolean {
  return wordPattern(term).test(text);
}
