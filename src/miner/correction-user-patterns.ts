/** Correction patterns from config (JSON): compiled and validated into rows of the pattern table. */
import { RE2JS } from 're2js';
import { InputError } from '../core/errors.js';
import { negativeWordCheck } from '../core/negative-check.js';
import type { Check } from '../core/task.js';
import {
  CHAR_BOUND_OPS,
  KNOWN_OPS,
  TEXT_ARG_OPS,
  escapeRegExp,
  parseCharBound,
} from '../replay/judges/rule-checks.js';
import { validateJudge } from '../replay/judges/validate-checks.js';
import { MAX_PATTERN_CHARS, MAX_PROGRAM_SIZE } from '../replay/judges/python-regex.js';
import { cleanSpan } from './correction-fragments.js';
import type { CorrectionPattern, UserPatternSpec } from './correction-patterns.js';

const GROUP_REF = /\$(\$|\d)/g;
const HEADING_OPS: ReadonlySet<string> = new Set(['section_present', 'section_contains']);

/**
 * Compiles config patterns (JSON) into table rows, validating everything up front: the regex
 * compiles and cannot match the empty string, every op is a known rule-check op, every `$n` names a
 * group the regex has, and each check is well-formed (per `validateJudge`) with its groups filled in.
 * Throws `InputError` naming the pattern.
 */
export function compileUserPatterns(specs: readonly UserPatternSpec[]): CorrectionPattern[] {
  const names = new Set<string>();
  return specs.map((spec, index) => {
    const name: unknown = spec.name;
    if (typeof name !== 'string' || name.trim() === '') {
      throw new InputError(`correction pattern #${index} needs a non-empty "name"`);
    }
    const label = `correction pattern "${name}"`;
    if (names.has(name)) throw new InputError(`${label} is defined twice; names must be unique`);
    names.add(name);
    const regex = compileSentenceRegex(label, spec.regex);
    const groupCount = regex.groupCount();
    const checks: unknown = spec.checks;
    if (!Array.isArray(checks) || checks.length === 0) {
      throw new InputError(`${label} needs a non-empty "checks" array`);
    }
    const templates = checks.map((raw: unknown, i) => checkTemplate(label, raw, i, groupCount));
    const problems = validateJudge({ checks: templates.map(placeholderCheck) }).errors;
    if (problems.length > 0) throw new InputError(`${label}: ${problems.join('; ')}`);
    return {
      name,
      // re2js gives each match its index, as `String.prototype.matchAll` does.
      pattern: { matchAll: (sentence: string) => regex.matchAll(sentence) as Iterable<RegExpExecArray> },
      checks: (m: RegExpMatchArray) =>
        templates.map((template) => fillCheck(template, m)).filter((check) => check != null),
    };
  });
}

interface CheckTemplate {
  op: string;
  arg?: string;
}

/**
 * The pattern on RE2 (JavaScript syntax translated by re2js), case-insensitive: linear in the sentence
 * whatever it is, since a project's config may hold it. What only backtracking can run is refused.
 */
function compileSentenceRegex(label: string, source: unknown): RE2JS {
  if (typeof source !== 'string' || source.trim() === '') {
    throw new InputError(`${label} needs a non-empty "regex" string`);
  }
  const quoted = JSON.stringify(source.length > 120 ? `${source.slice(0, 120)}…` : source);
  if (source.length > MAX_PATTERN_CHARS)
    throw new InputError(
      `${label}: regex ${quoted} is ${source.length} characters long, at most ${MAX_PATTERN_CHARS}`,
    );
  let regex: RE2JS | undefined;
  let reason = '';
  try {
    const translated = RE2JS.translateRegExp(source);
    const lookbehind = /\(\?<[=!]/.test(translated) ? RE2JS.LOOKBEHINDS : 0;
    regex = RE2JS.compile(translated, RE2JS.CASE_INSENSITIVE | lookbehind);
  } catch (err) {
    reason = (err instanceof Error ? err.message : String(err)).replace(/^error parsing regexp: /, '');
  }
  if (regex === undefined) {
    const why = /\(\?[=!]|\\[1-9]/.test(source)
      ? 'lookaheads and backreferences need backtracking, which is not run'
      : 'it does not compile';
    throw new InputError(`${label}: regex ${quoted} is refused: ${why} (${reason})`);
  }
  if (regex.programSize() > MAX_PROGRAM_SIZE)
    throw new InputError(
      `${label}: regex ${quoted} compiles to ${regex.programSize()} instructions, at most ${MAX_PROGRAM_SIZE}`,
    );
  if (regex.test('')) {
    throw new InputError(
      `${label}: regex ${JSON.stringify(source)} matches the empty string, so it would fire on every sentence`,
    );
  }
  return regex;
}

function checkTemplate(label: string, raw: unknown, index: number, groupCount: number): CheckTemplate {
  const where = `${label}: check #${index}`;
  if (typeof raw !== 'object' || raw == null || Array.isArray(raw)) {
    throw new InputError(`${where} must be an object with "op" and "arg"`);
  }
  const { op, arg } = raw as Record<string, unknown>;
  if (typeof op !== 'string' || !KNOWN_OPS.has(op)) {
    throw new InputError(
      `${where} has unknown op ${JSON.stringify(op)} (known: ${[...KNOWN_OPS].sort().join(', ')})`,
    );
  }
  if (arg !== undefined && typeof arg !== 'string' && typeof arg !== 'number') {
    throw new InputError(`${where} arg must be a string or a number`);
  }
  if (arg === undefined) return { op };
  const text = String(arg);
  for (const ref of text.matchAll(GROUP_REF)) {
    const group = ref[1] ?? '$';
    if (group !== '$' && Number(group) > groupCount) {
      throw new InputError(
        `${where} uses $${group} but the regex has ${groupCount} capture group${groupCount === 1 ? '' : 's'}`,
      );
    }
  }
  return { op, arg: text };
}

/** The template with every group reference replaced by a stand-in, for `validateJudge`. */
function placeholderCheck(template: CheckTemplate): Check {
  if (template.arg === undefined) return { op: template.op };
  const standIn = CHAR_BOUND_OPS.has(template.op) ? '1' : 'x';
  return {
    op: template.op,
    arg: template.arg.replace(GROUP_REF, (_, g: string) => (g === '$' ? '$' : standIn)),
  };
}

/** The check one match gives, or null when a referenced group is empty or not usable. */
function fillCheck(template: CheckTemplate, m: RegExpMatchArray): Check | null {
  const { op, arg } = template;
  if (arg === undefined) return TEXT_ARG_OPS.has(op) || CHAR_BOUND_OPS.has(op) ? null : { op };
  if (CHAR_BOUND_OPS.has(op)) {
    const filled = fill(arg, m, (raw) => raw.replace(/[\s,_]/g, ''));
    const bound = filled == null ? undefined : parseCharBound(filled);
    return bound === undefined || bound < 0 ? null : { op, arg: bound };
  }
  const filled = fill(arg, m, (raw) => {
    const value = cleanSpan(raw);
    if (value == null) return null;
    if (op === 'regex') return escapeRegExp(value);
    return HEADING_OPS.has(op) ? value.replace(/^#{1,6}\s*/, '') : value;
  });
  if (filled == null || filled.trim() === '') return null;
  return op === 'not_contains' ? negativeWordCheck(filled) : { op, arg: filled };
}

function fill(template: string, m: RegExpMatchArray, clean: (raw: string) => string | null): string | null {
  let missing = false;
  const out = template.replace(GROUP_REF, (_, group: string) => {
    if (group === '$') return '$';
    const raw = m[Number(group)];
    const value = raw === undefined ? null : clean(raw);
    if (value == null || value === '') missing = true;
    return value ?? '';
  });
  return missing ? null : out;
}
