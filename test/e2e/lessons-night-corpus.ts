/**
 * A small project's Claude Code sessions, written for the lessons night (`lessons-night.test.ts`): four
 * kinds of recurring work and what the user taught the agent on them — a package manager (said three
 * ways), a commit convention and a trailer never to add, the test runner's watch mode, and a standing
 * preference the agent recorded in CLAUDE.md — plus sessions where the user corrected nothing and a
 * one-off question. Paths are relative, so the prompts a night sends do not depend on where the
 * sandbox lives (a recorded night replays byte for byte).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

type Action =
  { run: string } | { write: string; content: string } | { edit: string; old: string; new: string };

export interface Step {
  prompt: string;
  reply: string;
  actions?: Action[];
}

export const LESSONS_NIGHT_SESSIONS: ReadonlyArray<{ id: string; steps: Step[] }> = [
  {
    id: 'dep-zod',
    steps: [
      { prompt: 'add zod to the api package', reply: 'Added zod.', actions: [{ run: 'npm install zod' }] },
      {
        prompt: 'No — this repo uses pnpm, run `pnpm add zod`',
        reply: 'Redone with pnpm.',
        actions: [{ run: 'npm uninstall zod' }, { run: 'pnpm add zod' }],
      },
      { prompt: 'thanks', reply: 'You are welcome.' },
    ],
  },
  {
    id: 'dep-dayjs',
    steps: [
      {
        prompt: 'we need dayjs for the date helpers, install it',
        reply: 'Installed.',
        actions: [{ run: 'npm install dayjs' }],
      },
      {
        prompt: "wrong package manager again, it's pnpm here",
        reply: 'Sorry — switched to pnpm.',
        actions: [{ run: 'npm uninstall dayjs' }, { run: 'pnpm add dayjs' }],
      },
      { prompt: 'good', reply: 'Done.' },
    ],
  },
  {
    id: 'dep-msw',
    steps: [
      {
        prompt: 'install msw as a dev dependency',
        reply: 'Added msw.',
        actions: [{ run: 'pnpm add -D msw' }],
      },
      { prompt: 'thanks', reply: 'Anytime.' },
    ],
  },
  {
    id: 'dep-pino',
    steps: [
      {
        prompt: 'add pino for the request logging',
        reply: 'Installed pino.',
        actions: [{ run: 'npm install pino' }],
      },
      {
        prompt: 'pnpm please, not npm',
        reply: 'Reinstalled with pnpm.',
        actions: [{ run: 'npm uninstall pino' }, { run: 'pnpm add pino' }],
      },
    ],
  },
  {
    id: 'commit-totals',
    steps: [
      {
        prompt: 'write the commit for the invoice totals fix',
        reply: 'Committed.',
        actions: [{ run: 'git commit -m "fix(api): correct invoice totals rounding"' }],
      },
      {
        prompt: 'drop the scope — we write `fix: ...` without parentheses',
        reply: 'Amended.',
        actions: [{ run: 'git commit --amend -m "fix: correct invoice totals rounding"' }],
      },
    ],
  },
  {
    id: 'commit-pages',
    steps: [
      {
        prompt: 'commit the pagination change',
        reply: 'Committed.',
        actions: [
          {
            run: 'git commit -m "feat(api): paginate the invoice list" -m "Co-Authored-By: Claude <noreply@anthropic.com>"',
          },
        ],
      },
      {
        prompt: 'never add a Co-Authored-By trailer to our commits, and no scope either',
        reply: 'Amended without the trailer and the scope.',
        actions: [{ run: 'git commit --amend -m "feat: paginate the invoice list"' }],
      },
    ],
  },
  {
    id: 'commit-pdf',
    steps: [
      {
        prompt: 'commit what we have for the pdf export',
        reply: 'Committed.',
        actions: [{ run: 'git commit -m "feat: add the pdf export"' }],
      },
      { prompt: 'thanks', reply: 'Done.' },
    ],
  },
  {
    id: 'test-totals',
    steps: [
      {
        prompt: 'the totals test is failing, fix it',
        reply: 'Fixed the rounding; running the tests.',
        actions: [
          { edit: 'src/totals.ts', old: 'Math.round(total)', new: 'Math.round(total * 100) / 100' },
          { run: 'npx vitest' },
        ],
      },
      {
        prompt: 'vitest is stuck in watch mode — always run it with --run',
        reply: 'Ran once instead.',
        actions: [{ run: 'npx vitest --run' }],
      },
    ],
  },
  {
    id: 'test-currency',
    steps: [
      {
        prompt: 'make the currency test pass again',
        reply: 'Fixed the symbol lookup.',
        actions: [
          { edit: 'src/currency.ts', old: "symbols['EUR']", new: 'symbols[code] ?? code' },
          { run: 'npx vitest tests/currency.test.ts' },
        ],
      },
      {
        prompt: 'use `vitest --run`, the watcher never exits',
        reply: 'Re-ran without the watcher.',
        actions: [{ run: 'npx vitest --run tests/currency.test.ts' }],
      },
    ],
  },
  {
    id: 'test-dates',
    steps: [
      {
        prompt: 'fix the failing date test',
        reply: 'Fixed the timezone offset.',
        actions: [
          { edit: 'src/dates.ts', old: 'getHours()', new: 'getUTCHours()' },
          { run: 'npx vitest --run tests/dates.test.ts' },
        ],
      },
      { prompt: 'works, thanks', reply: 'Great.' },
    ],
  },
  {
    id: 'migration-due',
    steps: [
      {
        prompt: 'add a migration for the invoice due_date column',
        reply: 'Wrote the migration and applied it.',
        actions: [
          {
            write: 'migrations/0003_due_date.sql',
            content: 'ALTER TABLE invoices ADD COLUMN due_date date;',
          },
          { run: 'pnpm db:migrate' },
        ],
      },
      {
        prompt: 'from now on ask me before running migrations against the database, I run them myself',
        reply: 'Understood — noted in CLAUDE.md.',
        actions: [
          {
            write: 'CLAUDE.md',
            content: '- Ask before running migrations against the database: the user runs them.',
          },
        ],
      },
    ],
  },
  {
    id: 'migration-vat',
    steps: [
      {
        prompt: 'add a migration for the customer vat_id column',
        reply: 'Wrote the migration. Shall I run it?',
        actions: [
          { write: 'migrations/0004_vat_id.sql', content: 'ALTER TABLE customers ADD COLUMN vat_id text;' },
        ],
      },
      { prompt: "no, I'll run it, thanks", reply: 'Sure.' },
    ],
  },
  {
    id: 'question-zod',
    steps: [
      {
        prompt: "what's the difference between zod's parse and safeParse?",
        reply: 'parse throws a ZodError on invalid input; safeParse returns { success, data | error }.',
      },
    ],
  },
];

function toolUse(action: Action, id: string): Record<string, unknown> {
  if ('run' in action) return { type: 'tool_use', id, name: 'Bash', input: { command: action.run } };
  if ('write' in action)
    return {
      type: 'tool_use',
      id,
      name: 'Write',
      input: { file_path: action.write, content: action.content },
    };
  return {
    type: 'tool_use',
    id,
    name: 'Edit',
    input: { file_path: action.edit, old_string: action.old, new_string: action.new },
  };
}

/** The sessions, in Claude Code's record format, in `home`'s Claude folder for `project`. */
export function writeLessonsNightCorpus(home: string, project: string): void {
  writeClaudeSessions(home, project, LESSONS_NIGHT_SESSIONS);
}

/**
 * Claude Code transcripts of `sessions` in `project`, numbered from `first` (a later batch of
 * sessions takes numbers and times after the earlier ones).
 */
export function writeClaudeSessions(
  home: string,
  project: string,
  sessions: ReadonlyArray<{ id: string; steps: Step[] }>,
  first = 0,
): void {
  const dir = path.join(home, '.claude', 'projects', project.replace(/[/.]/g, '-'));
  mkdirSync(dir, { recursive: true });
  sessions.forEach((session, i) => {
    const n = first + i;
    const id = `7e1a0c55-0000-4000-8000-${(n + 1).toString(16).padStart(12, '0')}`;
    const base = { sessionId: id, cwd: project, gitBranch: 'main', version: '2.1.0', userType: 'external' };
    const at = (offset: number): string => new Date(Date.UTC(2026, 10, 20, 9, n * 3, offset)).toISOString();
    const records = session.steps.flatMap((step, i) => [
      {
        ...base,
        type: 'user',
        uuid: `${id}-u${i}`,
        timestamp: at(i * 6),
        message: { role: 'user', content: step.prompt },
      },
      {
        ...base,
        type: 'assistant',
        uuid: `${id}-a${i}`,
        timestamp: at(i * 6 + 2),
        message: {
          id: `msg_${n}_${i}`,
          role: 'assistant',
          model: 'claude-sonnet-4-5',
          content: [
            { type: 'text', text: step.reply },
            ...(step.actions ?? []).map((a, j) => toolUse(a, `t${n}_${i}_${j}`)),
          ],
        },
      },
    ]);
    writeFileSync(path.join(dir, `${id}.jsonl`), `${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
  });
}
