/**
 * Issue 15, items 4 and 9: `run` killed at every step of staging its proposal, in-process through
 * `NightRequest.stageCheckpoint` (test/helpers/killed-here.ts: the sandbox as the kill left it). After
 * the next command there is no `running` night, no leftover or half-written folder in the proposals
 * folder, and a proposal published before the kill is known to the store, linked to its night, and
 * adoptable. One real SIGKILL stays in test/e2e/run-crash.test.ts.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { adoptProposal, type Checkpoint } from '../proposals/index.js';
import { MockBackend } from '../src/backends/mock/mock-backend.js';
import { recoverAndSync } from '../src/cli/proposal-session.js';
import { systemClock } from '../src/core/clock.js';
import { memoryLogger } from '../src/core/logger.js';
import { defaultConfig } from '../src/config/schema.js';
import { runNight } from '../src/night/run-night.js';
import { openStore, type Db } from '../src/store/db.js';
import { markInterruptedNights, nightsForProject } from '../src/store/nights-repo.js';
import { proposalLedger } from '../src/store/proposal-ledger-repo.js';
import { killAt } from './helpers/killed-here.js';

const TASKS = path.resolve(import.meta.dirname, 'fixtures/personas/researcher.tasks.json');

interface Box {
  root: string;
  home: string;
  stateHome: string;
  project: string;
}

function box(): Box {
  const root = mkdtempSync(path.join(os.tmpdir(), 'sos-run-crash-'));
  const b = {
    root,
    home: path.join(root, 'home'),
    stateHome: path.join(root, 'state'),
    project: path.join(root, 'project'),
  };
  for (const dir of [b.home, b.project]) mkdirSync(dir, { recursive: true });
  return b;
}

/** What every CLI command opens first (`openDb`): the store, with killed nights marked interrupted. */
function openCliStore(b: Box): Db {
  const db = openStore(path.join(b.stateHome, 'store.sqlite'));
  markInterruptedNights(db, Date.now());
  return db;
}

/** `run --tasks-file TASKS` as src/cli/commands/night.ts runs it (mock backend, default config). */
async function run(b: Box, stageCheckpoint?: Checkpoint): Promise<string[]> {
  const db = openCliStore(b);
  const logger = memoryLogger();
  try {
    await recoverAndSync(db, b.project, logger);
    await runNight(
      {
        project: b.project,
        config: defaultConfig(),
        mode: 'run',
        tasksFile: TASKS,
        ...(stageCheckpoint ? { stageCheckpoint } : {}),
      },
      {
        home: b.stateHome,
        userHome: b.home,
        env: {},
        clock: systemClock,
        db,
        backend: new MockBackend(),
        logger,
      },
    );
  } finally {
    db.close();
  }
  return logger.lines.filter((l) => l.startsWith('warn: '));
}

function rows(b: Box): {
  nights: Array<{ id: number; status: string; proposal_id: string }>;
  proposals: Array<{ id: string; night_id: number | null; status: string }>;
} {
  const db = openStore(path.join(b.stateHome, 'store.sqlite'));
  try {
    return {
      nights: db.prepare('SELECT id, status, proposal_id FROM nights ORDER BY id').all() as never,
      proposals: db.prepare('SELECT id, night_id, status FROM proposals').all() as never,
    };
  } finally {
    db.close();
  }
}

const proposalsDir = (b: Box): string => path.join(b.project, '.skillopt-sleep', 'proposals');
const entries = (b: Box): string[] =>
  existsSync(proposalsDir(b)) ? readdirSync(proposalsDir(b)).sort() : [];

it('a run killed at any step of staging leaves no running night and no partial folder after recovery', async () => {
  let completedAt = 0;
  const outcomes: string[] = [];
  for (let step = 1; step <= 12 && completedAt === 0; step++) {
    const b = box();
    const kill = killAt(b.root, step);
    await run(b, kill.checkpoint).catch((err: unknown) => {
      // Staging wraps the throw in its own error; only an abandon at the checkpoint is expected.
      if (!kill.killed()) throw err;
    });
    if (!kill.killed()) {
      completedAt = step;
      break;
    }
    kill.restore();
    expect(rows(b).nights.map((n) => n.status)).toEqual(['running']);

    // The next command (status) recovers.
    const db = openCliStore(b);
    const logger = memoryLogger();
    try {
      await recoverAndSync(db, b.project, logger);
      expect(logger.lines.filter((l) => l.startsWith('warn: '))).toEqual([]);
      const nights = nightsForProject(db, b.project, 10);
      expect(nights.map((n) => n.status)).toEqual(['interrupted']);
      expect(nights[0]?.error).toMatch(/ended before the night finished/);
    } finally {
      db.close();
    }
    const after = rows(b);
    expect(after.nights.map((n) => n.status)).toEqual(['interrupted']);

    // Either no proposal (killed before the rename) or one whole, recorded, linked, adoptable proposal.
    const left = entries(b);
    expect(left.filter((name) => name.startsWith('.'))).toEqual([]);
    if (left.length === 0) {
      expect(after.proposals).toEqual([]);
      outcomes.push(`${step}:none`);
    } else {
      expect(left).toHaveLength(1);
      const id = left[0] ?? '';
      expect(existsSync(path.join(proposalsDir(b), id, 'manifest.json'))).toBe(true);
      expect(after.proposals).toEqual([{ id, night_id: after.nights[0]?.id, status: 'staged' }]);
      expect(after.nights[0]?.proposal_id).toBe(id);
      const db2 = openCliStore(b);
      try {
        const adopted = await adoptProposal({
          projectDir: b.project,
          ledger: proposalLedger(db2, b.project),
          now: Date.now(),
          select: {},
          commit: false,
        });
        expect(adopted.id).toBe(id);
      } finally {
        db2.close();
      }
      outcomes.push(`${step}:published`);
    }

    // And the next night runs as usual, with no warning about the killed one.
    expect(await run(b)).toEqual([]);
    expect(rows(b).nights.map((n) => n.status)).toEqual(['interrupted', 'completed']);
  }
  // Steps: proposed file, diff, reports, manifest, published; the kill at step 5 is after the rename.
  expect(completedAt).toBe(6);
  expect(outcomes).toEqual(['1:none', '2:none', '3:none', '4:none', '5:published']);
});
