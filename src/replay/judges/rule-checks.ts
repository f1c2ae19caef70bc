/**
 * The rule judge: scores a response locally against `{op, arg}` checks, with no model call.
 * Semantics follow the spec's op table (§2.5); regex patterns are Python-style because tasks files
 * come from the reference implementation, and run in linear time (`python-regex.ts`).
 */
import type { Check, Score } from '../../core/task.js';
import { MENTIONS, NOT_MENTIONS, mentionsWord } from '../../core/negative-check.js';
import {
  ACTION_OPS,
  EDITS,
  NOT_EDITS,
  NOT_RUNS,
  NOT_WRITES,
  RUNS,
  WRITES,
  checkForms,
} from '../../core/action-checks.js';
import { answerActions, editsPath, runsTerm, writesTerm } from './answer-actions.js';
import { compilePythonRegex } from './python-regex.js';

export interface CheckResult {
  pass: boolean;
  /** Set when the check itself is malformed (bad regex, bad bound), not merely unmet. */
  problem?: string;
}

/** Ops that only constrain formatting; a judge made only of these can be won by reformatting. */
export const SHAPE_OPS: ReadonlySet<string> = new Set([
  'section_present',
  'section_contains',
  'max_chars',
  'min_chars',
]);

/** Ops whose `arg` must be a non-blank string. */
export const TEXT_ARG_OPS: ReadonlySet<string> = new Set([
  'regex',
  'section_present',
  'section_contains',
  'contains',
  'tool_called',
  'not_contains',
  MENTIONS,
  NOT_MENTIONS,
  ...ACTION_OPS,
]);

export const CHAR_BOUND_OPS: ReadonlySet<string> = new Set(['max_chars', 'min_chars']);

export const KNOWN_OPS: ReadonlySet<string> = new Set([...TEXT_ARG_OPS, ...CHAR_BOUND_OPS, 'no_refusal']);

const REFUSAL_PREFIXES = [
  'cannot complete',
  'i cannot',
  "i can't",
  "i'm unable",
  'i am unable',
  'unable to complete',
  "sorry, i can't",
  'sorry, i cannot',
  'no can do',
];
const REFUSAL_HEAD_CHARS = 160;
const REFUSAL_MAX_CHARS = 600;

export function ruleJudge(checks: readonly Check[], response: string, toolsCalled: readonly string[]): Score {
  if (checks.length === 0) return { hard: 0, soft: 0, rationale: 'no checks' };
  let passed = 0;
  const failures: string[] = [];
  for (const check of checks) {
    const result = evaluateCheck(check, response, toolsCalled);
    if (result.pass) passed += 1;
    else failures.push(describeFailure(check, result.problem));
  }
  const allPassed = passed === checks.length;
  return {
    hard: allPassed ? 1 : 0,
    soft: passed / checks.length,
    rationale: allPassed ? 'all checks passed' : `failed: ${failures.join(', ')}`,
  };
}

function describeFailure(check: Check, problem: string | undefined): string {
  const head = check.arg === undefined ? check.op : `${check.op}=${checkForms(check).join(' | ')}`;
  const said = check.because ? ` (the user said: ${JSON.stringify(check.because)})` : '';
  return problem ? `${head} [${problem}]${said}` : `${head}${said}`;
}

export function evaluateCheck(check: Check, response: string, toolsCalled: readonly string[]): CheckResult {
  const arg = check.arg === undefined ? '' : String(check.arg);
  // A blank text arg would make contains/regex vacuous; fail loudly rather than pass everything.
  if (TEXT_ARG_OPS.has(check.op) && arg.trim() === '') return { pass: false, problem: 'missing arg' };
  switch (check.op) {
    case 'section_present':
      return { pass: hasSectionPresent(response, arg) };
    case 'section_contains':
      return { pass: hasHeadingContaining(response, arg) };
    case 'regex':
      return evaluateRegex(arg, response);
    case 'max_chars':
    case 'min_chars':
      return evaluateCharBound(check.op, check.arg, response);
    case 'contains':
    case 'not_contains': {
      const text = response.toLowerCase();
      const found = checkForms(check).some((form) => text.includes(form.toLowerCase()));
      return { pass: found === (check.op === 'contains') };
    }
    case MENTIONS:
      return { pass: checkForms(check).some((form) => mentionsWord(response, form)) };
    case NOT_MENTIONS:
      return { pass: !checkForms(check).some((form) => mentionsWord(response, form)) };
    case RUNS:
    case NOT_RUNS:
    case EDITS:
    case NOT_EDITS:
    case WRITES:
    case NOT_WRITES:
      return { pass: evaluateAction(check, response) };
    case 'no_refusal':
      return { pass: !isBareRefusal(response) };
    case 'tool_called':
      return { pass: wasToolCalled(arg, response, toolsCalled) };
    default:
      // Unknown ops never block; the validator warns about them instead.
      return { pass: true };
  }
}

/**
 * An action check on the actions the answer states (see `answer-actions.ts`), never its prose. An
 * answer that does nothing passes the negatives (it kept the rule) and fails the positives.
 */
function evaluateAction(check: Check, response: string): boolean {
  const actions = answerActions(response);
  const positive = !check.op.startsWith('not_');
  const kind = positive ? check.op : check.op.slice('not_'.length);
  const test = kind === RUNS ? runsTerm : kind === EDITS ? editsPath : writesTerm;
  const found = checkForms(check).some((form) => test(actions, form));
  return found === positive;
}

/** Unicode casefold approximation: lower-case, plus the one common full folding (ß → ss). */
export function casefold(text: string): string {
  return text.toLowerCase().replaceAll('ß', 'ss');
}

/** Length in code points, as Python's `len(str)` counts, so bounds match the reference. */
export function codePointLength(text: string): number {
  let count = 0;
  for (const _char of text) count += 1;
  return count;
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A heading ending with the name, a bold line containing it, or a `Name:` label at line start. */
function hasSectionPresent(response: string, name: string): boolean {
  const n = escapeRegExp(name);
  const headingOrBold = new RegExp(`^\\s{0,3}(?:#{1,6}\\s*.*${n}|\\*\\*.*${n}.*\\*\\*\\s*:?)\\s*$`, 'im');
  const label = new RegExp(`^\\s*${n}\\s*:`, 'im');
  return headingOrBold.test(response) || label.test(response);
}

const ATX_HEADING = /^ {0,3}#{1,6}(?:[ \t]+(.*))?$/;

/** Only real ATX headings count: body text, bold lines and labels do not. */
function hasHeadingContaining(response: string, text: string): boolean {
  const needle = casefold(text);
  return response.split(/\r?\n/).some((line) => {
    const match = ATX_HEADING.exec(line);
    return match != null && casefold(match[1] ?? '').includes(needle);
  });
}

function evaluateRegex(pattern: string, response: string): CheckResult {
  const compiled = compilePythonRegex(pattern);
  if (!compiled.ok) return { pass: false, problem: `invalid regex (${compiled.error})` };
  return { pass: compiled.regex.test(response) };
}

function evaluateCharBound(op: string, arg: unknown, response: string): CheckResult {
  const bound = parseCharBound(arg);
  if (bound === undefined) return { pass: false, problem: 'invalid char bound' };
  const length = codePointLength(response);
  return { pass: op === 'max_chars' ? length <= bound : length >= bound };
}

/**
 * Parses a `max_chars`/`min_chars` bound: integers, integral floats and integer strings.
 * Booleans are refused (Python treats them as ints, which would silently become 0/1).
 */
export function parseCharBound(arg: unknown): number | undefined {
  if (typeof arg === 'number') return Number.isInteger(arg) ? arg : undefined;
  if (typeof arg === 'string' && /^[+-]?\d+$/.test(arg.trim())) return Number(arg.trim());
  return undefined;
}

/** A terse abstention with no work reported; long answers that open with "I cannot" still explain. */
function isBareRefusal(response: string): boolean {
  const text = response.trim();
  if (text === '') return true;
  // Strip leading markdown markers first so a refusal cannot hide behind quotes, bullets or headings.
  const content = text.replace(/^(?:[>\-*_#\s]|\d+[.)])+/, '');
  const head = Array.from(content).slice(0, REFUSAL_HEAD_CHARS).join('').toLowerCase();
  if (!REFUSAL_PREFIXES.some((prefix) => head.startsWith(prefix))) return false;
  return codePointLength(content) < REFUSAL_MAX_CHARS;
}

function wasToolCalled(name: string, response: string, toolsCalled: readonly string[]): boolean {
  const wanted = name.toLowerCase();
  if (toolsCalled.some((tool) => tool.toLowerCase() === wanted)) return true;
  // Single-shot backends cannot run tools; they self-report with a `TOOL_CALL: name` marker.
  return new RegExp(`\\btool_call\\s*:\\s*${escapeRegExp(name)}\\b`, 'i').test(response);
}
