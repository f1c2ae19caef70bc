/**
 * A real SIGKILL in the middle of `adopt` and of `revert` (test/e2e/crash-entry.mjs runs the built
 * library with a checkpoint that kills its own process at one step): every live file is wholly old or
 * wholly new, and the next command of the built CLI leaves the files, the proposal folder and the
 * store consistent. Every other step is covered in-process by test/adopt-crash.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { spawnCli as runCli, sandbox, type Sandbox } from './cli-helpers.js';
import { readOrNull, stageFixture, type ProposalFixture } from './proposal-fixture.js';

const ENTRY = path.resolve(import.meta.dirname, 'crash-entry.mjs');

type Side = 'old' | 'new' | 'torn';

function sides(f: ProposalFixture): Side[] {
  return [...f.proposed.keys()].map((file) => {
    const text = readOrNull(file);
    if (text === (f.originals.get(file) ?? null)) return 'old';
    if (text === f.proposed.get(file)) return 'new';
    return 'torn';
  });
}

/** No temp file of ours is left in any folder a live file lives in. */
function strayTempFiles(f: ProposalFixture): string[] {
  const dirs = new Set([...f.proposed.keys()].map((file) => path.dirname(file)));
  return [...dirs]
    .filter((d) => existsSync(d))
    .flatMap((d) =>
      readdirSync(d).filter((name) => name.startsWith('.skillopt-sleep-') || name.startsWith('.tmp-')),
    );
}

function storeStatus(box: Sandbox, id: string): string | undefined {
  const db = new Database(path.join(box.stateHome, 'store.sqlite'), { readonly: true });
  try {
    const row = db.prepare('SELECT status FROM proposals WHERE id = ?').get(id) as
      { status: string } | undefined;
    return row?.status;
  } finally {
    db.close();
  }
}

function listedStatus(box: Sandbox): string {
  const out = runCli(box, ['proposals', 'list', '--json']).json() as { proposals: Array<{ status: string }> };
  return out.proposals[0]?.status ?? '';
}

/** Kill `op` with a real SIGKILL at `step`. */
function killAt(box: Sandbox, op: 'adopt' | 'revert', step: number): void {
  const r = spawnSync(process.execPath, [ENTRY, op, String(step), box.project, box.stateHome], {
    encoding: 'utf8',
  });
  expect(r.signal, r.stderr).toBe('SIGKILL');
}

describe('a real SIGKILL mid-transaction', () => {
  it('adopt killed while writing the live files is rolled back by the next command, then adopts', async () => {
    const box = sandbox();
    const f = await stageFixture(box, { withFresh: true });
    expect(runCli(box, ['proposals', 'list']).code).toBe(0); // the store knows the staged proposal
    killAt(box, 'adopt', 6); // lock, backups, journal, then the first file's temp and rename
    expect(sides(f).every((s) => s !== 'torn')).toBe(true);
    expect(existsSync(path.join(f.staged.dir, '.adopt.lock'))).toBe(true);

    const next = runCli(box, ['status', '--json']);
    expect(next.code, next.stderr).toBe(0);
    expect(next.stderr).toMatch(/an interrupted adopt of proposal .* was rolled back/);
    expect(sides(f).every((s) => s === 'old')).toBe(true);
    expect(existsSync(path.join(f.staged.dir, '.transaction.json'))).toBe(false);
    expect(existsSync(path.join(f.staged.dir, '.adopt.lock'))).toBe(false);
    expect(strayTempFiles(f)).toEqual([]);
    expect(listedStatus(box)).toBe('staged');
    expect(storeStatus(box, f.staged.id)).toBe('staged');
    expect(existsSync(path.dirname(f.fresh))).toBe(false);

    const again = runCli(box, ['adopt', '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect(sides(f).every((s) => s === 'new')).toBe(true);
  });

  it('revert killed mid-way leaves each file wholly adopted or wholly restored after the next command', async () => {
    const box = sandbox();
    const f = await stageFixture(box, { withFresh: true });
    expect(runCli(box, ['adopt']).code).toBe(0);
    killAt(box, 'revert', 6);
    expect(sides(f).every((s) => s !== 'torn')).toBe(true);
    expect(runCli(box, ['proposals', 'list']).code).toBe(0);
    const after = sides(f);
    const restored = after.every((s) => s === 'old');
    expect(restored || after.every((s) => s === 'new'), after.join(',')).toBe(true);
    const status = listedStatus(box);
    expect(status).toBe(restored ? 'reverted' : 'adopted');
    expect(storeStatus(box, f.staged.id)).toBe(status);
    expect(strayTempFiles(f)).toEqual([]);
  });
});
