/**
 * Small builders for miner tests: sessions written as a list of prompts, each with the agent's reply
 * (prose and actions). Test-only; no file is read.
 */
import type { ToolAction } from '../core/session.js';
import type { MinerSession } from './types.js';

export interface Exchange {
  prompt: string;
  reply?: string;
  actions?: ToolAction[];
}

export const run = (command: string): ToolAction => ({
  kind: 'run',
  tool: 'Bash',
  target: command,
  added: '',
  removed: '',
});
export const read = (path: string): ToolAction => ({
  kind: 'read',
  tool: 'Read',
  target: path,
  added: '',
  removed: '',
});
export const write = (path: string, added: string): ToolAction => ({
  kind: 'write',
  tool: 'Write',
  target: path,
  added,
  removed: '',
});
export const edit = (path: string, removed: string, added: string): ToolAction => ({
  kind: 'edit',
  tool: 'Edit',
  target: path,
  added,
  removed,
});

let counter = 0;

/** A session of `exchanges`, started `minute` minutes after a fixed day, in `cwd`. */
export function session(
  exchanges: readonly Exchange[],
  opts: { key?: string; minute?: number; cwd?: string; partition?: string } = {},
): MinerSession {
  counter += 1;
  const key = opts.key ?? `claude:s${counter}`;
  const start = Date.UTC(2026, 0, 1) + (opts.minute ?? counter) * 60_000;
  const cwd = opts.cwd ?? '/work/app';
  return {
    source: 'claude',
    sessionId: key.split(':')[1] ?? key,
    key,
    projectRoot: cwd,
    cwd,
    branch: '',
    model: '',
    sourceVersion: '',
    startedAt: start,
    endedAt: start + 60_000,
    toolsUsed: [],
    skillsUsed: [],
    filesTouched: [],
    sourcePath: '',
    ...(opts.partition !== undefined ? { partition: opts.partition } : {}),
    turns: exchanges.flatMap((x, i) => [
      {
        seq: 2 * i,
        role: 'user' as const,
        text: x.prompt,
        ts: null,
        toolNames: [],
        actions: [],
        toolErrors: 0,
        interrupted: false,
        offset: 0,
      },
      {
        seq: 2 * i + 1,
        role: 'assistant' as const,
        text: x.reply ?? '',
        ts: null,
        toolNames: (x.actions ?? []).map((a) => a.tool),
        actions: x.actions ?? [],
        toolErrors: 0,
        interrupted: false,
        offset: 0,
      },
    ]),
  };
}
