/**
 * Mining end to end on a small corpus of our own, written in Claude Code's record format: one kind of
 * task asked six ways about six packages, a rule the user corrects in three different wordings, a
 * second kind with no correction, a preamble the user types first, and sessions that ask for nothing.
 * The rule must be learned once, scoped to its kind, with the user's sentences as its provenance.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, sandbox, type Sandbox } from './cli-helpers.js';

interface Step {
  prompt: string;
  reply: string;
  commands?: string[];
  writes?: Array<[string, string]>;
}

/** One session in the real record format: each step is a prompt and the agent's reply with its tool calls. */
function transcript(cwd: string, id: string, minute: number, steps: Step[]): string {
  const base = { sessionId: id, cwd, gitBranch: 'main', version: '2.1.0', userType: 'external' };
  const at = (offset: number): string => new Date(Date.UTC(2026, 10, 20, 9, minute, offset)).toISOString();
  const lines: unknown[] = [];
  steps.forEach((step, i) => {
    lines.push({
      ...base,
      type: 'user',
      uuid: `${id}-u${i}`,
      timestamp: at(i * 4),
      message: { role: 'user', content: step.prompt },
    });
    const tools = [
      ...(step.commands ?? []).map((command, j) => ({
        type: 'tool_use',
        id: `t${i}${j}`,
        name: 'Bash',
        input: { command },
      })),
      ...(step.writes ?? []).map(([file, content], j) => ({
        type: 'tool_use',
        id: `w${i}${j}`,
        name: 'Write',
        input: { file_path: path.join(cwd, file), content },
      })),
    ];
    lines.push({
      ...base,
      type: 'assistant',
      uuid: `${id}-a${i}`,
      timestamp: at(i * 4 + 2),
      message: {
        id: `msg_${id}_${i}`,
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [{ type: 'text', text: step.reply }, ...tools],
      },
    });
  });
  return `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`;
}

const REQUESTS = [
  'add zod to the web app',
  'we need dayjs for the date picker, install it',
  'can you pull in clsx? the buttons need it',
  'nanoid is missing from the dependencies, add it please',
  'add the ky package, I want it for the api client',
  'please install immer and make sure the lockfile is updated',
];
const PACKAGES = ['zod', 'dayjs', 'clsx', 'nanoid', 'ky', 'immer'];
/** The same rule, three ways. */
const CORRECTIONS = [
  'wrong package manager: this repo is pnpm only',
  'No. Use pnpm, not npm.',
  'npm again? we are on pnpm workspaces',
];

function writeCorpus(box: Sandbox): void {
  const dir = path.join(box.home, '.claude', 'projects', box.project.replace(/[/.]/g, '-'));
  mkdirSync(dir, { recursive: true });
  const files: Array<[string, string]> = [];
  PACKAGES.forEach((pkg, i) => {
    const corrected = i < CORRECTIONS.length;
    const steps: Step[] = [
      { prompt: 'read AGENTS.md first', reply: 'Read it.' },
      {
        prompt: REQUESTS[i] ?? '',
        reply: `Added ${pkg}.`,
        commands: [`cat package.json`, corrected ? `npm install ${pkg}` : `pnpm add ${pkg}`],
      },
    ];
    if (corrected)
      steps.push({ prompt: CORRECTIONS[i] ?? '', reply: 'Redone with pnpm.', commands: [`pnpm add ${pkg}`] });
    steps.push({ prompt: 'thanks, works now', reply: 'Glad to help.' });
    files.push([`dep-${i}`, transcript(box.project, `dep-${i}`, i * 5, steps)]);
  });
  ['due_date', 'vat_id', 'paused_at'].forEach((column, i) => {
    files.push([
      `mig-${i}`,
      transcript(box.project, `mig-${i}`, 40 + i * 5, [
        { prompt: 'read AGENTS.md first', reply: 'Read it.' },
        {
          prompt:
            [
              'create a migration that adds due_date to invoices',
              'migration please: customers.vat_id',
              'we need a paused_at column on subscriptions, write the migration',
            ][i] ?? '',
          reply: 'Created the migration.',
          commands: ['ls migrations'],
          writes: [
            [`migrations/00${i + 1}_add_${column}.py`, `def upgrade():\n    op.add_column("${column}")\n`],
          ],
        },
      ]),
    ]);
  });
  files.push([
    'hello',
    transcript(box.project, 'hello', 59, [{ prompt: 'hi', reply: 'Hello! How can I help?' }]),
  ]);
  for (const [name, text] of files) writeFileSync(path.join(dir, `${name}.jsonl`), text);
}

interface RecurringTask {
  label: string;
  occurrences: number;
  checks: Array<{ op: string; arg: string }>;
  check_sources: Array<{ op: string; arg: string; session: string; sentence: string }>;
  corrections: Array<{ session: string; sentence: string; result: string; reason: string }>;
}

describe('mining a corpus nobody tuned for', () => {
  it('finds the two kinds, skips the preamble and the greeting, and reads the rule once from three wordings', async () => {
    const box = sandbox();
    writeCorpus(box);
    const r = await runCli(box, ['harvest', '--json', '--lookback-hours', '0']);
    expect(r.code, r.stderr).toBe(0);
    const out = r.json();
    const kinds = out.recurring_tasks as RecurringTask[];
    expect(kinds.map((k) => k.occurrences)).toEqual([6, 3]);
    const deps = kinds[0] as RecurringTask;
    expect(deps.checks).toEqual([
      { op: 'runs', arg: 'pnpm' },
      { op: 'not_runs', arg: 'npm' },
    ]);
    expect(deps.corrections.map((c) => [c.sentence, c.result])).toEqual(
      CORRECTIONS.map((c) => [c, 'checks']),
    );
    expect(new Set(deps.check_sources.map((s) => s.sentence)).size).toBeGreaterThan(0);
    expect(deps.check_sources.every((s) => CORRECTIONS.includes(s.sentence))).toBe(true);
    expect(kinds[1]?.checks).toEqual([]);
    expect(kinds[1]?.label).toContain('migration');
    const tasks = out.tasks as Array<{ intent: string; tags: string[] }>;
    expect(tasks.map((t) => t.intent)).not.toContain('read AGENTS.md first');
    // The session that only greeted is shown as a kind of its own, tagged so no night replays it.
    const greeting = tasks.filter((t) => t.intent === 'hi');
    expect(greeting).toHaveLength(1);
    expect(greeting[0]?.tags).toContain('no-request');
    expect(greeting[0]?.tags).toContain('kind:no request (greeting only)');
  });

  it('a mock night learns the rule once, scoped to its kind', async () => {
    const box = sandbox();
    writeCorpus(box);
    const r = await runCli(box, ['dry-run', '--backend', 'mock', '--json', '--lookback-hours', '0']);
    expect(r.code, r.stderr).toBe(0);
    const out = r.json();
    expect(out.accepted).toBe(true);
    const rules = out.learned_rules as string[];
    expect(rules).toHaveLength(1);
    // The rule is the user's own sentence (one of the corpus's corrections), never a pattern.
    expect(rules[0]).toMatch(/^When the task is ".+": .*\bpnpm\b.*$/);
    expect(rules[0]).not.toMatch(/`/);
  });
});
