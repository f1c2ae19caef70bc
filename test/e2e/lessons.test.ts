/**
 * `lessons` end to end on Claude Code transcripts of our own: the user corrects npm to pnpm in two
 * sessions, the agent redoes the work with pnpm. `lessons` lists what was taught (the same objects as
 * `harvest --json`), `lessons show` gives its evidence, `lessons forget` drops it from every listing
 * and from the tasks' judges, and `forget` of its sessions leaves no text of it in the store.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, sandbox, storeBytes, type Sandbox } from './cli-helpers.js';

/** A word only the correction holds: its bytes must leave the store with the sessions. */
const MARKER = 'zqxlessonmarker';
const CORRECTION = `No, use pnpm not npm (${MARKER})`;
const PACKAGES = ['zod', 'dayjs', 'clsx', 'nanoid', 'ky', 'immer'];
const REQUESTS = [
  'add zod to the web app',
  'we need dayjs for the date picker, install it',
  'can you pull in clsx? the buttons need it',
  'nanoid is missing from the dependencies, add it please',
  'add the ky package, I want it for the api client',
  'please install immer and make sure the lockfile is updated',
];
/** Sessions whose user said the correction. */
const CORRECTED = ['dep-0', 'dep-1'];

interface Step {
  prompt: string;
  reply: string;
  commands: string[];
}

/** One session in Claude Code's record format: each step a prompt and a reply running Bash commands. */
function transcript(cwd: string, id: string, minute: number, steps: Step[]): string {
  const base = { sessionId: id, cwd, gitBranch: 'main', version: '2.1.0', userType: 'external' };
  const at = (s: number): string => new Date(Date.UTC(2026, 10, 20, 9, minute, s)).toISOString();
  const lines = steps.flatMap((step, i) => [
    {
      ...base,
      type: 'user',
      uuid: `${id}-u${i}`,
      timestamp: at(i * 4),
      message: { role: 'user', content: step.prompt },
    },
    {
      ...base,
      type: 'assistant',
      uuid: `${id}-a${i}`,
      timestamp: at(i * 4 + 2),
      message: {
        id: `msg_${id}_${i}`,
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [
          { type: 'text', text: step.reply },
          ...step.commands.map((command, j) => ({
            type: 'tool_use',
            id: `t${i}${j}`,
            name: 'Bash',
            input: { command },
          })),
        ],
      },
    },
  ]);
  return `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`;
}

function writeCorpus(box: Sandbox): void {
  const dir = path.join(box.home, '.claude', 'projects', box.project.replace(/[/.]/g, '-'));
  mkdirSync(dir, { recursive: true });
  PACKAGES.forEach((pkg, i) => {
    const id = `dep-${i}`;
    const corrected = CORRECTED.includes(id);
    const steps: Step[] = [
      {
        prompt: REQUESTS[i] ?? '',
        reply: `Added ${pkg}.`,
        commands: ['cat package.json', corrected ? `npm install ${pkg}` : `pnpm add ${pkg}`],
      },
      ...(corrected
        ? [{ prompt: CORRECTION, reply: 'Redone with pnpm.', commands: [`pnpm add ${pkg}`] }]
        : []),
      { prompt: 'thanks, works now', reply: 'Glad to help.', commands: [] },
    ];
    writeFileSync(path.join(dir, `${id}.jsonl`), transcript(box.project, id, i * 5, steps));
  });
  // Another kind, never corrected: the lesson is about adding dependencies only.
  ['due_date', 'vat_id', 'paused_at'].forEach((column, i) => {
    const prompt = [
      'create a migration that adds due_date to invoices',
      'migration please: customers.vat_id',
      'we need a paused_at column on subscriptions, write the migration',
    ][i];
    const steps = [{ prompt: prompt ?? '', reply: 'Created the migration.', commands: ['ls migrations'] }];
    writeFileSync(path.join(dir, `mig-${i}.jsonl`), transcript(box.project, `mig-${i}`, 40 + i * 5, steps));
  });
}

interface LessonJson {
  id: string;
  rule: string;
  support: number;
  kind: string;
  checks: Array<{ op: string; arg?: string }>;
  criterion: string | null;
  evidence: Array<{ session: string; turn: number; sentence: string; signals: string[] }>;
}

interface TaskJson {
  source_sessions: string[];
  judge: { checks?: Array<{ op: string; arg?: string; because?: string }> };
  rubric_criteria?: string[];
}

const saidIt = (l: LessonJson): boolean => l.evidence.some((e) => e.sentence.includes(MARKER));

async function ok(box: Sandbox, args: string[]) {
  const r = await runCli(box, args);
  expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
  return r;
}

describe('skillopt-sleep lessons', () => {
  const box = sandbox();
  let lesson: LessonJson;

  beforeAll(async () => {
    writeCorpus(box);
    const harvested = (await ok(box, ['harvest', '--json', '--lookback-hours', '0'])).json();
    const lessons = harvested.lessons as LessonJson[];
    const taught = lessons.find(saidIt);
    expect(taught, JSON.stringify(lessons)).toBeDefined();
    lesson = taught as LessonJson;
  }, 60_000);

  it('lists the lesson: the same objects as harvest --json, and one line each for people', async () => {
    const listed = (await ok(box, ['lessons', '--json'])).json();
    const harvested = (await ok(box, ['harvest', '--json', '--lookback-hours', '0'])).json();
    expect(listed.lessons).toEqual(harvested.lessons);
    expect(listed).toMatchObject({ project: box.project, n_sessions: PACKAGES.length + 3 });
    expect(lesson.support).toBe(2);
    expect(lesson.evidence.map((e) => e.session).sort()).toEqual(CORRECTED.map((s) => `claude:${s}`));
    expect(lesson.checks).toContainEqual(expect.objectContaining({ op: 'runs', arg: 'pnpm' }));

    const text = (await ok(box, ['lessons'])).stdout;
    for (const line of text.trimEnd().split('\n')) expect(line).toMatch(/^\[sleep\] /);
    expect(text).toContain(`[sleep] ${lesson.id}  x2  `);
    expect(text).toMatch(/\d+ checks?\)/);
    // `lessons list` is `lessons`; the mining options reach it before or after the subcommand.
    expect((await ok(box, ['lessons', 'list'])).stdout).toBe(text);
    for (const args of [
      ['lessons', '--source', 'codex', '--json'],
      ['lessons', '--source', 'codex', 'list', '--json'],
      ['lessons', 'list', '--source', 'codex', '--json'],
    ])
      expect((await ok(box, args)).json(), args.join(' ')).toMatchObject({ n_sessions: 0, lessons: [] });
  });

  it('shows the evidence: session, prompt, the sentence and the answers around it', async () => {
    const text = (await ok(box, ['lessons', 'show', lesson.id])).stdout;
    for (const line of text.trimEnd().split('\n')) expect(line).toMatch(/^\[sleep\] /);
    expect(text).toContain(`[sleep] lesson ${lesson.id}`);
    expect(text).toContain('[sleep]   runs "pnpm"');
    expect(text).toContain('[sleep]   never runs "npm"');
    expect(text).toContain('[sleep] evidence 1 of 2: claude:dep-');
    expect(text).toContain(`[sleep]   said: ${CORRECTION}`);
    expect(text).toMatch(/answer before: .*npm install/);
    expect(text).toMatch(/answer after: .*pnpm add/);
    const shown = (await ok(box, ['lessons', 'show', lesson.id, '--json'])).json();
    const detail = shown.lesson as LessonJson & { evidence: Array<{ rejected: string; accepted: string }> };
    expect(detail.id).toBe(lesson.id);
    expect(detail.evidence).toHaveLength(2);
    expect(detail.evidence[0]?.rejected).toContain('npm install');
    expect(detail.evidence[0]?.accepted).toContain('pnpm add');
  });

  it('a night reports the lessons: report.json, report.md and report --html', async () => {
    const night = (await ok(box, ['run', '--backend', 'mock', '--json', '--lookback-hours', '0'])).json();
    const reported = night.lessons as LessonJson[];
    expect(reported.find((l) => l.id === lesson.id)).toMatchObject({ rule: lesson.rule, support: 2 });
    const staging = night.staging_dir as string;
    expect(staging).not.toBe('');
    const md = readFileSync(path.join(staging, 'report.md'), 'utf8');
    expect(md).toContain('## Lessons: what you taught the agent');
    expect(md).toContain(`(${lesson.id}; 2 sessions`);
    expect(md).toContain('(claude:dep-0, prompt 1');
    const page = (await ok(box, ['report', '--html'])).stdout;
    expect(page).toContain(`data-lesson="${lesson.id}"`);
    expect(page).toContain('claude:dep-1, prompt 1');
  });

  it('refuses an unknown id in one line, exit 2', async () => {
    const r = await runCli(box, ['lessons', 'show', 'lesson_000000000000']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^\[sleep\] error: no lesson "lesson_000000000000"/),
    ]);
    const hostile = await runCli(box, ['lessons', 'forget', 'x\u001b[31m']);
    expect(hostile.code).toBe(2);
    expect(hostile.stderr).not.toContain('\u001b');
  });

  it('forget: gone from lessons, from harvest --json and from the tasks’ judges, for good', async () => {
    const before = (await ok(box, ['harvest', '--json', '--lookback-hours', '0'])).json();
    const judged = (before.tasks as TaskJson[]).filter((t) =>
      (t.judge.checks ?? []).some((c) => c.because === lesson.rule),
    );
    expect(judged.length).toBeGreaterThan(0);

    const forgot = await ok(box, ['lessons', 'forget', lesson.id]);
    expect(forgot.stdout).toContain(`[sleep] forgot lesson ${lesson.id}: `);
    for (const line of forgot.stdout.trimEnd().split('\n')) expect(line).toMatch(/^\[sleep\] /);

    const listed = (await ok(box, ['lessons', '--json'])).json().lessons as LessonJson[];
    expect(listed.map((l) => l.id)).not.toContain(lesson.id);
    expect(listed.filter(saidIt)).toEqual([]);
    const after = (await ok(box, ['harvest', '--json', '--lookback-hours', '0'])).json();
    expect((after.lessons as LessonJson[]).filter(saidIt)).toEqual([]);
    for (const t of after.tasks as TaskJson[]) {
      expect(t.judge.checks ?? []).not.toContainEqual(expect.objectContaining({ because: lesson.rule }));
      expect(t.rubric_criteria ?? []).not.toContain(lesson.rule);
    }
    // Neither the kind's report nor the tasks quote it any more.
    expect(JSON.stringify(after.recurring_tasks)).not.toContain(MARKER);
    expect(JSON.stringify(after.one_off_tasks)).not.toContain(MARKER);

    const again = await runCli(box, ['lessons', 'show', lesson.id]);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/was forgotten/);
    expect((await ok(box, ['lessons', 'forget', lesson.id])).stdout).toContain('already forgotten');
  });

  it('forget of its sessions leaves no text of it in the store, not even in the forgotten-lesson records', async () => {
    const stored = new Database(path.join(box.stateHome, 'store.sqlite'), { readonly: true });
    try {
      expect(stored.prepare('SELECT COUNT(*) AS n FROM forgotten_lessons').get()).toEqual({ n: 1 });
    } finally {
      stored.close();
    }
    expect(storeBytes(box)).toContain(MARKER);
    const args = CORRECTED.flatMap((s) => ['--session', `claude:${s}`]);
    const r = await ok(box, ['forget', ...args]);
    expect(r.stdout).toContain('1 forgotten-lesson record');
    expect(storeBytes(box)).not.toContain(MARKER);
    const db = new Database(path.join(box.stateHome, 'store.sqlite'), { readonly: true });
    try {
      expect(db.prepare('SELECT COUNT(*) AS n FROM forgotten_lessons').get()).toEqual({ n: 0 });
      expect(db.prepare('SELECT COUNT(*) AS n FROM forgotten_lesson_evidence').get()).toEqual({ n: 0 });
    } finally {
      db.close();
    }
  });
});
