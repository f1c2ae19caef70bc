import { describe, expect, it } from 'vitest';
import { MAX_PATTERN_CHARS, compilePythonRegex } from './python-regex.js';
import { evaluateCheck } from './rule-checks.js';

const passes = (pattern: string, response: string): boolean =>
  evaluateCheck({ op: 'regex', arg: pattern }, response, []).pass;

describe('regex checks (Python syntax)', () => {
  it('searches anywhere in the response', () => {
    expect(passes('arXiv:\\d{4}\\.\\d{4,5}', 'see arXiv:2605.23904 now')).toBe(true);
    expect(passes('^\\d+$', 'abc 123')).toBe(false);
  });

  it('turns leading inline flags into flags', () => {
    expect(passes('(?i)hello', 'HELLO')).toBe(true);
    expect(passes('a.b', 'a\nb')).toBe(false);
    expect(passes('(?s)a.b', 'a\nb')).toBe(true);
    expect(passes('(?m)^b$', 'a\nb\nc')).toBe(true);
    expect(passes('(?is)A.B', 'a\nb')).toBe(true);
    expect(passes('(?i)(?s)A.B', 'a\nb')).toBe(true);
  });

  it('follows Python semantics for $, ., \\A, \\Z, named groups and comments', () => {
    expect(passes('done$', 'all done\n')).toBe(true);
    expect(passes('done$', 'all done\n\n')).toBe(false);
    expect(passes('done\\Z', 'all done\n')).toBe(false);
    expect(passes('\\Aall', 'all done')).toBe(true);
    expect(passes('(?m)\\Adone', 'all\ndone')).toBe(false);
    expect(passes('a.b', 'a\rb')).toBe(true);
    expect(passes('(?P<y>\\d{4})-12', '2020-12')).toBe(true);
    expect(passes('a(?#comment)b', 'ab')).toBe(true);
  });

  it('supports verbose patterns', () => {
    expect(passes('(?x) a \\  b  # trailing comment\n c', 'a bc')).toBe(true);
    expect(passes('(?x)[ ]x', ' x')).toBe(true);
  });

  it('reads a leading ] and a nested [ in a class literally, like Python', () => {
    expect(passes('[]a]', 'x]')).toBe(true);
    expect(passes('[^]a]', ']a')).toBe(false);
    expect(passes('[[:]x', ':x')).toBe(true);
  });

  it("takes the escapes Python accepts: punctuation, octal, \\u, \\U, a class's \\b", () => {
    expect(passes('a\\:b', 'a:b')).toBe(true);
    expect(passes('\\u00e9t\\U0001F600', 'ét😀')).toBe(true);
    expect(passes('a\\0b', 'a\u0000b')).toBe(true);
    expect(passes('\\101', 'A')).toBe(true);
    expect(passes('[\\b]', 'a\bb')).toBe(true);
  });

  it('matches code points, not UTF-16 halves', () => {
    expect(passes('^.$', '😀')).toBe(true);
  });

  it('runs a whole-answer lookahead (how "must not match" checks are written) as its negation', () => {
    const noNpm = '(?i)^(?![\\s\\S]*\\bnpm\\b)';
    expect(passes(noNpm, 'run pnpm install')).toBe(true);
    expect(passes(noNpm, 'then\nNPM install')).toBe(false);
    expect(passes('\\A(?=[\\s\\S]*done)', 'all done')).toBe(true);
    expect(passes('^(?!x)', 'yx')).toBe(true);
  });

  it('runs lookbehinds', () => {
    expect(passes('(?<!p)npm', 'pnpm')).toBe(false);
    expect(passes('(?<=use )pnpm', 'use pnpm')).toBe(true);
  });

  it('reports uncompilable patterns', () => {
    expect(compilePythonRegex('[abc')).toMatchObject({ ok: false });
    expect(compilePythonRegex('(?L)a')).toEqual({ ok: false, error: "unknown inline flag 'L'" });
    expect(compilePythonRegex('ab\\')).toMatchObject({ ok: false });
    expect(compilePythonRegex('a)')).toMatchObject({ ok: false });
    expect(compilePythonRegex('a)')).not.toHaveProperty('refused');
    expect(evaluateCheck({ op: 'regex', arg: '(' }, 'x', []).problem).toMatch(/^invalid regex \(/);
  });
});

describe('regex checks run in bounded time', () => {
  it('matches a catastrophic pattern in linear time', () => {
    const started = performance.now();
    // A backtracking engine takes about a minute at 30 `a`s and doubles with each one more.
    expect(passes('^(a+)+$', `${'a'.repeat(34)}!`)).toBe(false);
    expect(passes('(?:a|aa)*b', 'a'.repeat(100_000))).toBe(false);
    expect(passes('^(\\w+\\s?)*$', `${'word '.repeat(20_000)}!`)).toBe(false);
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it.each([
    ['(?P<y>\\d{4})-(?P=y)', 'a backreference (?P=y)'],
    ['(a)\\1', 'a backreference \\1'],
    ['a(?=b)', 'a lookahead (?=…)'],
    ['(?m)^(?!x)', 'a lookahead (?!…)'],
    ['^(?!a)b', 'a lookahead (?!…)'],
  ])('refuses %s by name: %s', (pattern, named) => {
    const compiled = compilePythonRegex(pattern);
    expect(compiled).toMatchObject({ ok: false, refused: true });
    expect(compiled.ok ? '' : compiled.error).toContain(named);
  });

  it('refuses a pattern too long or compiling to too many instructions', () => {
    const long = compilePythonRegex('a'.repeat(MAX_PATTERN_CHARS + 1));
    expect(long).toMatchObject({ ok: false, refused: true });
    expect(long.ok ? '' : long.error).toContain(`at most ${MAX_PATTERN_CHARS}`);
    const wide = compilePythonRegex('(?:x?){900}y');
    expect(wide).toMatchObject({ ok: false, refused: true });
    expect(wide.ok ? '' : wide.error).toMatch(/compiles to \d+ instructions/);
  });
});
