import { describe, expect, it } from 'vitest';
import { negativeWordCheck } from '../../core/negative-check.js';
import type { Check } from '../../core/task.js';
import type { Episode } from '../episodes.js';
import { edit, run, write } from '../test-helpers.js';
import { kindRules } from './kind-rules.js';
import { followUpFindings, MAX_ANSWER_EXCERPT } from './session-rules.js';

const ep = (prompt: string, actions: Episode['actions'] = [], text = ''): Episode => ({
  turnIndex: 0,
  prompt,
  text,
  actions,
});
const common = new Set(['use', 'the', 'please', 'not', 'in', 'this', 'repo', 'no', 'it', 'we']);
const checksOf = (episodes: Episode[]): Check[] =>
  followUpFindings(episodes, 0, common).flatMap((f) => [
    ...f.literal.map((l) => l.check),
    ...f.shapes.map((s) => s.check),
  ]);

describe('rules from what a correction changed', () => {
  it('reads "use X, not Y" from the commands, whatever the wording', () => {
    const npm = [
      ep('add zod', [run('npm install zod')]),
      ep('wrong package manager: it has to be pnpm', [run('rm -f package-lock.json'), run('pnpm add zod')]),
    ];
    expect(checksOf(npm)).toEqual([{ op: 'runs', arg: 'pnpm' }]);
    const both = [ep('add zod', [run('npm install zod')]), ep('No, use yarn not npm', [run('yarn add zod')])];
    expect(checksOf(both)).toEqual([
      { op: 'runs', arg: 'yarn' },
      { op: 'not_runs', arg: 'npm' },
    ]);
    // The same step run another way shares a word with it, not a program or an argument.
    const tests = [
      ep('run the tests', [run('npm run test')]),
      ep('no npm here, use pnpm', [run('pnpm test')]),
    ];
    expect(checksOf(tests)).toContainEqual({ op: 'not_runs', arg: 'npm' });
  });

  it('never forbids the plain word a follow-up asks for, unless it names what replaced it', () => {
    const next = [
      ep('fix the flaky test', [run('pnpm vitest run src/a.test.ts')]),
      ep('ok now run the whole suite', [run('pnpm test')]),
    ];
    expect(checksOf(next)).not.toContainEqual({ op: 'not_runs', arg: 'run' });
    expect(checksOf(next)).not.toContainEqual(negativeWordCheck('run'));
    const instead = [
      ep('fix the flaky test', [run('npx jest src/a.test.ts')]),
      ep('wait: we run the tests with vitest, not jest', [run('npx vitest run src/a.test.ts')]),
    ];
    expect(checksOf(instead)).toContainEqual({ op: 'not_runs', arg: 'jest' });
    // A bare word the longer forbidden term already covers says nothing more.
    const via = [
      ep('fix the failing parser test', [run('go test -run TestParse ./...')]),
      ep('Please run tests via make test, not go test directly', [run('make test')]),
    ];
    const checks = checksOf(via);
    expect(checks).toContainEqual({ op: 'not_runs', arg: 'go test' });
    expect(checks).not.toContainEqual({ op: 'not_runs', arg: 'run' });
    // A prose word the command has only inside a flag is not the command's word.
    const flag = [
      ep('fix the failing parser test', [run('go test -run TestParse ./...')]),
      ep('Run `make test` instead, the db fixture needs it', [run('make test')]),
    ];
    expect(checksOf(flag)).toEqual([{ op: 'runs', arg: 'make test' }]);
  });

  it('reads a correction against the last answer that did work, not a chat reply in between', () => {
    const later = [
      ep('commit message please', [run('git diff --staged')], '```\nAdd retry to client\n```'),
      ep('never mind, it works', [], 'Great.'),
      ep('the message needs a `Refs: #` line', [], '```\nAdd retry to client\n\nRefs: #12\n```'),
    ];
    expect(checksOf(later)).toEqual([{ op: 'contains', arg: 'Refs: #' }]);
  });

  it('counts what the corrected edit took out as part of the rejected answer, after work in between', () => {
    const between = [
      ep('fix the crash in loadUser', [write('/p/user.ts', "if (!id) {\n  console.log('missing id');\n}")]),
      ep('ok now run the tests', [run('pnpm test')]),
      ep('no console.log in production code, use the logger', [
        edit(
          '/p/user.ts',
          "if (!id) {\n  console.log('missing id');",
          "if (!id) {\n  logger.info('missing id');",
        ),
      ]),
    ];
    expect(checksOf(between)).toEqual(
      expect.arrayContaining([
        { op: 'not_writes', arg: 'console.log' },
        { op: 'writes', arg: 'logger' },
      ]),
    );
  });

  it('reads a correction against the earlier answer it undoes, past other work in between', () => {
    const undo = [
      ep('fix the broken build', [edit('/p/dist/db.js', "from './config'", "from './config.js'")]),
      ep('use pnpm please', [run('pnpm build')]),
      ep("don't touch dist/, it is generated", [
        run('git restore dist/'),
        edit('/p/src/db.ts', "from './config'", "from './config.js'"),
      ]),
    ];
    expect(checksOf(undo)).toContainEqual({ op: 'not_edits', arg: 'dist/' });
  });

  it('looks past the commands that only undo the rejected answer', () => {
    const pip = [
      ep('add tenacity', [run('pip install tenacity')]),
      ep(
        "we don't pip install in this repo, use `uv add`",
        [run('pip uninstall -y tenacity'), run('uv add tenacity')],
        'Undoing the pip install first.',
      ),
    ];
    expect(checksOf(pip)).toEqual(
      expect.arrayContaining([
        { op: 'runs', arg: 'uv add' },
        { op: 'not_runs', arg: 'pip install' },
      ]),
    );
    expect(checksOf(pip)).toHaveLength(2);
    const dist = [
      ep('fix the type error', [edit('/p/dist/index.d.ts', 'a', 'b')]),
      ep('you edited dist/ again. those files are generated', [
        run('git checkout -- /p/dist/index.d.ts'),
        edit('/p/src/types.ts', 'a', 'b'),
      ]),
    ];
    expect(checksOf(dist)).toEqual([{ op: 'not_edits', arg: 'dist/' }]);
  });

  it('reads code terms from the files the answer rewrote', () => {
    const pandas = [
      ep('write the revenue transform', [write('/p/revenue.py', 'import pandas as pd\ndf = pd.read_csv(x)')]),
      ep('we use polars here, not pandas', [
        write('/p/revenue.py', 'import polars as pl\ndf = pl.read_csv(x)'),
      ]),
    ];
    expect(checksOf(pandas)).toEqual([
      { op: 'writes', arg: 'polars' },
      { op: 'not_writes', arg: 'pandas' },
    ]);
  });

  it('judges a term on what the answers did with it, and on what they said only in a fenced block', () => {
    // The rejected answer read dist/index.d.ts and edited it: the path it wrote is what was corrected.
    const read = [
      ep('fix the type error', [
        run("sed -n '1,40p' /p/dist/index.d.ts"),
        edit('/p/dist/index.d.ts', 'a', 'b'),
      ]),
      ep("don't touch dist/, it is generated", [
        run('git checkout -- /p/dist/index.d.ts'),
        edit('/p/src/types.ts', 'a', 'b'),
      ]),
    ];
    expect(checksOf(read)).toEqual([{ op: 'not_edits', arg: 'dist/' }]);
    // A command shown in the answer's text, not run: the text is what the user corrected.
    const shown = [
      ep('how do I add zod?', [], 'Run this:\n```\nnpm install zod\n```'),
      ep('no, use pnpm, not npm', [], 'Run this:\n```\npnpm install zod\n```'),
    ];
    expect(checksOf(shown)).toEqual([{ op: 'contains', arg: 'pnpm' }, negativeWordCheck('npm')]);
  });

  it('gives nothing for a new request that names a new file', () => {
    const readme = [
      ep('add zod', [run('pnpm add zod')]),
      ep('also add a short note about it in the README', [edit('/p/README.md', 'TODO', 'zod: schemas')]),
    ];
    expect(checksOf(readme)).toEqual([]);
  });

  it('reads shapes nobody named: a number width, a prefix, a word ending, a replaced line', () => {
    const timestamp = [
      ep('add a migration', [write('/p/migrations/0007_add_x.up.sql', 'ALTER TABLE t ADD x')]),
      ep('we switched to timestamps', [
        run('git mv migrations/0007_add_x.up.sql migrations/20260313180700_add_x.up.sql'),
      ]),
    ];
    expect(checksOf(timestamp)).toContainEqual({ op: 'regex', arg: 'migrations/\\d{14}_' });
    const prefix = [
      ep('commit message please', [], '```\nSpeed up the invoice query\n```'),
      ep('release tooling needs it', [], '```\nperf(invoices): speed up the invoice query\n```'),
    ];
    expect(checksOf(prefix)).toContainEqual({ op: 'regex', arg: '(?m)^\\s*[a-z]+\\([a-z]+\\):\\s+' });
    const ending = [
      ep('commit message please', [], '```\nBumps vitest to 3.2\n```'),
      ep('past tense again', [], '```\nBump vitest to 3.2\n```'),
    ];
    expect(checksOf(ending)).toContainEqual({
      op: 'regex',
      arg: '(?i)^(?![\\s\\S]*```[^\\n]*\\n\\s*[A-Za-z]+s\\b)',
    });
    const downgrade = [
      ep('create a migration', [
        write('/p/m.py', 'def upgrade():\n    op.add()\ndef downgrade():\n    pass'),
      ]),
      ep('migrations must have a working downgrade()', [
        edit('/p/m.py', 'def downgrade():\n    pass', 'def downgrade():\n    op.drop()'),
      ]),
    ];
    expect(checksOf(downgrade)).toContainEqual({
      op: 'regex',
      arg: '(?i)^(?![\\s\\S]*def downgrade\\(\\):\\s*\\n\\s*pass\\b)',
    });
  });

  it('keeps a check only when the first attempt fails it', () => {
    // The first attempt already used pnpm; the second answer went back to it: nothing to learn.
    const episodes = [
      ep('add zod', [run('pnpm add zod')]),
      ep('and dayjs', [run('npm install dayjs')]),
      ep('pnpm please', [run('pnpm add dayjs')]),
    ];
    expect(checksOf(episodes)).toEqual([]);
  });
});

describe("a finding's answers", () => {
  // Longer than the excerpt, short enough that the rendered answer still ends with its commands.
  const prose = (word: string): string =>
    `${word} `.repeat(Math.ceil((MAX_ANSWER_EXCERPT + 500) / word.length));

  it('keeps an excerpt of each, and the accepted answer whole when the follow-up gave checks', () => {
    const [checked] = followUpFindings(
      [
        ep('add zod', [run('npm install zod')], prose('installed')),
        ep('No, use yarn not npm', [run('yarn add zod')], prose('done')),
      ],
      0,
      common,
    );
    expect(checked?.literal.length).toBeGreaterThan(0);
    expect(checked?.rejected).toBe(prose('installed').slice(0, MAX_ANSWER_EXCERPT));
    expect(checked?.accepted.length).toBeGreaterThan(MAX_ANSWER_EXCERPT);
    expect(checked?.accepted.startsWith(prose('done'))).toBe(true);
    const [unchecked] = followUpFindings(
      [
        ep('add zod', [run('npm install zod')], prose('installed')),
        ep('and the types too', [run('npm install @types/node')], prose('done')),
      ],
      0,
      common,
    );
    expect(unchecked?.literal).toEqual([]);
    expect(unchecked?.shapes).toEqual([]);
    expect(unchecked?.accepted).toBe(prose('done').slice(0, MAX_ANSWER_EXCERPT));
  });
});

describe('the rules of a kind', () => {
  const session = (key: string, episodes: Episode[]) => ({
    sessionKey: key,
    findings: followUpFindings(episodes, 0, common),
  });
  const commit = (key: string, sentence: string, before: string, after: string) =>
    session(key, [
      ep('commit message please', [], `\`\`\`\n${before}\n\`\`\``),
      ep(sentence, [], `\`\`\`\n${after}\n\`\`\``),
    ]);

  it('keeps a named term from one session, and an unnamed shape only when it recurs', () => {
    const once = kindRules(
      [commit('a', 'past tense again', 'Added retry to client', 'Add retry to client')],
      new Set(),
      common,
    );
    expect(once.checks).toEqual([]);
    const twice = kindRules(
      [
        commit('a', 'past tense again', 'Added retry to client', 'Add retry to client'),
        commit('b', 'imperative please', 'Added a cache', 'Add a cache'),
      ],
      new Set(),
      common,
    );
    expect(twice.checks).toEqual([{ op: 'regex', arg: '(?i)^(?![\\s\\S]*```[^\\n]*\\n\\s*[A-Za-z]+ed\\b)' }]);
    expect(twice.sources[0]).toMatchObject({ sessionKey: 'a', sentence: 'past tense again' });
  });

  it('keeps a whole replaced line only when the same line is corrected in two sessions, even if named', () => {
    const thenChain = (key: string, name: string) =>
      session(key, [
        ep('write the loader', [
          write(
            `/p/${name}.ts`,
            `export async function ${name}() {\n  return load().then((r) => r.body);\n}`,
          ),
        ]),
        ep('no `.then()` chains, use await', [
          edit(
            `/p/${name}.ts`,
            `export async function ${name}() {\n  return load().then((r) => r.body);`,
            `export async function ${name}() {\n  return (await load()).body;`,
          ),
        ]),
      ]);
    const verbatim = (checks: readonly Check[]): Check[] =>
      checks.filter((c) => c.op === 'regex' && String(c.arg).includes('function'));
    const findings = thenChain('a', 'loadUser').findings;
    expect(findings.flatMap((f) => f.shapes).some((s) => s.verbatim)).toBe(true);
    expect(verbatim(kindRules([thenChain('a', 'loadUser')], new Set(), common).checks)).toEqual([]);
    const same = kindRules([thenChain('a', 'loadUser'), thenChain('b', 'loadUser')], new Set(), common);
    expect(verbatim(same.checks)).toHaveLength(1);
  });

  it('drops an example one session gave when the answers the user accepted elsewhere do not hold it', () => {
    const rules = kindRules(
      [
        commit('a', 'our convention is imperative, e.g. "Add retry"', 'Added retry', 'Add retry'),
        commit('b', 'imperative please', 'Bumped vitest', 'Bump vitest'),
        commit('c', 'imperative please', 'Removed the table', 'Remove the table'),
      ],
      new Set(),
      common,
    );
    expect(rules.checks).not.toContainEqual({ op: 'contains', arg: 'Add retry' });
    expect(rules.checks).toContainEqual({
      op: 'regex',
      arg: '(?i)^(?![\\s\\S]*```[^\\n]*\\n\\s*[A-Za-z]+ed\\b)',
    });
  });

  it('keeps a correction with no checkable shape as a rubric criterion in the user own words', () => {
    const validation = (key: string) =>
      session(key, [
        ep('add the endpoint', [write('/p/routes/x.ts', 'export const x = 1;')]),
        ep('add input validation for it', [
          edit('/p/routes/x.ts', 'export const x = 1;', 'export const x = validate(1);'),
        ]),
      ]);
    const rules = kindRules([validation('a'), validation('b')], new Set(), common);
    expect(rules.checks).toEqual([]);
    expect(rules.criteria).toEqual(['add input validation for it']);
    expect(rules.corrections.map((c) => c.result)).toEqual(['rubric', 'rubric']);
  });

  it('turns feedback this user gives on every kind into nothing', () => {
    const retry = session('a', [
      ep('fix it', [edit('/p/a.ts', 'x', 'y')]),
      ep('still broken', [edit('/p/a.ts', 'y', 'z')]),
    ]);
    const rules = kindRules([retry], new Set(['broken still']), common);
    expect(rules.criteria).toEqual([]);
    expect(rules.corrections).toEqual([
      expect.objectContaining({ result: 'none', reason: 'feedback the user gives on other kinds too' }),
    ]);
  });

  it('never keeps "use X" and "avoid X" together, and keeps one of two checks where one implies the other', () => {
    const a = session('a', [ep('add zod', [run('npm install zod')]), ep('use pnpm', [run('pnpm add zod')])]);
    const b = session('b', [
      ep('add dayjs', [run('pnpm add dayjs')]),
      ep('no pnpm here, npm', [run('npm install dayjs')]),
    ]);
    expect(kindRules([a, b], new Set(), common).checks).toEqual([]);
    // Said in one session and done in another, it is the same term either way.
    const c = session('c', [
      ep('commit message please', [], '```\nBump zod via pnpm\n```'),
      ep('no pnpm in messages, say npm', [], '```\nBump zod via npm\n```'),
    ]);
    expect(kindRules([a, c], new Set(), common).checks).toEqual([]);
    const run1 = session('c', [
      ep('fix test', [run('pnpm vitest a.test.ts')]),
      ep('run vitest with --run', [run('pnpm vitest --run a.test.ts')]),
    ]);
    const run2 = session('d', [
      ep('fix test', [run('pnpm vitest b.test.ts')]),
      ep('it is `vitest --run`', [run('pnpm vitest --run b.test.ts')]),
    ]);
    const run3 = session('e', [
      ep('fix test', [run('pnpm vitest c.test.ts')]),
      ep('use --run', [run('pnpm vitest --run c.test.ts')]),
    ]);
    expect(kindRules([run1, run2, run3], new Set(), common).checks).toEqual([{ op: 'runs', arg: '--run' }]);
  });
});
