/**
 * Logs whose working folders are not on this machine (copied from another machine or OS, or the
 * project moved): sessions of two projects asking the same thing never become one task, and a
 * project folder that is gone can still be harvested from what the store holds.
 */
import { copyFileSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HandoffRequest } from '../../src/backends/handoff/handoff-queue.js';
import { runCli, sandbox, type Sandbox } from './cli-helpers.js';

/** One Claude Code session: a request the agent answers with two shell commands. */
function transcript(cwd: string, id: string, minute: number, request: string, pkg: string): string {
  const base = { sessionId: id, cwd, gitBranch: 'main', version: '2.1.0', userType: 'external' };
  const at = (s: number): string => new Date(Date.UTC(2026, 10, 20, 9, minute, s)).toISOString();
  const commands = ['cat package.json', `pnpm add ${pkg}`];
  const lines = [
    { ...base, type: 'user', uuid: `${id}-u`, timestamp: at(0), message: { role: 'user', content: request } },
    {
      ...base,
      type: 'assistant',
      uuid: `${id}-a`,
      timestamp: at(5),
      message: {
        id: `msg_${id}`,
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [
          { type: 'text', text: `Added ${pkg}.` },
          ...commands.map((command, j) => ({
            type: 'tool_use',
            id: `${id}-t${j}`,
            name: 'Bash',
            input: { command },
          })),
        ],
      },
    },
  ];
  return `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`;
}

const REQUESTS: Array<[string, string]> = [
  ['add the zod package to the web app', 'zod'],
  ['please add the dayjs package to the web app', 'dayjs'],
  ['add the clsx package to the web app, the buttons need it', 'clsx'],
];

/** Projects that are not on this machine: two recorded on Linux, one on Windows. */
function projects(box: Sandbox): { alpha: string; gamma: string; beta: string; betaNormal: string } {
  return {
    alpha: path.join(box.root, 'gone', 'alpha'),
    gamma: path.join(box.root, 'gone', 'gamma'),
    beta: String.raw`C:\Users\georg\beta`,
    betaNormal: 'c:/users/georg/beta',
  };
}

/** Each project asks the same three things, in the same words; returns each session id's recorded folder (normal form). */
function writeCorpus(box: Sandbox): Map<string, string> {
  const { alpha, gamma, beta, betaNormal } = projects(box);
  const folderOf = new Map<string, string>();
  const dir = path.join(box.home, '.claude', 'projects', 'copied');
  mkdirSync(dir, { recursive: true });
  for (const [name, cwd, normal] of [
    ['alpha', alpha, alpha],
    ['gamma', gamma, gamma],
    ['beta', beta, betaNormal],
  ] as const) {
    REQUESTS.forEach(([request, pkg], i) => {
      const id = `${name}-${i}`;
      writeFileSync(path.join(dir, `${id}.jsonl`), transcript(cwd, id, i * 10, request, pkg));
      folderOf.set(id, normal);
    });
  }
  return folderOf;
}

interface Task {
  occurrences: number;
  source_sessions: string[];
}

const tasksOf = (out: Record<string, unknown>): Task[] => [
  ...(out.recurring_tasks as Task[]),
  ...(out.one_off_tasks as Task[]),
];

describe('projects whose folders are not on this machine', () => {
  it('never puts sessions of two project folders in one task (--scope all)', async () => {
    const box = sandbox();
    const folderOf = writeCorpus(box);
    const r = await runCli(box, ['harvest', '--scope', 'all', '--lookback-hours', '0', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const tasks = tasksOf(r.json());
    expect(tasks.map((t) => t.source_sessions.length).reduce((a, b) => a + b, 0)).toBe(9);
    for (const t of tasks) {
      const folders = new Set(t.source_sessions.map((s) => folderOf.get(s.replace(/^claude:/, ''))));
      expect(folders.size, JSON.stringify(t.source_sessions)).toBe(1);
    }
    // Apart across projects, together within each.
    expect((r.json().recurring_tasks as Task[]).map((t) => t.occurrences)).toEqual([3, 3, 3]);
  });

  it('harvests a moved project from its stored sessions with a warning; refuses a folder with none', async () => {
    const box = sandbox();
    writeCorpus(box);
    const { alpha, betaNormal } = projects(box);
    for (const [flag, folder] of [
      [alpha, alpha],
      [String.raw`C:\Users\georg\beta`, betaNormal],
    ] as const) {
      const r = await runCli(box, ['harvest', '--project', flag, '--lookback-hours', '0', '--json']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain(
        `[sleep] warning: project folder ${folder} does not exist on this machine: only what the store holds for it is used (3 sessions started in it or below)\n`,
      );
      const out = r.json();
      expect(out.project).toBe(folder);
      expect((out.recurring_tasks as Task[]).map((t) => t.occurrences)).toEqual([3]);
    }
    const status = await runCli(box, ['status', '--project', alpha, '--json']);
    expect(status.code, status.stderr).toBe(0);
    expect(status.json().project).toBe(alpha);

    const nothing = path.join(box.root, 'gone', 'never-here');
    const refused = await runCli(box, ['harvest', '--project', nothing]);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toBe(
      `[sleep] error: project folder ${nothing} does not exist or is not a folder\n`,
    );
    expect((await runCli(box, ['status', '--project', nothing])).code).toBe(2);
    // A night mines what the store holds, then refuses: its proposal would go into the folder.
    const run = await runCli(box, ['run', '--project', alpha, '--backend', 'mock']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `[sleep] error: project folder ${alpha} is not on this machine: the night mined the sessions stored for it`,
    );
    const none = await runCli(box, ['run', '--project', nothing, '--backend', 'mock']);
    expect(none.code).toBe(2);
    expect(none.stderr).toBe(`[sleep] error: project folder ${nothing} does not exist or is not a folder\n`);
    // What such a night would send: its mining passes only, nothing replayed against a skill.
    const sends = await runCli(box, ['run', '--explain-sends', '--project', alpha, '--json']);
    expect(sends.code, sends.stderr).toBe(0);
    expect(sends.stderr).toContain(`[sleep] warning: project folder ${alpha} does not exist on this machine`);
    expect(JSON.stringify(sends.json())).toContain(
      `project folder ${alpha} is not on this machine: its night sends only the mining passes listed`,
    );
    expect((await runCli(box, ['run', '--explain-sends', '--project', nothing])).code).toBe(2);
  });

  it('a handoff night on a moved project has the model read its stored sessions; `lessons` lists what it taught', async () => {
    const box = sandbox();
    writeCorpus(box);
    const { alpha } = projects(box);
    // The lessons pass only: the model miner's requests are another test's.
    mkdirSync(box.stateHome, { recursive: true, mode: 0o700 });
    writeFileSync(path.join(box.stateHome, 'config.json'), JSON.stringify({ llm_mine: false }), {
      mode: 0o600,
    });
    expect((await runCli(box, ['harvest', '--scope', 'all', '--lookback-hours', '0'])).code).toBe(0);
    const night = ['run', '--backend', 'handoff', '--project', alpha, '--lookback-hours', '0', '--json'];
    const first = await runCli(box, night);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toContain(`project folder ${alpha} does not exist on this machine`);
    expect(first.json()).toMatchObject({
      stopped: 'waiting_handoff',
      waiting: { phases: ['mine llm_lessons'], open_by_purpose: { 'read-follow-ups': 3 } },
    });
    // The model reads each request once; it says the zod one states how packages are always added.
    for (;;) {
      const next = await runCli(box, ['handoff', 'next', '--project', alpha, '--json']);
      expect(next.code, next.stderr).toBe(0);
      const r = next.json().request as HandoffRequest | null;
      if (!r) break;
      const item0 = r.messages.some((m) => m.content.includes('zod'))
        ? { n: 0, class: 'preference', rule: 'Always add packages with pnpm.', general: true }
        : { n: 0, class: 'request' };
      const reply = JSON.stringify({ follow_ups: [item0] });
      const answered = await runCli(
        box,
        ['handoff', 'answer', r.id, '--project', alpha],
        {},
        { input: reply },
      );
      expect(answered.code, answered.stderr).toBe(0);
    }
    const last = await runCli(box, night);
    expect(last.code).toBe(2);
    expect(last.stderr).toContain('has no skill to train and no folder to stage a proposal in');
    // The night ended: its exchanges are a recording, its queue is gone, the next one asks nothing.
    const recordings = readdirSync(path.join(box.stateHome, 'recordings'));
    expect(recordings.filter((f) => f.endsWith('-handoff.jsonl'))).toHaveLength(1);
    const after = await runCli(box, ['handoff', 'next', '--project', alpha, '--json']);
    expect(after.json().request).toBeNull();
    const again = await runCli(box, night);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('has no skill to train');

    // The recording replays the reading into a fresh store: the same lesson, nothing asked.
    const recording = path.join(box.root, 'moved-night.jsonl');
    copyFileSync(path.join(box.stateHome, 'recordings', recordings[0] ?? ''), recording);
    rmSync(path.join(box.stateHome, 'store.sqlite'));
    expect((await runCli(box, ['harvest', '--scope', 'all', '--lookback-hours', '0'])).code).toBe(0);
    const replayed = await runCli(box, [...night, '--replay', recording]);
    expect(replayed.code).toBe(2);
    expect(replayed.stderr).toContain('has no skill to train');
    const relisted = await runCli(box, ['lessons', '--project', alpha, '--json']);
    expect((relisted.json().lessons as Array<{ rule: string }>).map((l) => l.rule)).toEqual([
      'Always add packages with pnpm.',
    ]);
    const lessons = await runCli(box, ['lessons', '--project', alpha, '--json']);
    expect(lessons.code, lessons.stderr).toBe(0);
    const listed = lessons.json().lessons as Array<{ rule: string; project: string }>;
    expect(listed.map((l) => [l.rule, l.project])).toEqual([['Always add packages with pnpm.', alpha]]);
  }, 60_000);
});
