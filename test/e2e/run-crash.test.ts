/**
 * Issue 15, items 4 and 9: a night killed with a real SIGKILL just after its proposal folder was
 * published, before the store knew it (test/e2e/crash-entry.mjs runs the built night with a staging
 * checkpoint that kills its own process). The next command of the built CLI marks the night
 * interrupted, leaves no stray folder, and links the proposal (whose manifest the store recorded before
 * the folder was published) to its night; it is adoptable. Every other step of staging is covered in-process by test/run-crash.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect, it } from 'vitest';
import { PERSONAS, spawnCli as runCli, sandbox, type Sandbox } from './cli-helpers.js';

const TASKS = path.join(PERSONAS, 'researcher.tasks.json');
const ENTRY = path.resolve(import.meta.dirname, 'crash-entry.mjs');

function rows(box: Sandbox): {
  nights: Array<{ id: number; status: string; proposal_id: string }>;
  proposals: Array<{ id: string; night_id: number | null; status: string }>;
} {
  const db = new Database(path.join(box.stateHome, 'store.sqlite'), { readonly: true });
  try {
    return {
      nights: db.prepare('SELECT id, status, proposal_id FROM nights ORDER BY id').all() as never,
      proposals: db.prepare('SELECT id, night_id, status FROM proposals').all() as never,
    };
  } finally {
    db.close();
  }
}

const proposalsDir = (box: Sandbox): string => path.join(box.project, '.skillopt-sleep', 'proposals');

it('a run killed right after publishing its proposal is recovered by the next command', () => {
  const box = sandbox();
  // Steps: proposed file, diff, reports, manifest (recorded), published (after the rename, before the
  // night is linked to it).
  const crashed = spawnSync(
    process.execPath,
    [ENTRY, 'run', '5', box.project, box.stateHome, box.home, TASKS],
    { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: box.home, TZ: 'UTC' } },
  );
  expect(crashed.signal, crashed.stderr).toBe('SIGKILL');
  expect(rows(box).nights.map((n) => n.status)).toEqual(['running']);
  expect(rows(box).nights[0]?.proposal_id).toBe('');
  expect(rows(box).proposals.map((p) => p.status)).toEqual(['staged']);

  const status = runCli(box, ['status', '--json']);
  expect(status.code, status.stderr).toBe(0);
  expect(status.stderr).not.toContain('warning');
  const nights = status.json().nights as Array<{ status: string; error: string | null }>;
  expect(nights.map((n) => n.status)).toEqual(['interrupted']);
  expect(nights[0]?.error).toMatch(/ended before the night finished/);

  const left = readdirSync(proposalsDir(box)).sort();
  expect(left).toHaveLength(1);
  const id = left[0] ?? '';
  expect(existsSync(path.join(proposalsDir(box), id, 'manifest.json'))).toBe(true);
  const after = rows(box);
  expect(after.proposals).toEqual([{ id, night_id: after.nights[0]?.id, status: 'staged' }]);
  expect(after.nights[0]?.proposal_id).toBe(id);
  const adopt = runCli(box, ['adopt', '--json']);
  expect(adopt.code, adopt.stderr).toBe(0);

  // And the next night runs as usual, with no warning about the killed one.
  const again = runCli(box, ['run', '--json', '--tasks-file', TASKS]);
  expect(again.code, again.stderr).toBe(0);
  expect(again.stderr).not.toContain('warning');
  expect(rows(box).nights.map((n) => n.status)).toEqual(['interrupted', 'completed']);
});
