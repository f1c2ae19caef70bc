/**
 * What the reflect prompt says about each judged answer, in words a model can act on: every failed
 * check as a sentence with the user's own words it came from, the expected answer of a train task
 * (never of a val/test one: the gate would be measured on answers the optimizer has read), and
 * answers scored only by how their old session ended kept apart, labelled, so no rule is read from them.
 */
import { checkForms } from '../../core/action-checks.js';
import { forbiddenPattern, forbiddenTerm } from '../../core/negative-check.js';
import type { Check, TaskRecord } from '../../core/task.js';
import { ruleChecks } from '../../core/task.js';
import { OUTCOME_RATIONALE } from '../../replay/judges/exact.js';
import { evaluateCheck } from '../../replay/judges/rule-checks.js';
import type { Trajectory } from '../types.js';

const ANSWER_CHARS = 1500;
const EXPECTED_CHARS = 600;
const INTENT_CHARS = 400;
/** How much of an answer reflection reads. */
export const REFLECTED_ANSWER_CHARS = ANSWER_CHARS;

const clip = (text: string, n: number): string => (text.length > n ? `${text.slice(0, n)} […]` : text);
const code = (text: string): string => (text.includes('`') ? `"${text}"` : `\`${text}\``);

/** A check as the rule it states, e.g. "must contain the literal text `vitest --run`". */
export function checkInWords(check: Check): string {
  const arg = check.arg === undefined ? '' : String(check.arg);
  // The term and the other forms the check accepts: "`vitest --run` (or `vitest run`)".
  const forms = checkForms(check);
  const term = forms.length > 1 ? `${code(arg)} (or ${forms.slice(1).map(code).join(', ')})` : code(arg);
  // The miner's "never X" is a word-bounded lookahead regex or `not_mentions`: say it as the rule.
  const forbidden = forbiddenTerm(check);
  if (forbidden !== null && forms.length <= 1)
    return `must not mention the word ${code(forbidden)} anywhere (as a whole word), not even to say it was avoided`;
  const unmatched = forbiddenPattern(check);
  if (unmatched !== null) return `must not match the regular expression ${code(unmatched)} anywhere`;
  switch (check.op) {
    case 'mentions':
      return `must mention the word ${term} (as a whole word)`;
    case 'not_mentions':
      return `must not mention the word ${term} anywhere (as a whole word), not even to say it was avoided`;
    case 'contains':
      return `must contain the literal text ${term}`;
    case 'not_contains':
      return `must not mention ${term} anywhere, not even to say it was avoided`;
    case 'runs':
      return `must run a command with ${term} in it (a "$ <command>" line)`;
    case 'not_runs':
      return `must not run any command with ${term} in it (saying so in prose is fine)`;
    case 'edits':
      return `must write, edit or delete a file at ${term} (a "--- <path>" line)`;
    case 'not_edits':
      return `must not write, edit or delete any file at ${term} (saying so in prose is fine)`;
    case 'writes':
      return `must write ${term} into a file it changes`;
    case 'not_writes':
      return `must not write ${term} into any file (saying so in prose is fine)`;
    case 'regex':
      return `must match the regular expression ${code(arg)}`;
    case 'section_present':
      return `must have a section (heading, bold line or "${arg}:" label) named ${code(arg)}`;
    case 'section_contains':
      return `must have a Markdown heading containing ${code(arg)}`;
    case 'max_chars':
      return `must be at most ${arg} characters long`;
    case 'min_chars':
      return `must be at least ${arg} characters long`;
    case 'no_refusal':
      return 'must answer the task instead of refusing it';
    case 'tool_called':
      return `must use the tool ${code(arg)}`;
    default:
      return arg === '' ? `must pass the check ${check.op}` : `must pass the check ${check.op}=${arg}`;
  }
}

/** The answer was scored by how its old session ended, not by a check of this answer. */
export function isOutcomeDerived(t: Trajectory): boolean {
  return t.score.rationale === OUTCOME_RATIONALE;
}

/** A failed check as reflection reads it, with the user's sentence it came from. */
export function failedCheckLine(check: Check): string {
  const said = check.because ? ` — from the user's words: ${JSON.stringify(check.because)}` : '';
  return `- The answer ${checkInWords(check)}${said}`;
}

/** One line per failed check of a rule task. */
function failedChecks(task: TaskRecord, response: string, toolsCalled: readonly string[] = []): string[] {
  return ruleChecks(task)
    .filter((check) => !evaluateCheck(check, response, toolsCalled).pass)
    .map(failedCheckLine);
}

/** The task's request as a replay's heading shows it. */
export const replayIntent = (task: TaskRecord): string => clip(task.intent, INTENT_CHARS);

/** Only train tasks show their reference: val and test answers never reach the optimizer. */
export function expectedAnswer(task: TaskRecord): string | null {
  if (task.split !== 'train' || task.reference_kind !== 'exact' || task.reference.trim() === '') return null;
  return clip(task.reference.trim(), EXPECTED_CHARS);
}

/** What the judge said of an answer, as the reflect prompt shows it under the answer. */
function verdictLines(t: Trajectory): string[] {
  const lines: string[] = [];
  // Calls are taken out of the answer's text: say which were made (only on nights with tools).
  if (t.toolsCalled && t.toolsCalled.length > 0) lines.push(`Tools called: ${t.toolsCalled.join(', ')}`);
  const expected = expectedAnswer(t.task);
  if (expected !== null) lines.push(`Expected answer:\n${expected}`);
  const failed = t.score.hard === 1 ? [] : failedChecks(t.task, t.response, t.toolsCalled);
  const rubric = t.score.rationale.split('; rubric: ')[1];
  if (failed.length > 0) {
    lines.push(`Failed checks:\n${failed.join('\n')}`);
    if (rubric !== undefined) lines.push(`Rubric judge: ${rubric}`);
  } else if (t.task.reference_kind === 'rule' && t.score.hard === 1) lines.push('Every check passed.');
  else if (t.task.reference_kind === 'exact' && t.score.hard === 0)
    lines.push(
      `The answer does not contain the expected answer (partial credit ${t.score.soft.toFixed(2)}).`,
    );
  else lines.push(`Judge: hard ${t.score.hard}, soft ${t.score.soft.toFixed(2)} — ${t.score.rationale}`);
  return lines;
}

const heading = (t: Trajectory): string => `## Task ${t.task.id}: ${replayIntent(t.task)}`;
const answerGiven = (t: Trajectory): string => `Answer given:\n${clip(t.response, ANSWER_CHARS)}`;

/** A judged answer as the reflect prompt shows it. */
export function describeTrajectory(t: Trajectory): string {
  return [heading(t), answerGiven(t), ...verdictLines(t)].join('\n');
}

/** Answers without a real check: shown apart, with what their score means. */
function describeUnchecked(t: Trajectory): string {
  const how = t.score.hard === 1 ? 'ended well' : 'did not end well';
  return [
    heading(t),
    answerGiven(t),
    `No check: the user's original session ${how}; this says nothing about the answer above.`,
  ].join('\n');
}

/**
 * How many bytes of replays (failed, passed and unchecked together) one reflect prompt carries. Past
 * it, what is left out is counted in a line: a night's failures once filled 52 KB of one prompt.
 */
export const REFLECT_EVIDENCE_BYTES = 24_000;
const OTHER_INTENT_CHARS = 100;
const MAX_OTHERS_LISTED = 12;

/** Failures with the same verdict (the same failed checks, said the same way): shown once. */
function groupByVerdict(failures: readonly Trajectory[]): Trajectory[][] {
  const groups = new Map<string, Trajectory[]>();
  for (const t of failures) {
    const key = verdictLines(t).join('\n');
    const group = groups.get(key);
    if (group) group.push(t);
    else groups.set(key, [t]);
  }
  // The verdict most tasks share first: it is what most failures need.
  return [...groups.values()].sort((a, b) => b.length - a.length);
}

/** One verdict's failures: the first in full, the others by request, with their count. */
function describeGroup([first, ...others]: Trajectory[]): string {
  if (first === undefined) return '';
  const text = describeTrajectory(first);
  if (others.length === 0) return text;
  const listed = others
    .slice(0, MAX_OTHERS_LISTED)
    .map((t) => `- Task ${t.task.id}: ${clip(t.task.intent, OTHER_INTENT_CHARS)}`);
  const more = others.length > MAX_OTHERS_LISTED ? [`- and ${others.length - MAX_OTHERS_LISTED} more`] : [];
  const n = others.length;
  return [
    text,
    `The same verdict on ${n} other task${n === 1 ? '' : 's'} (answers not shown):`,
    ...listed,
    ...more,
  ].join('\n');
}

const bytes = (text: string): number => Buffer.byteLength(text, 'utf8');

/** Blocks in order while they fit `budget`; the rest counted in one line. Returns the text and bytes used. */
function withinBudget(
  blocks: readonly { text: string; tasks: number }[],
  budget: number,
  what: string,
): { text: string; used: number; leftOut: number } {
  const kept: string[] = [];
  let used = 0;
  let index = 0;
  for (; index < blocks.length; index++) {
    const block = blocks[index];
    if (block === undefined) break;
    const size = bytes(block.text) + 2;
    // The first failure is always shown: reflection needs one.
    if (used + size > budget && !(what === 'failed' && index === 0)) break;
    kept.push(block.text);
    used += size;
  }
  const rest = blocks.slice(index);
  if (rest.length > 0) {
    const tasks = rest.reduce((n, b) => n + b.tasks, 0);
    kept.push(`(${tasks} more ${what} replay${tasks === 1 ? '' : 's'} left out: the prompt's size budget)`);
  }
  return { text: kept.join('\n\n'), used, leftOut: rest.length };
}

export interface ReflectEvidence {
  failures: string;
  successes: string;
  unchecked: string;
}

/**
 * The prompt's sections: checked failures (deduplicated by verdict, most shared first), checked
 * successes, and the unchecked ones apart, under one byte budget that failures fill first.
 */
export function reflectEvidence(
  failures: readonly Trajectory[],
  successes: readonly Trajectory[],
  maxSuccesses: number,
  budget = REFLECT_EVIDENCE_BYTES,
): ReflectEvidence {
  const groups = groupByVerdict(failures.filter((t) => !isOutcomeDerived(t)));
  const failed = withinBudget(
    groups.map((g) => ({ text: describeGroup(g), tasks: g.length })),
    budget,
    'failed',
  );
  // Failures first: once one is left out, what is left of the budget goes to no passed replay.
  const rest = failed.leftOut > 0 ? 0 : budget - failed.used;
  const checkedSuccesses = successes.filter((t) => !isOutcomeDerived(t)).slice(0, maxSuccesses);
  const passed = withinBudget(
    checkedSuccesses.map((t) => ({ text: describeTrajectory(t), tasks: 1 })),
    rest,
    'passed',
  );
  const unchecked = [...failures, ...successes].filter(isOutcomeDerived).slice(0, maxSuccesses);
  const other = withinBudget(
    unchecked.map((t) => ({ text: describeUnchecked(t), tasks: 1 })),
    Math.max(0, rest - passed.used),
    'unchecked',
  );
  return { failures: failed.text, successes: passed.text, unchecked: other.text };
}
