/**
 * Which failed checks an edit states, read from the rule's own words: a check's term (the `contains`,
 * `runs`… argument or another form of it, a forbidden word, a section's name, a tool), its number
 * (`max_chars` 1200 as "1,200" or "1200"), or the user's sentence it was learned from. The gate uses it
 * to tell which edit a fixed check owes its fix to, without replaying: a rule that names a check's
 * requirement is the one that made the answer meet it.
 */
import { checkForms } from '../core/action-checks.js';
import { forbiddenTerm } from '../core/negative-check.js';
import { ruleChecks, type Check, type Edit } from '../core/task.js';
import type { ReplayResult } from '../replay/replay.js';
import { evaluateCheck } from '../replay/judges/rule-checks.js';

const LENGTH_OPS = new Set(['max_chars', 'min_chars']);
const TERM_OPS = new Set([
  'contains',
  'not_contains',
  'mentions',
  'not_mentions',
  'runs',
  'not_runs',
  'edits',
  'not_edits',
  'writes',
  'not_writes',
  'section_present',
  'section_contains',
  'tool_called',
]);
/** A term shorter than this ("a", "x") is said by every rule; it names nothing. */
const MIN_TERM_CHARS = 2;
/** A sentence shorter than this many words is a term, not the user's wording of a rule. */
const MIN_SENTENCE_WORDS = 4;

const WORD_CHAR = /[\p{L}\p{N}_]/u;
const escapeRegex = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const squash = (s: string): string =>
  s
    .toLowerCase()
    .replace(/[`"'“”‘’]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
/** "1,200", "1 200" and "1’200" are the number 1200. */
const withoutDigitGroups = (s: string): string => s.replace(/(\d)[,\u00a0\u202f' ’_](?=\d{3}(?!\d))/g, '$1');

/** The term occurs in the text as a whole word where its ends are word characters. */
function saysTerm(text: string, term: string): boolean {
  const t = squash(term);
  if (t.length < MIN_TERM_CHARS) return false;
  const before = WORD_CHAR.test(t.charAt(0)) ? '(?<![\\p{L}\\p{N}_])' : '';
  const after = WORD_CHAR.test(t.charAt(t.length - 1)) ? '(?![\\p{L}\\p{N}_])' : '';
  return new RegExp(`${before}${escapeRegex(t)}${after}`, 'u').test(text);
}

/** The terms a check's requirement is stated with. */
function checkTerms(check: Check): string[] {
  if (TERM_OPS.has(check.op)) return checkForms(check);
  const forbidden = forbiddenTerm(check);
  return forbidden === null ? [] : [forbidden];
}

/** Whether the edit's rule states the check's own requirement. */
export function statesCheck(edit: Pick<Edit, 'content'>, check: Check): boolean {
  const text = squash(edit.content);
  if (check.because !== undefined) {
    const sentence = squash(check.because);
    if (sentence.split(' ').length >= MIN_SENTENCE_WORDS && text.includes(sentence)) return true;
  }
  if (LENGTH_OPS.has(check.op)) {
    const n = Number(check.arg);
    return Number.isInteger(n) && n > 0 && new RegExp(`(?<!\\d)${n}(?!\\d)`).test(withoutDigitGroups(text));
  }
  return checkTerms(check).some((term) => saysTerm(text, term));
}

/** A rule task's checks that the answer fails, each once (by `checkKey`). */
export function failedChecks(result: ReplayResult): Check[] {
  return ruleChecks(result.task).filter(
    (check) => !evaluateCheck(check, result.response, result.toolsCalled).pass,
  );
}
