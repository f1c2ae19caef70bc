/**
 * `adopt` (and `revert`) killed at every step of its transaction, in-process through the proposals'
 * checkpoint seam (test/helpers/killed-here.ts: the sandbox as the kill left it, stale locks and
 * all). Every live file is wholly old or wholly new, and the next command (the same library calls the
 * CLI makes) leaves the files, the proposal folder and the store consistent. One real SIGKILL per
 * operation stays in test/e2e/adopt-crash.test.ts.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { adoptProposal, listProposals, revertProposal, type Checkpoint } from '../proposals/index.js';
import { recoverAndSync, syncMirror } from '../src/cli/proposal-session.js';
import { memoryLogger } from '../src/core/logger.js';
import { openStore, type Db } from '../src/store/db.js';
import { markInterruptedNights } from '../src/store/nights-repo.js';
import { proposalLedger } from '../src/store/proposal-ledger-repo.js';
import type { Sandbox } from './e2e/cli-helpers.js';
import { readOrNull, stageFixture, withSandboxLedger, type ProposalFixture } from './e2e/proposal-fixture.js';
import { killAt } from './helpers/killed-here.js';

type Side = 'old' | 'new';

function box(): Sandbox {
  const root = mkdtempSync(path.join(os.tmpdir(), 'sos-crash-'));
  const s = {
    root,
    home: path.join(root, 'home'),
    stateHome: path.join(root, 'state'),
    project: path.join(root, 'project'),
  };
  for (const dir of [s.home, s.project]) mkdirSync(dir, { recursive: true });
  return s;
}

function sideOf(f: ProposalFixture, file: string): Side | 'torn' {
  const text = readOrNull(file);
  if (text === (f.originals.get(file) ?? null)) return 'old';
  if (text === f.proposed.get(file)) return 'new';
  return 'torn';
}

const sides = (f: ProposalFixture): Array<Side | 'torn'> =>
  [...f.proposed.keys()].map((file) => sideOf(f, file));

/** No temp file of ours is left in any folder a live file lives in. */
function strayTempFiles(f: ProposalFixture): string[] {
  const dirs = new Set([...f.proposed.keys()].map((file) => path.dirname(file)));
  return [...dirs]
    .filter((d) => existsSync(d))
    .flatMap((d) =>
      readdirSync(d).filter((name) => name.startsWith('.skillopt-sleep-') || name.startsWith('.tmp-')),
    );
}

/** What every CLI command opens first (`openDb`): the store, with killed nights marked interrupted. */
function openCliStore(b: Sandbox): Db {
  const db = openStore(path.join(b.stateHome, 'store.sqlite'));
  markInterruptedNights(db, Date.now());
  return db;
}

/** A command that only opens the project's proposals (`status`, `proposals list`): recovery and sync. */
async function nextCommand(b: Sandbox): Promise<{ warnings: string[] }> {
  const db = openCliStore(b);
  const logger = memoryLogger();
  try {
    await recoverAndSync(db, b.project, logger);
  } finally {
    db.close();
  }
  return { warnings: logger.lines.filter((l) => l.startsWith('warn: ')) };
}

/** `adopt` / `revert` as src/cli/commands/{adopt,revert}.ts run them. */
async function command(b: Sandbox, verb: 'adopt' | 'revert', checkpoint?: Checkpoint): Promise<void> {
  const db = openCliStore(b);
  try {
    await recoverAndSync(db, b.project, memoryLogger());
    const base = {
      projectDir: b.project,
      ledger: proposalLedger(db, b.project),
      now: Date.now(),
      commit: false,
      ...(checkpoint ? { checkpoint } : {}),
    };
    try {
      if (verb === 'adopt') await adoptProposal({ ...base, select: {} });
      else await revertProposal({ ...base, force: false });
    } finally {
      await syncMirror(db, b.project);
    }
  } finally {
    db.close();
  }
}

/** Run `verb` killed at `step`; false when it finished before reaching it. */
async function killedAt(b: Sandbox, verb: 'adopt' | 'revert', step: number): Promise<boolean> {
  const kill = killAt(b.root, step);
  try {
    await command(b, verb, kill.checkpoint);
  } catch (err) {
    // The operation may wrap the throw in its own error; only an abandon at the checkpoint is expected.
    if (!kill.killed()) throw err;
  }
  if (!kill.killed()) return false;
  kill.restore();
  return true;
}

function storeStatus(b: Sandbox, id: string): string | undefined {
  const db = openStore(path.join(b.stateHome, 'store.sqlite'));
  try {
    const row = db.prepare('SELECT status FROM proposals WHERE id = ?').get(id) as
      { status: string } | undefined;
    return row?.status;
  } finally {
    db.close();
  }
}

async function listedStatus(b: Sandbox): Promise<string> {
  await nextCommand(b);
  return (
    (await withSandboxLedger(b, (ledger) => listProposals(b.project, ledger))).proposals[0]?.status ?? ''
  );
}

describe('adopt killed at every step', () => {
  it('leaves each file wholly old or new, and the next command makes everything consistent', async () => {
    let completedAt = 0;
    const outcomes: string[] = [];
    for (let step = 1; step <= 40 && completedAt === 0; step++) {
      const b = box();
      const f = await stageFixture(b, { withFresh: true });
      if (!(await killedAt(b, 'adopt', step))) {
        completedAt = step;
        expect(sides(f).every((s) => s === 'new')).toBe(true);
        break;
      }
      // Right after the kill: no file is torn.
      expect(
        sides(f).every((s) => s !== 'torn'),
        `step ${step}`,
      ).toBe(true);

      // The next command recovers: all old (rolled back) or all new (finished).
      await nextCommand(b);
      const after = sides(f);
      const allNew = after.every((s) => s === 'new');
      const allOld = after.every((s) => s === 'old');
      expect(allNew || allOld, `step ${step}: ${after.join(',')}`).toBe(true);
      expect(existsSync(path.join(f.staged.dir, '.transaction.json'))).toBe(false);
      expect(existsSync(path.join(f.staged.dir, '.adopt.lock'))).toBe(false);
      expect(strayTempFiles(f)).toEqual([]);
      const status = await listedStatus(b);
      expect(status).toBe(allNew ? 'adopted' : 'staged');
      expect(storeStatus(b, f.staged.id)).toBe(status);
      expect(existsSync(path.dirname(f.fresh))).toBe(allNew);
      outcomes.push(`${step}:${allNew ? 'finished' : 'rolled_back'}`);

      // And the proposal can then be adopted (or is already adopted) as usual.
      const again = command(b, 'adopt');
      if (allOld) {
        await again;
        expect(sides(f).every((s) => s === 'new')).toBe(true);
      } else {
        await expect(again).rejects.toMatchObject({ code: 'already_adopted' });
      }
    }
    // 4 files: lock, backups, journal, 2 steps per file, receipt, journal removed = 13 steps.
    expect(completedAt).toBe(14);
    expect(outcomes.filter((o) => o.endsWith('rolled_back'))).toHaveLength(11);
    expect(outcomes.filter((o) => o.endsWith('finished'))).toHaveLength(2);
  });
});

describe('revert killed at every step', () => {
  it('leaves each file wholly adopted or wholly restored after the next command', async () => {
    let completedAt = 0;
    for (let step = 1; step <= 40 && completedAt === 0; step++) {
      const b = box();
      const f = await stageFixture(b, { withFresh: true });
      await command(b, 'adopt');
      if (!(await killedAt(b, 'revert', step))) {
        completedAt = step;
        expect(sides(f).every((s) => s === 'old')).toBe(true);
        break;
      }
      expect(sides(f).every((s) => s !== 'torn')).toBe(true);
      await nextCommand(b);
      const after = sides(f);
      const restored = after.every((s) => s === 'old');
      expect(restored || after.every((s) => s === 'new'), `step ${step}: ${after.join(',')}`).toBe(true);
      const status = await listedStatus(b);
      expect(status).toBe(restored ? 'reverted' : 'adopted');
      expect(storeStatus(b, f.staged.id)).toBe(status);
      expect(strayTempFiles(f)).toEqual([]);
    }
    expect(completedAt).toBeGreaterThan(8);
  });
});
