import { describe, expect, it } from 'vitest';
import type { ToolAction } from '../../core/session.js';
import { edit, read, run, write } from '../test-helpers.js';
import { groupKinds, type KindInput } from './kinds.js';

const input = (request: string, requestActions: ToolAction[], partition = ''): KindInput => ({
  request,
  requestActions,
  laterActions: [],
  cwd: '/work/app',
  partition,
});

// Three kinds, each asked in several wordings with other details, and one-off questions.
const dependencies = ['zod', 'dayjs', 'pino', 'msw', 'undici', 'nanoid'].map((pkg, i) =>
  input(
    [
      `add ${pkg} as a dependency`,
      `we need ${pkg}, install it`,
      `${pkg} is missing from the deps, add it please`,
    ][i % 3] ?? '',
    [read('/work/app/package.json'), run(`pnpm add ${pkg}`)],
  ),
);
const migrations = ['due_date', 'vat_id', 'paused_at', 'reason', 'provider_ref'].map((col, i) =>
  input(
    [
      `create a migration that adds ${col}`,
      `migration please: invoices.${col}`,
      `we need a new ${col} column, write the migration`,
    ][i % 3] ?? '',
    [
      run('ls migrations'),
      write(`/work/app/migrations/00${i}_add_${col}.py`, `def upgrade():\n    op.add_column("${col}")`),
    ],
  ),
);
const commits = [
  'fixing the cart total',
  'the new login screen',
  'dropping the legacy table',
  'the tax display',
].map((what, i) =>
  input(
    [
      `write a commit message for ${what}`,
      `commit msg for ${what} pls`,
      `suggest a commit message for what is staged (${what})`,
    ][i % 3] ?? '',
    [run('git diff --staged')],
  ),
);
const questions = [
  input('explain how the JS event loop works', []),
  input('explain how postgres MVCC works', []),
  input('what is a good name for a function that merges lists?', []),
];

const kindsOf = (inputs: KindInput[]): string[][] => {
  const { groups } = groupKinds(inputs);
  return groups.map((g) => g.map((i) => inputs[i]?.request ?? '')).sort((a, b) => b.length - a.length);
};

describe('groupKinds', () => {
  it('groups sessions by the kind of work, whatever the wording and the details', () => {
    const all = [...dependencies, ...migrations, ...commits, ...questions];
    const groups = kindsOf(all);
    expect(groups.slice(0, 3).map((g) => g.length)).toEqual([6, 5, 4]);
    expect(groups[0]).toEqual(
      dependencies
        .map((d) => d.request)
        .sort((a, b) => all.findIndex((x) => x.request === a) - all.findIndex((x) => x.request === b)),
    );
    // Questions the agent answered without working are one-offs, even when they share a template.
    expect(groups.slice(3).every((g) => g.length === 1)).toBe(true);
  });

  it('does not depend on the order of its input', () => {
    const all = [...dependencies, ...migrations, ...commits, ...questions];
    const reversed = [...all].reverse();
    const norm = (groups: string[][]) => groups.map((g) => [...g].sort().join('|')).sort();
    expect(norm(kindsOf(reversed))).toEqual(norm(kindsOf(all)));
  });

  it('never groups sessions of two partitions (projects)', () => {
    const same = (pkg: string, partition: string): KindInput =>
      input(
        `add ${pkg} as a dependency`,
        [read('/work/app/package.json'), run(`pnpm add ${pkg}`)],
        partition,
      );
    const a = ['zod', 'dayjs', 'pino'].map((pkg) => same(pkg, '/work/a'));
    const b = ['msw', 'undici', 'nanoid'].map((pkg) => same(pkg, '/work/b'));
    expect(kindsOf([...a, ...b]).map((g) => g.length)).toEqual([3, 3]);
    expect(kindsOf([...a, ...b.map((x) => ({ ...x, partition: '/work/a' }))]).map((g) => g.length)).toEqual([
      6,
    ]);
  });

  it("reads each project with its own statistics: another project's sessions change none of its kinds", () => {
    const own = [...dependencies, ...migrations, ...commits, ...questions];
    // Another project whose every session says "add" and "create" and runs `pnpm add`: pooled, its
    // sessions would make this project's kind words and commands common, and its kinds looser.
    const other = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((x, i) =>
      input(
        `create the ${x} page and add it to the menu, we need a migration later`,
        i % 2 === 0
          ? [run(`pnpm add ${x}-widget`), write(`/work/site/pages/${x}.tsx`, 'x')]
          : [run('git diff')],
        '/work/site',
      ),
    );
    const norm = (groups: string[][]): string[] => groups.map((g) => [...g].sort().join('|')).sort();
    const alone = norm(kindsOf(own));
    const mixed = kindsOf([...other, ...own]).filter((g) => g.every((r) => own.some((o) => o.request === r)));
    expect(norm(mixed)).toEqual(alone);
  });

  it('labels each kind with words typical of it, unique in the project', () => {
    const all = [...dependencies, ...migrations, ...commits, ...questions];
    const { groups, labels } = groupKinds(all);
    const labelOf = (request: string): string =>
      labels[groups.findIndex((g) => g.some((i) => all[i]?.request === request))] ?? '';
    // The user's own opening words, up to the kind's last common word.
    expect(labelOf(commits[0]?.request ?? '')).toBe('write a commit message');
    expect(labelOf(migrations[0]?.request ?? '')).toContain('migration');
    expect(new Set(labels).size).toBe(labels.length);
  });

  it('keeps apart kinds that share the way of working but not the request', () => {
    const tests = ['cart', 'tax', 'login', 'orders'].map((m) =>
      input(`the ${m} test is failing, fix it`, [
        run('make test'),
        read(`/work/app/${m}_test.go`),
        edit(`/work/app/${m}.go`, 'a', 'b'),
      ]),
    );
    const lint = ['cart', 'tax', 'login', 'orders'].map((m) =>
      input(`lint fails on ${m}.go, fix the lint errors`, [
        run('make lint'),
        read(`/work/app/${m}.go`),
        edit(`/work/app/${m}.go`, 'a', 'b'),
      ]),
    );
    const groups = kindsOf([...tests, ...lint]);
    expect(groups.map((g) => g.length)).toEqual([4, 4]);
  });
});
