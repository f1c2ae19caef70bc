/** The corrections of each convention in the mining benchmark, what they expect the miner to find, and how the agent redoes its work. */
import type { ToolAction } from '../src/core/session.js';
import { negativeWordCheck } from '../src/core/negative-check.js';
import { avoidedTerm, usedTerm } from '../src/core/action-checks.js';
import type { Check } from '../src/core/task.js';
import type { Reply } from './mine-work.js';
import { rel, type WorkState, timestamp } from './mine-work.js';
import { TYPE_WORK } from './mine-type-work.js';
/**
 * What the miner should make of a correction: each matcher must be met by a check it gives. A matcher
 * only counts for a session whose first answer shows what it is about: an exact check that answer
 * fails (`check`), or the mistake's pattern in it (`shows`). "Use pnpm instead of npm" after an
 * answer that only ran `npx tsc` teaches "contains pnpm"; nothing in that answer says the word npm.
 */
export interface CheckMatcher {
  /** Shown in diagnostics. */
  name: string;
  test: (check: Check) => boolean;
  check?: Check;
  shows?: RegExp;
}

/**
 * The check itself, or one of the same op with an alternative argument (`Signed-off-by` without its
 * colon), or the same term judged where the answer holds it: `runs "pnpm"` means `contains "pnpm"`
 * for a command, `not_edits "dist/"` the word-bounded "never mentions dist/" for a path.
 */
const exact = (check: Check, ...alternatives: string[]): CheckMatcher => {
  const forms = [String(check.arg ?? ''), ...alternatives].map((f) => f.toLowerCase());
  const used = usedTerm(check);
  const avoided = avoidedTerm(check);
  return {
    name: `${check.op} ${String(check.arg)}`,
    check,
    test: (c) => {
      if (c.op === check.op) return forms.includes(String(c.arg ?? '').toLowerCase());
      const cUsed = usedTerm(c);
      const cAvoided = avoidedTerm(c);
      if (used !== null && cUsed !== null)
        return [used.toLowerCase(), ...forms].includes(cUsed.toLowerCase());
      if (avoided !== null && cAvoided !== null) return avoided.toLowerCase() === cAvoided.toLowerCase();
      return false;
    },
  };
};

/** A user correction of one convention, and how the agent redoes its work after it. */
export interface CorrectionKind {
  /** Also the id of the mistake it corrects. */
  id: string;
  phrasings: readonly string[];
  /** Phrasings a plain reader is not expected to understand (kept, so recall stays honest). */
  hard?: readonly string[];
  expected: readonly CheckMatcher[];
  /** Other checks that state the same rule (the "use the logger" of a console.log correction): not wrong, not required. */
  allowed?: readonly CheckMatcher[];
  /** Conventions that must be right for this mistake to be made (the lockfile of pnpm). */
  requires?: readonly string[];
  /** The reply to the correction: redoes the earlier replies' affected steps the right way. */
  redo: (r: Reply) => void;
}

/** Earlier actions (deduplicated by kind and target, latest kept) that match. */
function earlier(st: WorkState, keep: (a: ToolAction) => boolean): ToolAction[] {
  const found = new Map<string, ToolAction>();
  for (const a of st.done) if (keep(a)) found.set(`${a.kind}\u0000${a.target}`, a);
  return [...found.values()].slice(-6);
}

/** Re-edits every earlier write or edit whose text has `bad`, with `fix` applied to the offending lines. */
function reedit(r: Reply, bad: RegExp, fix: (line: string) => string): void {
  for (const a of earlier(r.st, (x) => (x.kind === 'write' || x.kind === 'edit') && bad.test(x.added))) {
    const lines = a.added.split('\n');
    const at = lines.findIndex((l) => bad.test(l));
    const from = Math.max(0, at - 1);
    const to = Math.min(lines.length, at + 2);
    const old = lines.slice(from, to).join('\n');
    const fixed = lines
      .slice(from, to)
      .map((l) => (bad.test(l) ? fix(l) : l))
      .join('\n');
    r.edit(rel(a.target), fixed, old);
  }
}

/** `npm install -D x` → `pnpm add -D x`, `npx tsc` → `pnpm exec tsc`, … */
function toPnpm(command: string): string {
  return command
    .replace(/\bnpm install (?=\S)/g, 'pnpm add ')
    .replace(/\bnpm uninstall\b/g, 'pnpm remove')
    .replace(/\bnpm run\b/g, 'pnpm')
    .replace(/\bnpm audit fix\b/g, 'pnpm audit --fix')
    .replace(/\bnpx\b/g, 'pnpm exec')
    .replace(/\bnpm\b/g, 'pnpm');
}

const runs = (pattern: RegExp) => (a: ToolAction) => a.kind === 'run' && pattern.test(a.target);

export const CORRECTIONS: readonly CorrectionKind[] = [
  {
    id: 'pnpm',
    phrasings: [
      'use pnpm instead of npm',
      'no, use pnpm, not npm',
      'prefer pnpm over npm',
      'instead of npm, use pnpm please',
      'this repo uses pnpm, not npm',
    ],
    hard: ['stop using npm, we use pnpm here'],
    expected: [exact({ op: 'contains', arg: 'pnpm' }), exact(negativeWordCheck('npm'))],
    redo: (r) => {
      const old = earlier(r.st, runs(/\b(npm|npx)\b/));
      if (r.rng.chance(0.3)) {
        const installed = old.flatMap((a) => /\bnpm install (?:-D )?(\S+)/.exec(a.target)?.[1] ?? []);
        if (installed.length > 0) r.run(`npm uninstall ${installed.join(' ')}`);
        r.run('rm -f package-lock.json');
      }
      for (const a of old) r.run(toPnpm(a.target));
      r.say(r.rng.pick(['Switched to pnpm.', 'Redone with pnpm.', 'Done, using pnpm now.']));
    },
  },
  {
    id: 'vitest',
    phrasings: ['use vitest, not jest', 'no, use vitest not jest', 'we run the tests with vitest, not jest'],
    expected: [exact({ op: 'contains', arg: 'vitest' }), exact(negativeWordCheck('jest'))],
    allowed: [exact({ op: 'contains', arg: 'vitest run' })],
    redo: (r) => {
      reedit(r, /@jest\/globals/, (l) => l.replace('@jest/globals', 'vitest'));
      for (const a of earlier(r.st, runs(/\bjest\b/)))
        r.run(
          a.target
            .replace(/\b(npx|pnpm) jest\b/, (_, p: string) => `${p} vitest run`)
            .replace(/\bjest\b/, 'vitest run'),
        );
      r.say('Now with vitest.');
    },
  },
  {
    id: 'dist',
    phrasings: [
      'never edit `dist/`',
      "don't touch dist/, it is generated",
      'please do not modify `dist/`',
      'dist/ is build output, never edit it',
    ],
    expected: [exact(negativeWordCheck('dist/'))],
    redo: (r) => {
      const edits = earlier(r.st, (a) => a.kind === 'edit' && rel(a.target).startsWith('dist/'));
      const inSrc = new Set(earlier(r.st, (a) => a.kind === 'edit').map((a) => rel(a.target)));
      r.run(r.rng.pick(['git checkout -- dist/', 'git restore dist/']));
      for (const a of edits) {
        const source = `src/${rel(a.target).slice('dist/'.length).replace(/\.js$/, '.ts')}`;
        if (!inSrc.has(source)) r.edit(source, a.added, a.removed);
      }
      if (r.rng.chance(0.5)) r.script('build');
      r.say('Reverted dist/ and made the change in src/.');
    },
  },
  {
    id: 'refs',
    phrasings: [
      'always include "Refs: #" in the message',
      'always add `Refs: #` at the end',
      'the message needs a `Refs: #` line',
    ],
    expected: [exact({ op: 'contains', arg: 'Refs: #' })],
    redo: (r) => redoCommit(r, 'refs'),
  },
  {
    id: 'signoff',
    phrasings: ['always add `Signed-off-by:` to commits', 'commits need a `Signed-off-by:` trailer'],
    expected: [exact({ op: 'contains', arg: 'Signed-off-by:' }, 'Signed-off-by')],
    redo: (r) => redoCommit(r, 'signoff'),
  },
  {
    id: 'imperative',
    phrasings: [
      'use the imperative mood in the commit subject',
      'commit subjects in the imperative please, not past tense',
      'no past tense in the subject line',
    ],
    hard: ["write it like you're giving an order"],
    expected: [
      {
        name: 'no past-tense first word',
        shows: /```\n[A-Z][a-z]+ed /,
        test: (c) =>
          c.op === 'regex' && String(c.arg).startsWith('(?i)^(?!') && String(c.arg).includes('ed\\b'),
      },
    ],
    redo: (r) => redoCommit(r, 'imperative'),
  },
  {
    id: 'any',
    phrasings: ["don't use `any`", 'never use `any` in types', 'no `any` please, type it properly'],
    expected: [exact(negativeWordCheck('any'))],
    allowed: [exact({ op: 'contains', arg: 'unknown' })],
    redo: (r) => {
      reedit(r, /\bany\b/, (l) =>
        l.replace(/\bany\b/, r.rng.pick(['unknown', 'Input', 'Record<string, unknown>'])),
      );
      r.verify(0.5).say('Typed it properly.');
    },
  },
  {
    id: 'ts-ignore',
    phrasings: ["don't use `@ts-ignore`, fix the type", 'never silence errors with `@ts-ignore`'],
    expected: [exact(negativeWordCheck('@ts-ignore'))],
    redo: (r) => {
      for (const a of earlier(
        r.st,
        (x) => (x.kind === 'edit' || x.kind === 'write') && x.added.includes('@ts-ignore'),
      )) {
        const fixed = a.added.replace(/ *\/\/ @ts-ignore\n(.*)/, (_, line: string) =>
          line.includes("'./config'")
            ? line.replace("'./config'", "'./config.js'")
            : line.replace(/;$/, ' ?? 0;'),
        );
        r.edit(rel(a.target), fixed, a.added);
      }
      r.typecheck().say('Fixed the type instead.');
    },
  },
  {
    id: 'console',
    phrasings: [
      "don't leave `console.log` calls in",
      'never use `console.log`, use the logger',
      'no console.log in production code',
    ],
    hard: ['use the existing `logger` instead of `console.log`'],
    expected: [exact(negativeWordCheck('console.log'))],
    allowed: [exact({ op: 'contains', arg: 'logger' }), exact({ op: 'contains', arg: 'logger.info' })],
    redo: (r) => {
      reedit(r, /console\.log/, (l) =>
        l.replace(/console\.log\('([^']*)', \{ id \}\)/, "logger.info({ id }, '$1')"),
      );
      r.say('Using the logger now.');
    },
  },
  {
    id: 'lockfile',
    phrasings: ["don't touch `pnpm-lock.yaml`", 'never edit `pnpm-lock.yaml` by hand'],
    hard: ['the lockfile is generated, leave it alone'],
    requires: ['pnpm'],
    expected: [exact(negativeWordCheck('pnpm-lock.yaml'))],
    redo: (r) => {
      r.run(r.rng.pick(['git checkout -- pnpm-lock.yaml', 'git restore pnpm-lock.yaml'])).install();
      r.say('Reverted the lockfile and let pnpm write it.');
    },
  },
  {
    id: 'default-export',
    phrasings: [
      "don't use `export default`",
      'never use `export default` here',
      'named exports only, no `export default`',
    ],
    expected: [exact(negativeWordCheck('export default'))],
    redo: (r) => {
      reedit(r, /export default /, (l) => l.replace('export default ', 'export '));
      r.say('Switched to named exports.');
    },
  },
  {
    id: 'then',
    phrasings: [
      'use async/await instead of .then chains',
      'no `.then()` chains, use await',
      'please write it with await, not .then',
    ],
    expected: [exact(negativeWordCheck('.then'))],
    allowed: [exact({ op: 'contains', arg: 'await' })],
    redo: (r) => {
      reedit(r, /\.then\(/, (l) =>
        l.replace(/return (.*)\.then\(\(res\) => (.*)\);/, 'const res = await $1;\n  return $2;'),
      );
      r.verify(0.4).say('Rewritten with await.');
    },
  },
  {
    id: 'frozen',
    phrasings: ['always pass `--frozen-lockfile`', 'install with `--frozen-lockfile` in CI'],
    requires: ['pnpm'],
    expected: [exact({ op: 'contains', arg: '--frozen-lockfile' })],
    redo: (r) => {
      reedit(r, /pnpm install$/m, (l) => `${l} --frozen-lockfile`);
      r.say('Added --frozen-lockfile.');
    },
  },
  {
    id: 'force',
    phrasings: ['use `--force-with-lease`, never a plain `--force`', 'push with `--force-with-lease` please'],
    expected: [exact({ op: 'contains', arg: '--force-with-lease' })],
    redo: (r) => {
      for (const a of earlier(r.st, runs(/git push --force /)))
        r.run(a.target.replace('--force ', '--force-with-lease '));
      r.say('Pushed with --force-with-lease.');
    },
  },
  {
    id: 'migration-timestamp',
    phrasings: [
      'name migrations with a timestamp prefix, not a sequence number',
      'migration files need a timestamp prefix like the others',
    ],
    hard: ['use the date-based naming for these'],
    expected: [
      {
        name: 'regex migrations/\\d{14}_',
        shows: /migrations\/\d{4}_/,
        test: (c) => c.op === 'regex' && String(c.arg).includes('\\d{14}'),
      },
    ],
    redo: (r) => {
      for (const a of earlier(r.st, (x) => x.kind === 'write' && /^migrations\/\d{4}_/.test(rel(x.target)))) {
        const from = rel(a.target);
        const to = from.replace(/^migrations\/\d{4}_/, `migrations/${timestamp(r.rng)}_`);
        if (r.rng.chance(0.6)) r.run(`git mv ${from} ${to}`);
        else r.write(to, a.added).run(`rm ${from}`);
      }
      r.say('Renamed the migration.');
    },
  },
  {
    id: 'migration-down',
    phrasings: [
      'the down migration must revert the change, not be empty',
      'write a real `down` that undoes it',
    ],
    expected: [
      {
        name: 'regex: no empty down',
        shows: /nothing to undo/,
        test: (c) => c.op === 'regex' && /down|nothing to undo/.test(String(c.arg)),
      },
    ],
    redo: (r) => {
      for (const a of earlier(r.st, (x) => x.kind === 'write' && x.added.includes('// nothing to undo'))) {
        const up = /async function up[^\n]*\n([\s\S]*?)\n\}/.exec(a.added)?.[1] ?? '';
        const down = up.includes('dropColumn')
          ? up.replace(/t\.dropColumn\('(\w+)'\)/, "t.string('$1')")
          : up.replace(/t\.string\(/, 't.dropColumn(').replace(/t\.index\(/, 't.dropIndex(');
        const header = 'export async function down(knex: Knex): Promise<void> {';
        r.edit(rel(a.target), `${header}\n${down}\n}`, `${header}\n  // nothing to undo\n}`);
      }
      r.say('The down migration reverts it now.');
    },
  },
  {
    id: 'eslint-disable',
    phrasings: [
      "don't silence the linter with `eslint-disable`, fix the code",
      'no `eslint-disable` comments please',
    ],
    expected: [exact(negativeWordCheck('eslint-disable'))],
    redo: (r) => {
      for (const a of earlier(r.st, (x) => x.kind === 'edit' && x.added.includes('eslint-disable')))
        r.edit(rel(a.target), '  void input.id;', a.added);
      r.script('lint').say('Fixed the code instead.');
    },
  },
  {
    id: 'unreleased',
    phrasings: [
      'changelog entries go under `## Unreleased`',
      'put it under `## Unreleased`, not a version heading',
    ],
    expected: [exact({ op: 'contains', arg: '## Unreleased' })],
    redo: (r) => {
      reedit(r, /^## \d/m, () => '## Unreleased');
      r.say('Moved it under Unreleased.');
    },
  },
  {
    id: 'cursor',
    phrasings: ['use cursor pagination, not `offset`', 'no `offset` paging, use a cursor'],
    expected: [exact({ op: 'contains', arg: 'cursor' }), exact(negativeWordCheck('offset'))],
    allowed: [exact({ op: 'contains', arg: 'cursor pagination' })],
    redo: (r) => {
      reedit(r, /offset/, (l) =>
        l
          .replace('offset = 0', 'cursor')
          .replace('.limit(limit).offset(offset)', ".where('id', '>', cursor ?? 0).limit(limit)"),
      );
      r.say('Cursor pagination now.');
    },
  },
];

/** The commit message again, with the convention right; amended when it was committed. */
function redoCommit(r: Reply, fixed: string): void {
  const committed = r.st.done.some((a) => a.kind === 'run' && a.target.startsWith('git commit'));
  if (r.st.commit === undefined) {
    r.commitMessage(committed);
    return;
  }
  r.say(`${r.rng.pick(['Updated:', 'Here it is again:', 'Fixed:'])}\n\n\`\`\`\n${r.commitText()}\n\`\`\``);
  if (committed)
    r.run(
      fixed === 'signoff'
        ? 'git commit --amend -s --no-edit'
        : `git commit --amend -m "${r.commitSubject()}"`,
    );
}

/** Mistakes a type's work can show, and the corrections that can be planted there. */
export function correctionsFor(typeId: string): CorrectionKind[] {
  const mistakes = TYPE_WORK[typeId]?.mistakes ?? [];
  return CORRECTIONS.filter((c) => mistakes.includes(c.id));
}
