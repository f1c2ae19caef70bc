/**
 * Kill `adopt` (and `revert`) with SIGKILL at every step of its transaction, through the test-only
 * SKILLOPT_SLEEP_TEST_CRASH_AT hook, and show that every live file is wholly old or wholly new, and
 * that the next command leaves the files, the proposal folder and the store consistent.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { spawnCli as runCli, sandbox, type Sandbox } from './cli-helpers.js';
import { readOrNull, stageFixture, type ProposalFixture } from './proposal-fixture.js';

type Side = 'old' | 'new';

function sideOf(f: ProposalFixture, file: string): Side | 'torn' {
  const text = readOrNull(file);
  if (text === (f.originals.get(file) ?? null)) return 'old';
  if (text === f.proposed.get(file)) return 'new';
  return 'torn';
}

function sides(f: ProposalFixture): Array<Side | 'torn'> {
  return [...f.proposed.keys()].map((file) => sideOf(f, file));
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

describe('adopt killed at every step', () => {
  it('leaves each file wholly old or new, and the next command makes everything consistent', async () => {
    let completedAt = 0;
    const outcomes: string[] = [];
    for (let step = 1; step <= 40 && completedAt === 0; step++) {
      const box = sandbox();
      const f = await stageFixture(box, { withFresh: true });
      const crashed = runCli(box, ['adopt'], { SKILLOPT_SLEEP_TEST_CRASH_AT: String(step) });
      if (crashed.code === 0) {
        completedAt = step;
        expect(sides(f).every((s) => s === 'new')).toBe(true);
        break;
      }
      expect(crashed.code, `step ${step}: ${crashed.stderr}`).toBe(-1); // killed by SIGKILL
      // Right after the kill: no file is torn.
      expect(
        sides(f).every((s) => s !== 'torn'),
        `step ${step}`,
      ).toBe(true);

      // The next command recovers: all old (rolled back) or all new (finished).
      const next = runCli(box, ['status', '--json']);
      expect(next.code, next.stderr).toBe(0);
      const after = sides(f);
      const allNew = after.every((s) => s === 'new');
      const allOld = after.every((s) => s === 'old');
      expect(allNew || allOld, `step ${step}: ${after.join(',')}`).toBe(true);
      expect(existsSync(path.join(f.staged.dir, '.transaction.json'))).toBe(false);
      expect(existsSync(path.join(f.staged.dir, '.adopt.lock'))).toBe(false);
      expect(strayTempFiles(f)).toEqual([]);
      const status = listedStatus(box);
      expect(status).toBe(allNew ? 'adopted' : 'staged');
      expect(storeStatus(box, f.staged.id)).toBe(status);
      expect(existsSync(path.dirname(f.fresh))).toBe(allNew);
      outcomes.push(`${step}:${allNew ? 'finished' : 'rolled_back'}`);

      // And the proposal can then be adopted (or is already adopted) as usual.
      const again = runCli(box, ['adopt', '--json']);
      if (allOld) {
        expect(again.code, again.stderr).toBe(0);
        expect(sides(f).every((s) => s === 'new')).toBe(true);
      } else {
        expect(again.json()).toMatchObject({ error: 'already_adopted' });
      }
    }
    // 4 files: lock, backups, journal, 2 steps per file, receipt, journal removed = 13 steps.
    expect(completedAt).toBe(14);
    expect(outcomes.filter((o) => o.endsWith('rolled_back'))).toHaveLength(11);
    expect(outcomes.filter((o) => o.endsWith('finished'))).toHaveLength(2);
  }, 120_000);
});

describe('revert killed at every step', () => {
  it('leaves each file wholly adopted or wholly restored after the next command', async () => {
    let completedAt = 0;
    for (let step = 1; step <= 40 && completedAt === 0; step++) {
      const box = sandbox();
      const f = await stageFixture(box, { withFresh: true });
      expect(runCli(box, ['adopt']).code).toBe(0);
      const crashed = runCli(box, ['revert'], { SKILLOPT_SLEEP_TEST_CRASH_AT: String(step) });
      if (crashed.code === 0) {
        completedAt = step;
        expect(sides(f).every((s) => s === 'old')).toBe(true);
        break;
      }
      expect(crashed.code, crashed.stderr).toBe(-1);
      expect(sides(f).every((s) => s !== 'torn')).toBe(true);
      expect(runCli(box, ['proposals', 'list']).code).toBe(0);
      const after = sides(f);
      const restored = after.every((s) => s === 'old');
      expect(restored || after.every((s) => s === 'new'), `step ${step}: ${after.join(',')}`).toBe(true);
      const status = listedStatus(box);
      expect(status).toBe(restored ? 'reverted' : 'adopted');
      expect(storeStatus(box, f.staged.id)).toBe(status);
      expect(strayTempFiles(f)).toEqual([]);
    }
    expect(completedAt).toBeGreaterThan(8);
  }, 120_000);
});
