/**
 * A SIGKILL reproduced in-process, for the crash tests. A kill leaves the disk exactly as it is at that
 * instant and runs no more of our code (no `finally`, no rollback). So at the chosen checkpoint the
 * whole sandbox (project, state home with store.sqlite and its -wal/-shm, home) is copied aside
 * synchronously, and the operation is abandoned by a throw. Once it has unwound (its own clean-up
 * touches only the original), the copy is put back in the original's place, so every absolute path
 * the journal, manifest and store record still holds. What names this (live) process — lock files, a
 * staging folder's name, a running night's row — is then made to name a process that has exited,
 * which is what the next command would find after a real kill.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Checkpoint } from '../../proposals/index.js';
import { parseLockRecord } from '../../src/core/pid-lock.js';
import { ownIdentity } from '../../src/core/process-identity.js';

/** Thrown at the checkpoint to abandon the operation. */
export class Abandoned extends Error {
  readonly step: number;
  constructor(step: number) {
    super(`abandoned at step ${step}`);
    this.step = step;
  }
}

let dead: { pid: number; start: string } | null = null;

/**
 * A pid whose process has exited (a short child), with a start time no process of that pid can have
 * if the system reuses it: a lock naming it is stale for pid-lock's check.
 */
export function deadIdentity(): { pid: number; start: string } {
  if (dead) return dead;
  const child = spawnSync(process.execPath, ['-e', ''], { stdio: 'ignore' });
  if (typeof child.pid !== 'number') throw new Error('could not start a short child process');
  dead = { pid: child.pid, start: '1' };
  return dead;
}

export interface KillPoint {
  /** Pass as the operation's checkpoint. */
  checkpoint: Checkpoint;
  /** True once the checkpoint was reached (the operation was abandoned there). */
  killed: () => boolean;
  /** After the abandoned operation settled: put the sandbox back as the kill left it. */
  restore: () => void;
}

/** A checkpoint that "kills" the operation at step `at`, keeping the bytes of everything under `root`. */
export function killAt(root: string, at: number): KillPoint {
  const copy = `${root}.killed`;
  let reached = false;
  return {
    checkpoint: (step) => {
      if (step !== at) return;
      reached = true;
      cpSync(root, copy, { recursive: true, verbatimSymlinks: true, preserveTimestamps: true });
      throw new Abandoned(step);
    },
    killed: () => reached,
    restore: () => {
      if (!reached) throw new Error(`step ${at} was never reached`);
      rmSync(root, { recursive: true, force: true });
      renameSync(copy, root);
      asIfKilled(root);
    },
  };
}

/** Make every record under `root` naming this process name an exited one instead. */
export function asIfKilled(root: string): void {
  const me = ownIdentity();
  const gone = deadIdentity();
  const stagingName = new RegExp(`^\\.staging-${me.pid}-${me.start || '0'}-`);
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      let file = path.join(dir, entry.name);
      if (entry.isDirectory() && stagingName.test(entry.name)) {
        const renamed = path.join(
          dir,
          entry.name.replace(stagingName, `.staging-${gone.pid}-${gone.start}-`),
        );
        renameSync(file, renamed);
        file = renamed;
      }
      if (entry.isDirectory()) walk(file);
      else if (entry.isFile() && entry.name.endsWith('.lock')) rewriteLock(file, me.pid, gone);
      else if (entry.isFile() && entry.name === 'store.sqlite') rewriteNights(file, me.pid, gone);
    }
  };
  walk(root);
}

function rewriteLock(file: string, pid: number, gone: { pid: number; start: string }): void {
  const text = readFileSync(file, 'utf8');
  const record = parseLockRecord(text);
  if (record?.pid !== pid) return;
  const mode = statSync(file).mode & 0o777;
  const data = { ...(JSON.parse(text) as Record<string, unknown>), pid: gone.pid, start: gone.start };
  writeFileSync(file, JSON.stringify(data), { mode });
}

/**
 * A night the killed process was running still names it in the store, and so does a proposal it
 * reserved but had not published (its row names the staging folder).
 */
function rewriteNights(file: string, pid: number, gone: { pid: number; start: string }): void {
  const db = new Database(file);
  const has = (table: string): boolean =>
    db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get(table) !== undefined;
  try {
    if (has('nights'))
      db.prepare(`UPDATE nights SET pid = ?, process_start = ? WHERE pid = ? AND status = 'running'`).run(
        gone.pid,
        gone.start,
        pid,
      );
    if (has('proposals')) {
      const me = `/.staging-${pid}-${ownIdentity().start || '0'}-`;
      db.prepare(`UPDATE proposals SET dir = replace(dir, ?, ?) WHERE instr(dir, ?) > 0`).run(
        me,
        `/.staging-${gone.pid}-${gone.start}-`,
        me,
      );
    }
  } finally {
    db.close();
  }
}
