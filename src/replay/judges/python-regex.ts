/**
 * The pattern of a `regex` check, written in Python's syntax (tasks files come from the reference),
 * run by RE2 (`re2js`): the time is linear in the answer whatever the pattern, so a check that arrives
 * in a file (a teammate's tasks, a tasks file, a dataset) cannot hold a night and its project lock for
 * hours (`^(a+)+$` against 34 `a`s and a `!`). What needs backtracking (backreferences, lookaheads) is
 * refused by name, except the lookahead our own checks are written with: `^(?!…)` over the whole answer
 * ("must not match"), run as the negation of its body. Lookbehinds run in linear time too.
 */
import { RE2JS } from 're2js';
import { boundedMemo } from '../../core/memo.js';

/** Longest pattern compiled (a mined check quotes a line or two; a model's check is a phrase). */
export const MAX_PATTERN_CHARS = 1000;
/**
 * Most RE2 instructions a pattern compiles to. Matching is linear in the answer times this at worst
 * (when the DFA gives up: about 1 s per 100 KB at 1,000 here), so it bounds a check's time:
 * `(?:x?){900}` is 12 characters but 1,800 instructions.
 */
export const MAX_PROGRAM_SIZE = 1000;

/** How many compiled patterns stay cached (see {@link compilePythonRegex}). */
const REGEX_CACHE_SIZE = 256;

export interface CheckRegex {
  test(text: string): boolean;
}

/** `refused`: the pattern is valid Python but cannot run in bounded time (or is too large). */
export type CompiledRegex = { ok: true; regex: CheckRegex } | { ok: false; error: string; refused?: true };

/** A pattern we refuse to run, as opposed to one that does not parse. */
class Refused extends Error {}

const INLINE_FLAG_GROUP = /^\(\?([a-zA-Z]+)\)/;

/**
 * Compiles a Python `re` pattern with `re.search` semantics. Leading inline flag groups (`(?i)`,
 * `(?s)`, `(?m)`, `(?x)`, ...) become RE2 flags; Python-only syntax (`\Z`, `(?#...)`, `$`, verbose
 * mode, escapes RE2 lacks) is rewritten. Memoised: judges and the miner test the same few patterns
 * against thousands of answers. A compiled pattern keeps the DFA states its matches built (tens of
 * KB each), so the cache holds a few hundred: 4,096 held some 50 MB through a first night's mining
 * of 4,681 sessions (2,027 patterns); 256 compile 578 more there.
 */
export const compilePythonRegex: (pattern: string) => CompiledRegex = boundedMemo(
  compileUncached,
  REGEX_CACHE_SIZE,
);

function compileUncached(pattern: string): CompiledRegex {
  if (pattern.length > MAX_PATTERN_CHARS)
    return refused(`it is ${pattern.length} characters long, at most ${MAX_PATTERN_CHARS} are run`);
  const flags = new Set<string>();
  let body = pattern;
  for (let match = INLINE_FLAG_GROUP.exec(body); match; match = INLINE_FLAG_GROUP.exec(body)) {
    for (const flag of match[1] ?? '') {
      if (!'aimsux'.includes(flag)) return { ok: false, error: `unknown inline flag '${flag}'` };
      flags.add(flag);
    }
    body = body.slice(match[0].length);
  }
  const mode: SyntaxMode = { verbose: flags.has('x'), multiline: flags.has('m') };
  const re2Flags =
    (flags.has('i') ? RE2JS.CASE_INSENSITIVE : 0) |
    (flags.has('m') ? RE2JS.MULTILINE : 0) |
    (flags.has('s') ? RE2JS.DOTALL : 0);
  try {
    const whole = wholeAnswerLookahead(body, mode);
    if (whole) {
      const inner = compileRe2(`\\A(?:${translatePythonSyntax(whole.body, mode)})`, re2Flags);
      return { ok: true, regex: { test: (text) => inner.test(text) !== whole.negative } };
    }
    const re = compileRe2(translatePythonSyntax(body, mode), re2Flags);
    return { ok: true, regex: { test: (text) => re.test(text) } };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return err instanceof Refused ? refused(message) : { ok: false, error: message };
  }
}

const refused = (error: string): CompiledRegex => ({ ok: false, error, refused: true });

function compileRe2(source: string, flags: number): RE2JS {
  const lookbehind = /\(\?<[=!]/.test(source);
  let re: RE2JS;
  try {
    re = RE2JS.compile(source, flags | (lookbehind ? RE2JS.LOOKBEHINDS : 0));
  } catch (err) {
    // RE2's messages start "error parsing regexp: "; the caller says it does not compile.
    const message = err instanceof Error ? err.message : String(err);
    throw new Error(message.replace(/^error parsing regexp: /, ''), { cause: err });
  }
  const size = re.programSize();
  if (size > MAX_PROGRAM_SIZE)
    throw new Refused(`it compiles to ${size} instructions, at most ${MAX_PROGRAM_SIZE} are run`);
  return re;
}

/**
 * `^(?!BODY)` (or `\A(?!…)`, `^(?=…)`) as the whole pattern: a lookahead at the start of the answer,
 * which is the body matched there, negated or not. Under `(?m)`, `^` is every line start: not this form.
 */
function wholeAnswerLookahead(body: string, mode: SyntaxMode): { body: string; negative: boolean } | null {
  const start = body.startsWith('\\A') ? 2 : body.startsWith('^') && !mode.multiline ? 1 : 0;
  if (start === 0) return null;
  const opener = body.slice(start, start + 3);
  if (opener !== '(?!' && opener !== '(?=') return null;
  if (closingParen(body, start) !== body.length - 1) return null;
  return { body: body.slice(start + 3, -1), negative: opener === '(?!' };
}

/** Index of the `)` closing the group opened at `open`, or -1 (escapes and classes skipped). */
function closingParen(pattern: string, open: number): number {
  let depth = 0;
  for (let i = open; i < pattern.length; i++) {
    const char = pattern.charAt(i);
    if (char === '\\') i += 1;
    else if (char === '[') i = findClassEnd(pattern, i);
    else if (char === '(') depth += 1;
    else if (char === ')' && --depth === 0) return i;
  }
  return -1;
}

interface SyntaxMode {
  verbose: boolean;
  multiline: boolean;
}

/** Rewrites a Python pattern into RE2's syntax, refusing what only a backtracking engine can run. */
function translatePythonSyntax(pattern: string, mode: SyntaxMode): string {
  let out = '';
  let i = 0;
  while (i < pattern.length) {
    const char = pattern.charAt(i);
    if (char === '\\') {
      const escape = readEscape(pattern, i, false);
      out += escape.text;
      i = escape.end;
    } else if (char === '[') {
      const end = findClassEnd(pattern, i);
      out += translateClass(pattern.slice(i, end + 1));
      i = end + 1;
    } else if (mode.verbose && /\s/.test(char)) {
      i += 1;
    } else if (mode.verbose && char === '#') {
      const newline = pattern.indexOf('\n', i);
      i = newline === -1 ? pattern.length : newline + 1;
    } else if (pattern.startsWith('(?#', i)) {
      const close = pattern.indexOf(')', i);
      if (close === -1) throw new Error('missing ), unterminated comment');
      i = close + 1;
    } else if (pattern.startsWith('(?P=', i)) {
      const close = pattern.indexOf(')', i);
      throw new Refused(
        `it uses a backreference ${pattern.slice(i, close === -1 ? i + 4 : close + 1)}, which needs backtracking`,
      );
    } else if (pattern.startsWith('(?=', i) || pattern.startsWith('(?!', i)) {
      throw new Refused(
        `it uses a lookahead ${pattern.slice(i, i + 3)}…), which needs backtracking (only a whole-answer ^(?!…) is run)`,
      );
    } else if (char === '$') {
      // Python's `$` also matches just before a final newline; with (?m) both agree on line ends.
      out += mode.multiline ? '$' : '(?:\\n?\\z)';
      i += 1;
    } else {
      out += char;
      i += 1;
    }
  }
  return out;
}

/**
 * The escape at `at` in RE2's syntax, and where it ends. Python's octal and `\u`/`\U` escapes become
 * `\x{…}`; an escaped character RE2 would not accept (space, a letter beyond ASCII) becomes literal.
 */
function readEscape(pattern: string, at: number, inClass: boolean): { text: string; end: number } {
  const next = pattern.charAt(at + 1);
  if (next === '') throw new Error('bad escape (end of pattern)');
  const hex = (code: number, end: number) => ({ text: `\\x{${code.toString(16)}}`, end });
  if (next === 'u' || next === 'U') {
    const width = next === 'u' ? 4 : 8;
    const digits = pattern.slice(at + 2, at + 2 + width);
    if (!new RegExp(`^[0-9a-fA-F]{${width}}$`).test(digits)) throw new Error(`bad escape \\${next}${digits}`);
    return hex(parseInt(digits, 16), at + 2 + width);
  }
  if (next === '0') {
    const octal = /^[0-7]{0,2}/.exec(pattern.slice(at + 2))?.[0] ?? '';
    return hex(parseInt(`0${octal}`, 8), at + 2 + octal.length);
  }
  if (/[1-9]/.test(next)) {
    const octal = /^[0-7]{3}/.exec(pattern.slice(at + 1))?.[0];
    if (octal !== undefined) return hex(parseInt(octal, 8), at + 4);
    if (inClass) throw new Error(`bad escape \\${next}`);
    const group = /^\d{1,2}/.exec(pattern.slice(at + 1))?.[0] ?? next;
    throw new Refused(`it uses a backreference \\${group}, which needs backtracking`);
  }
  if (inClass && next === 'b') return hex(8, at + 2); // Python: a backspace inside a class
  if (!inClass && (next === 'Z' || next === 'z')) return { text: '\\z', end: at + 2 };
  if (/[A-Za-z]/.test(next) || /[!-/:-@[-`{-~]/.test(next)) return { text: `\\${next}`, end: at + 2 };
  const code = pattern.codePointAt(at + 1) ?? 0;
  return hex(code, at + 1 + (code > 0xffff ? 2 : 1));
}

/** Index of the `]` closing the class opened at `start`; a `]` right after `[` or `[^` is literal. */
function findClassEnd(pattern: string, start: number): number {
  let i = start + 1;
  if (pattern.charAt(i) === '^') i += 1;
  if (pattern.charAt(i) === ']') i += 1;
  while (i < pattern.length) {
    const char = pattern.charAt(i);
    if (char === '\\') i += 2;
    else if (char === ']') return i;
    else i += 1;
  }
  throw new Error(`unterminated character set at position ${start}`);
}

/** A class in RE2's syntax: a leading literal `]` and a nested `[` escaped (RE2 reads `[[:a:]]`). */
function translateClass(cls: string): string {
  const negated = cls.startsWith('[^');
  let i = negated ? 2 : 1;
  let out = negated ? '[^' : '[';
  if (cls.charAt(i) === ']') {
    out += '\\]';
    i += 1;
  }
  while (i < cls.length - 1) {
    const char = cls.charAt(i);
    if (char === '\\') {
      const escape = readEscape(cls, i, true);
      out += escape.text;
      i = escape.end;
    } else {
      out += char === '[' ? '\\[' : char;
      i += 1;
    }
  }
  return `${out}]`;
}
