import { describe, expect, it } from 'vitest';
import { evaluateCheck, parseCharBound, ruleJudge } from './rule-checks.js';

function passes(
  op: string,
  arg: string | number | undefined,
  response: string,
  tools: string[] = [],
): boolean {
  return evaluateCheck(arg === undefined ? { op } : { op, arg }, response, tools).pass;
}

describe('ruleJudge', () => {
  it('scores nothing without checks', () => {
    expect(ruleJudge([], 'anything', [])).toEqual({ hard: 0, soft: 0, rationale: 'no checks' });
  });

  it('passes hard only when every check passes', () => {
    const checks = [
      { op: 'contains', arg: 'pnpm' },
      { op: 'max_chars', arg: 100 },
    ];
    expect(ruleJudge(checks, 'use pnpm install', [])).toEqual({
      hard: 1,
      soft: 1,
      rationale: 'all checks passed',
    });
  });

  it('gives partial credit and lists the failed checks', () => {
    const checks = [
      { op: 'contains', arg: 'pnpm' },
      { op: 'max_chars', arg: 5 },
      { op: 'no_refusal' },
      { op: 'not_contains', arg: 'npm' },
    ];
    const score = ruleJudge(checks, 'use npm install', []);
    expect(score.hard).toBe(0);
    expect(score.soft).toBe(0.25);
    expect(score.rationale).toBe('failed: contains=pnpm, max_chars=5, not_contains=npm');
  });

  it('marks an uncompilable regex as a problem, not a miss', () => {
    const score = ruleJudge([{ op: 'regex', arg: '(unclosed' }], 'text', []);
    expect(score.hard).toBe(0);
    expect(score.rationale).toMatch(/^failed: regex=\(unclosed \[invalid regex \(.+\)\]$/);
  });

  it("names the user's sentence of a failed check, and only of a failed one", () => {
    const checks = [
      { op: 'contains', arg: 'pnpm', because: 'we are on pnpm workspaces' },
      { op: 'max_chars', arg: 100, because: 'keep it short' },
    ];
    expect(ruleJudge(checks, 'npm install x', []).rationale).toBe(
      'failed: contains=pnpm (the user said: "we are on pnpm workspaces")',
    );
  });

  it('names a bare op without an arg', () => {
    expect(ruleJudge([{ op: 'no_refusal' }], '', []).rationale).toBe('failed: no_refusal');
  });
});

describe('section_present', () => {
  it('accepts a heading that ends with the name', () => {
    expect(passes('section_present', 'Summary', 'intro\n## Summary\ntext')).toBe(true);
    expect(passes('section_present', 'Summary', '#Summary  ')).toBe(true);
    expect(passes('section_present', 'summary', '   ### Final SUMMARY')).toBe(true);
  });

  it('rejects a heading where the name is followed by more text', () => {
    expect(passes('section_present', 'Summary', '## Summary of results')).toBe(false);
  });

  it('accepts a bold line or a label', () => {
    expect(passes('section_present', 'Risks', '**Key risks**')).toBe(true);
    expect(passes('section_present', 'Risks', '**Risks**:')).toBe(true);
    expect(passes('section_present', 'Risks', 'risks: none')).toBe(true);
  });

  it('rejects body text and over-indented headings', () => {
    expect(passes('section_present', 'Risks', 'There are no risks here.')).toBe(false);
    expect(passes('section_present', 'Risks', '    ## Risks')).toBe(false);
  });

  it('treats the name literally', () => {
    expect(passes('section_present', 'C++ (notes)', '## C++ (notes)')).toBe(true);
    expect(passes('section_present', 'a.c', '## abc')).toBe(false);
  });
});

describe('section_contains', () => {
  it('accepts any ATX heading whose text contains the name', () => {
    expect(passes('section_contains', 'plan', '# Intro\n## Test PLAN details\nbody')).toBe(true);
    expect(passes('section_contains', 'STRASSE', '### Straße')).toBe(true);
  });

  it('ignores body text, bold lines, labels and #-words without a space', () => {
    expect(passes('section_contains', 'plan', 'the plan is simple')).toBe(false);
    expect(passes('section_contains', 'plan', '**Plan**')).toBe(false);
    expect(passes('section_contains', 'plan', 'Plan: x')).toBe(false);
    expect(passes('section_contains', 'plan', '#plan')).toBe(false);
  });
});

describe('char bounds', () => {
  it('counts code points like Python', () => {
    expect(passes('max_chars', 2, '😀😀')).toBe(true);
    expect(passes('min_chars', 3, '😀😀')).toBe(false);
  });

  it('compares inclusively', () => {
    expect(passes('max_chars', 5, 'hello')).toBe(true);
    expect(passes('max_chars', 4, 'hello')).toBe(false);
    expect(passes('min_chars', 5, 'hello')).toBe(true);
    expect(passes('min_chars', 6, 'hello')).toBe(false);
  });

  it('accepts integer strings and fails a malformed bound with a problem', () => {
    expect(passes('max_chars', ' 10 ', 'hello')).toBe(true);
    expect(evaluateCheck({ op: 'max_chars', arg: 'ten' }, 'x', [])).toEqual({
      pass: false,
      problem: 'invalid char bound',
    });
  });

  it('parses only integral bounds', () => {
    expect(parseCharBound(12)).toBe(12);
    expect(parseCharBound(12.0)).toBe(12);
    expect(parseCharBound('+7')).toBe(7);
    expect(parseCharBound(1.5)).toBeUndefined();
    expect(parseCharBound(true)).toBeUndefined();
    expect(parseCharBound(Number.NaN)).toBeUndefined();
    expect(parseCharBound('1e3')).toBeUndefined();
  });
});

describe('contains / not_contains', () => {
  it('match case-insensitively', () => {
    expect(passes('contains', 'PNPM', 'run pnpm i')).toBe(true);
    expect(passes('contains', 'yarn', 'run pnpm i')).toBe(false);
    expect(passes('not_contains', 'NPM install', 'run npm install')).toBe(false);
    expect(passes('not_contains', 'yarn', 'run pnpm i')).toBe(true);
  });

  it('mentions / not_mentions are word-bounded: "pnpm" is no mention of "npm"', () => {
    expect(passes('not_contains', 'npm', 'run pnpm install')).toBe(false);
    expect(passes('not_mentions', 'npm', 'run pnpm install')).toBe(true);
    expect(passes('not_mentions', 'npm', 'run NPM install')).toBe(false);
    expect(passes('mentions', 'npm', 'run pnpm install')).toBe(false);
    expect(passes('mentions', 'pnpm', 'run pnpm install')).toBe(true);
    expect(evaluateCheck({ op: 'not_mentions', arg: ' ' }, 'x', [])).toMatchObject({
      problem: 'missing arg',
    });
  });

  it('fail a blank arg instead of passing everything', () => {
    expect(evaluateCheck({ op: 'contains', arg: '  ' }, 'x', [])).toEqual({
      pass: false,
      problem: 'missing arg',
    });
  });
});

describe('no_refusal', () => {
  it('fails empty and bare refusals', () => {
    expect(passes('no_refusal', undefined, '   ')).toBe(false);
    expect(passes('no_refusal', undefined, "I can't help with that.")).toBe(false);
    expect(passes('no_refusal', undefined, 'Sorry, I cannot do this.')).toBe(false);
    expect(passes('no_refusal', undefined, 'No can do')).toBe(false);
  });

  it('sees through leading markdown markers', () => {
    expect(passes('no_refusal', undefined, '> **I cannot** complete this')).toBe(false);
    expect(passes('no_refusal', undefined, '1. Unable to complete the task')).toBe(false);
    expect(passes('no_refusal', undefined, '## I am unable to proceed')).toBe(false);
  });

  it('passes real answers and long explained refusals', () => {
    expect(passes('no_refusal', undefined, 'Here is the fix.')).toBe(true);
    expect(
      passes('no_refusal', undefined, `I cannot find it. ${'I searched these files. '.repeat(30)}`),
    ).toBe(true);
  });
});

describe('tool_called', () => {
  it('passes when the tool was detected, case-insensitively', () => {
    expect(passes('tool_called', 'Search', 'done', ['search'])).toBe(true);
    expect(passes('tool_called', 'search', 'done', ['grep'])).toBe(false);
  });

  it('accepts the TOOL_CALL marker as a whole word', () => {
    expect(passes('tool_called', 'search', 'tool_call:  SEARCH then answer')).toBe(true);
    expect(passes('tool_called', 'search', 'TOOL_CALL: searcher')).toBe(false);
  });
});

describe('unknown ops', () => {
  it('always pass', () => {
    expect(passes('sounds_nice', 'x', '')).toBe(true);
  });
});
