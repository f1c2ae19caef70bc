import { describe, expect, it } from 'vitest';
import { MAX_CHECK_ARG_CHARS, validateJudge } from './validate-checks.js';

function judgeOf(...checks: unknown[]): unknown {
  return { kind: 'rule', checks };
}

describe('validateJudge: judge shape', () => {
  it('accepts a missing judge as no checks', () => {
    expect(validateJudge(undefined)).toEqual({ checks: [], errors: [], warnings: [] });
    expect(validateJudge(null)).toEqual({ checks: [], errors: [], warnings: [] });
    expect(validateJudge({})).toEqual({ checks: [], errors: [], warnings: [] });
  });

  it('rejects a judge that is not an object', () => {
    expect(validateJudge('contains pnpm').errors).toEqual(['judge must be an object, got string']);
    expect(validateJudge([{ op: 'contains', arg: 'x' }]).errors).toEqual([
      'judge must be an object, got array',
    ]);
  });

  it('rejects checks that are not an array', () => {
    expect(validateJudge({ checks: { op: 'contains' } }).errors).toEqual([
      'judge "checks" must be an array, got object',
    ]);
  });
});

describe('validateJudge: checks', () => {
  it('keeps well-formed checks, normalised', () => {
    const result = validateJudge(
      judgeOf(
        { op: 'contains', arg: 'pnpm' },
        { op: 'regex', arg: '(?i)^fix' },
        { op: 'max_chars', arg: '200' },
        { op: 'min_chars', arg: 10.0 },
        { op: 'no_refusal', arg: 'ignored' },
        { op: 'tool_called', arg: 'search' },
      ),
    );
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([]);
    expect(result.checks).toEqual([
      { op: 'contains', arg: 'pnpm' },
      { op: 'regex', arg: '(?i)^fix' },
      { op: 'max_chars', arg: 200 },
      { op: 'min_chars', arg: 10 },
      { op: 'no_refusal' },
      { op: 'tool_called', arg: 'search' },
    ]);
  });

  it("keeps a check's because (the user's sentence) and refuses one that is not text", () => {
    const kept = validateJudge(judgeOf({ op: 'contains', arg: 'pnpm', because: 'we use pnpm here' }));
    expect(kept.errors).toEqual([]);
    expect(kept.checks).toEqual([{ op: 'contains', arg: 'pnpm', because: 'we use pnpm here' }]);
    const cleaned = validateJudge(
      judgeOf({ op: 'contains', arg: 'pnpm', because: 'we use\u001b[31m\npnpm\u2028' }),
    );
    expect(cleaned.checks[0]?.because).toBe('we use pnpm');
    const refused = validateJudge(judgeOf({ op: 'contains', arg: 'pnpm', because: 5 }));
    expect(refused.errors).toEqual(['check #0 "because" must be a string, got number']);
    expect(refused.checks).toEqual([]);
  });

  it('rejects a check that is not an object, or has a missing or non-string op', () => {
    expect(validateJudge(judgeOf('contains')).errors).toEqual(['check #0 is not an object (got string)']);
    expect(validateJudge(judgeOf({ arg: 'x' })).errors).toEqual(['check #0 has no "op"']);
    expect(validateJudge(judgeOf({ op: 3, arg: 'x' })).errors).toEqual([
      'check #0 op must be a string, got number',
    ]);
  });

  it.each(['regex', 'section_present', 'section_contains', 'contains', 'tool_called', 'not_contains'])(
    'requires a non-blank arg for %s',
    (op) => {
      expect(validateJudge(judgeOf({ op })).errors).toEqual([`check #0 ${op} needs a non-empty arg`]);
      expect(validateJudge(judgeOf({ op, arg: '   ' })).errors).toEqual([
        `check #0 ${op} needs a non-empty arg`,
      ]);
    },
  );

  it('rejects a non-text arg for a text op', () => {
    expect(validateJudge(judgeOf({ op: 'contains', arg: true })).errors).toEqual([
      'check #0 contains arg must be a string, got boolean',
    ]);
  });

  it('rejects a regex that does not compile', () => {
    const { errors } = validateJudge(judgeOf({ op: 'regex', arg: '(unclosed' }));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^check #0 regex does not compile \(.+\): "\(unclosed"$/);
  });

  it('refuses, by name, a regex that needs backtracking', () => {
    expect(validateJudge(judgeOf({ op: 'regex', arg: '(a+)\\1' })).errors).toEqual([
      'check #0 regex "(a+)\\\\1" is refused: it uses a backreference \\1, which needs backtracking',
    ]);
  });

  it('refuses a text arg over the bound, in one line that does not quote it', () => {
    const huge = 'x'.repeat(MAX_CHECK_ARG_CHARS + 1);
    expect(validateJudge(judgeOf({ op: 'tool_called', arg: huge })).errors).toEqual([
      `check #0 tool_called arg is ${huge.length} characters long, at most ${MAX_CHECK_ARG_CHARS}`,
    ]);
    const [error] = validateJudge(judgeOf({ op: 'contains', arg: 'x', any_of: [huge] })).errors;
    expect(error).toBe(
      `check #0 "any_of" form is ${huge.length} characters long, at most ${MAX_CHECK_ARG_CHARS}`,
    );
  });

  it.each([
    [true, 'needs an integer arg, got true'],
    [1.5, 'needs an integer arg, got 1.5'],
    ['ten', 'needs an integer arg, got "ten"'],
    [undefined, 'needs an integer arg, got nothing'],
    [-1, 'cannot be negative, got -1'],
    ['-4', 'cannot be negative, got -4'],
  ])('rejects the char bound %j', (arg, message) => {
    expect(validateJudge(judgeOf({ op: 'max_chars', arg })).errors).toEqual([
      `check #0 max_chars ${message}`,
    ]);
  });

  it('reports every bad check, by index', () => {
    const { errors, checks } = validateJudge(
      judgeOf({ op: 'contains', arg: 'ok' }, { op: 'contains' }, { op: 'min_chars', arg: false }),
    );
    expect(errors).toEqual([
      'check #1 contains needs a non-empty arg',
      'check #2 min_chars needs an integer arg, got false',
    ]);
    expect(checks).toEqual([{ op: 'contains', arg: 'ok' }]);
  });
});

describe('validateJudge: action checks and other forms', () => {
  it('keeps the action ops with a text arg and refuses a blank one', () => {
    const ops = ['runs', 'not_runs', 'edits', 'not_edits', 'writes', 'not_writes'];
    const result = validateJudge(judgeOf(...ops.map((op) => ({ op, arg: 'dist/' }))));
    expect(result.errors).toEqual([]);
    expect(result.checks.map((c) => c.op)).toEqual(ops);
    expect(validateJudge(judgeOf({ op: 'not_edits', arg: ' ' })).errors).toEqual([
      'check #0 not_edits needs a non-empty arg',
    ]);
  });

  it('keeps any_of on a term op, each form once and none equal to arg; [] or null is none', () => {
    const result = validateJudge(
      judgeOf(
        {
          op: 'runs',
          arg: 'vitest --run',
          any_of: ['vitest run', 'vitest --run', 'vitest run'],
          because: 'b',
        },
        { op: 'contains', arg: 'x', any_of: [] },
        { op: 'not_mentions', arg: 'npm', any_of: null },
      ),
    );
    expect(result.errors).toEqual([]);
    expect(result.checks).toEqual([
      { op: 'runs', arg: 'vitest --run', any_of: ['vitest run'], because: 'b' },
      { op: 'contains', arg: 'x' },
      { op: 'not_mentions', arg: 'npm' },
    ]);
  });

  it('refuses any_of that is not a list of text, or on an op that does not read it', () => {
    expect(validateJudge(judgeOf({ op: 'runs', arg: 'x', any_of: 'y' })).errors).toEqual([
      'check #0 "any_of" must be an array of strings, got string',
    ]);
    expect(validateJudge(judgeOf({ op: 'runs', arg: 'x', any_of: ['y', ''] })).errors).toEqual([
      'check #0 "any_of" must hold non-empty strings, got ""',
    ]);
    expect(validateJudge(judgeOf({ op: 'regex', arg: 'x', any_of: ['y'] })).errors[0]).toMatch(
      /^check #0 regex does not read "any_of" \(only contains, edits, /,
    );
  });
});

describe('validateJudge: warnings', () => {
  it('warns that min_chars=0 always passes', () => {
    const result = validateJudge(judgeOf({ op: 'min_chars', arg: 0 }, { op: 'contains', arg: 'x' }));
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual(['check #0 min_chars=0 always passes']);
  });

  it('rejects an unknown op (it would pass every answer), naming the known ones', () => {
    const result = validateJudge(judgeOf({ op: 'contains', arg: 'x' }, { op: 'frobnicate', arg: 'y' }));
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toMatch(/^check #1 has unknown op "frobnicate" \(known: contains, .*regex/);
    expect(result.warnings).toEqual([]);
    expect(result.checks).toEqual([{ op: 'contains', arg: 'x' }]);
  });

  it('warns about a shape-only judge', () => {
    const result = validateJudge(
      judgeOf(
        { op: 'section_present', arg: 'Summary' },
        { op: 'section_contains', arg: 'Plan' },
        { op: 'max_chars', arg: 50 },
      ),
    );
    expect(result.errors).toEqual([]);
    expect(result.warnings).toHaveLength(1);
    expect(result.warnings[0]).toMatch(/^judge is shape-only/);
  });

  it('does not call a judge with an outcome op shape-only', () => {
    const result = validateJudge(judgeOf({ op: 'section_present', arg: 'Summary' }, { op: 'no_refusal' }));
    expect(result.warnings).toEqual([]);
  });

  it('skips the shape-only warning when there are errors', () => {
    const result = validateJudge(judgeOf({ op: 'max_chars', arg: 'x' }, { op: 'min_chars', arg: 1 }));
    expect(result.errors).toHaveLength(1);
    expect(result.warnings).toEqual([]);
  });
});
