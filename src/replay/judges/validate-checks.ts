/**
 * Validates a rule judge as found in a tasks file. An error means a check can never behave as
 * written (a regex that does not compile scores 0 forever, indistinguishable from a model that never
 * complies; an unknown op, often a typo, would pass every answer); a warning means the check is
 * accepted but toothless. A check's `because` (the user's sentence it came from) is kept as it is.
 */
import { ANY_OF_OPS } from '../../core/action-checks.js';
import { oneLine } from '../../core/one-line.js';
import type { Check } from '../../core/task.js';
import { compilePythonRegex } from './python-regex.js';
import { CHAR_BOUND_OPS, KNOWN_OPS, SHAPE_OPS, TEXT_ARG_OPS, parseCharBound } from './rule-checks.js';

export interface JudgeValidation {
  /** The well-formed checks, normalised (char bounds as numbers, no arg for `no_refusal`). */
  checks: Check[];
  errors: string[];
  warnings: string[];
}

/**
 * Longest text a check may test for (a phrase, a path, a tool's name): a check is a short fact about
 * an answer, and a megabyte-long `tool_called` name would not even compile into its pattern.
 */
export const MAX_CHECK_ARG_CHARS = 4096;

type CheckOutcome = { check: Check; warning?: string } | { error: string };

export function validateJudge(judge: unknown): JudgeValidation {
  if (judge == null) return { checks: [], errors: [], warnings: [] };
  if (!isPlainObject(judge)) {
    return { checks: [], errors: [`judge must be an object, got ${describeType(judge)}`], warnings: [] };
  }
  const rawChecks = judge['checks'] ?? [];
  if (!Array.isArray(rawChecks)) {
    return {
      checks: [],
      errors: [`judge "checks" must be an array, got ${describeType(rawChecks)}`],
      warnings: [],
    };
  }
  const checks: Check[] = [];
  const errors: string[] = [];
  const warnings: string[] = [];
  rawChecks.forEach((raw: unknown, index) => {
    const outcome = validateCheck(raw, index);
    if ('error' in outcome) {
      errors.push(outcome.error);
      return;
    }
    const because = isPlainObject(raw) ? raw['because'] : undefined;
    if (because !== undefined && typeof because !== 'string') {
      errors.push(`check #${index} "because" must be a string, got ${describeType(because)}`);
      return;
    }
    // The sentence is untrusted text that verdicts quote: one line, no control characters.
    const said = because === undefined ? '' : oneLine(because);
    checks.push(said === '' ? outcome.check : { ...outcome.check, because: said });
    if (outcome.warning) warnings.push(outcome.warning);
  });
  if (errors.length === 0 && isShapeOnly(checks)) {
    warnings.push(
      'judge is shape-only (formatting checks); it can be satisfied by reformatting rather than by a better answer',
    );
  }
  return { checks, errors, warnings };
}

function validateCheck(raw: unknown, index: number): CheckOutcome {
  const where = `check #${index}`;
  if (!isPlainObject(raw)) return { error: `${where} is not an object (got ${describeType(raw)})` };
  const op = raw['op'];
  const arg = raw['arg'];
  if (op === undefined) return { error: `${where} has no "op"` };
  if (typeof op !== 'string') return { error: `${where} op must be a string, got ${describeType(op)}` };
  if (raw['any_of'] != null) {
    if (!ANY_OF_OPS.has(op))
      return {
        error: `${where} ${op} does not read "any_of" (only ${[...ANY_OF_OPS].sort().join(', ')} do)`,
      };
    const forms = validateForms(where, raw['any_of']);
    if (typeof forms === 'string') return { error: forms };
    const outcome = validateTextArg(where, op, arg);
    if ('error' in outcome) return outcome;
    const others = forms.filter((form) => form !== outcome.check.arg);
    return others.length === 0 ? outcome : { check: { ...outcome.check, any_of: others } };
  }
  if (TEXT_ARG_OPS.has(op)) return validateTextArg(where, op, arg);
  if (CHAR_BOUND_OPS.has(op)) return validateCharBound(where, op, arg);
  if (op === 'no_refusal') return { check: { op } };
  return {
    error: `${where} has unknown op ${JSON.stringify(op)} (known: ${[...KNOWN_OPS].sort().join(', ')})`,
  };
}

function validateTextArg(where: string, op: string, arg: unknown): CheckOutcome {
  if (arg == null) return { error: `${where} ${op} needs a non-empty arg` };
  if (typeof arg !== 'string' && typeof arg !== 'number') {
    return { error: `${where} ${op} arg must be a string, got ${describeType(arg)}` };
  }
  const text = String(arg);
  if (text.trim() === '') return { error: `${where} ${op} needs a non-empty arg` };
  if (text.length > MAX_CHECK_ARG_CHARS) return { error: tooLong(`${where} ${op} arg`, text) };
  if (op === 'regex') {
    const compiled = compilePythonRegex(text);
    if (!compiled.ok)
      return compiled.refused
        ? { error: `${where} regex ${quotedHead(text)} is refused: ${compiled.error}` }
        : { error: `${where} regex does not compile (${compiled.error}): ${quotedHead(text)}` };
  }
  return { check: { op, arg: text } };
}

/** `any_of`: an array of non-blank strings, each once (`null` or `[]` is no alternative). */
function validateForms(where: string, raw: unknown): string[] | string {
  if (!Array.isArray(raw)) return `${where} "any_of" must be an array of strings, got ${describeType(raw)}`;
  const forms: string[] = [];
  for (const form of raw as unknown[]) {
    if (typeof form !== 'string' || form.trim() === '')
      return `${where} "any_of" must hold non-empty strings, got ${JSON.stringify(form) ?? describeType(form)}`;
    if (form.length > MAX_CHECK_ARG_CHARS) return tooLong(`${where} "any_of" form`, form);
    if (!forms.includes(form)) forms.push(form);
  }
  return forms;
}

function validateCharBound(where: string, op: string, arg: unknown): CheckOutcome {
  const bound = parseCharBound(arg);
  if (bound === undefined) {
    return { error: `${where} ${op} needs an integer arg, got ${JSON.stringify(arg) ?? 'nothing'}` };
  }
  if (bound < 0) return { error: `${where} ${op} cannot be negative, got ${bound}` };
  const check: Check = { op, arg: bound };
  if (op === 'min_chars' && bound === 0) return { check, warning: `${where} min_chars=0 always passes` };
  return { check };
}

const tooLong = (what: string, text: string): string =>
  `${what} is ${text.length} characters long, at most ${MAX_CHECK_ARG_CHARS}`;

/** A pattern as JSON, cut after 120 characters: a message stays one readable line. */
function quotedHead(text: string): string {
  return text.length <= 120 ? JSON.stringify(text) : `${JSON.stringify(text.slice(0, 120))}…`;
}

function isShapeOnly(checks: readonly Check[]): boolean {
  return checks.length > 0 && checks.every((check) => SHAPE_OPS.has(check.op));
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value != null && !Array.isArray(value);
}

function describeType(value: unknown): string {
  if (value == null) return String(value);
  if (Array.isArray(value)) return 'array';
  return typeof value;
}
