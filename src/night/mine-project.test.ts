import { describe, expect, it } from 'vitest';
import type { HarvestedSession, SourceId } from '../core/session.js';
import { fixedClock } from '../core/clock.js';
import { defaultConfig, type Config } from '../config/schema.js';
import { read, run, session } from '../miner/test-helpers.js';
import { openStore, type Db } from '../store/db.js';
import { finishNight, markInterruptedNights, setNightProposal, startNight } from '../store/nights-repo.js';
import { markProposal, recordProposal } from '../store/proposals-repo.js';
import { sessionWriter } from '../store/session-writer.js';
import { emptyNightNote, mineProjectClusters, mineProjectTasks } from './mine-project.js';

const PROJECT = '/work/app';
const DAY = 86_400_000;
const NOW = Date.UTC(2026, 5, 1);

function store(): Db {
  return openStore(':memory:');
}

/** Stores a dependency session of `source` that ended `daysAgo` days before NOW. */
function put(db: Db, id: string, daysAgo: number, source: SourceId = 'claude', pkg = id): void {
  const s = session(
    [
      {
        prompt: `add ${pkg} as a dependency`,
        actions: [read(`${PROJECT}/package.json`), run(`npm install ${pkg}`)],
      },
      { prompt: 'use pnpm, not npm', actions: [run(`pnpm add ${pkg}`)] },
    ],
    { key: `${source}:${id}` },
  );
  const when = NOW - daysAgo * DAY;
  const harvested: HarvestedSession = {
    ...s,
    source,
    sessionId: id,
    startedAt: when - 60_000,
    endedAt: when,
  };
  sessionWriter(db).write(harvested, PROJECT, null, NOW);
}

const config = (overrides: Partial<Config> = {}): Config => ({ ...defaultConfig(), ...overrides });

/** A completed night that started `daysAgo` days before NOW, with a proposal in `status` (or none). */
function night(db: Db, daysAgo: number, status: 'staged' | 'adopted' | 'rejected' | 'reverted' | null): void {
  const started = NOW - daysAgo * DAY;
  const id = startNight(db, PROJECT, 'mock', started);
  finishNight(
    db,
    id,
    {
      nSessions: 0,
      nTasks: 0,
      baseline: null,
      candidate: null,
      accepted: status !== null,
      gateAction: '',
      stopped: '',
      calls: 0,
      tokens: 0,
      inputTokens: 0,
      outputTokens: 0,
      costUsd: 0,
      cacheHits: 0,
    },
    started + 1000,
  );
  if (status === null) return;
  const proposal = `p${id}`;
  recordProposal(db, {
    id: proposal,
    project: PROJECT,
    nightId: id,
    dir: '/tmp/x',
    createdAt: started,
    targets: [],
  });
  setNightProposal(db, id, proposal);
  if (status !== 'staged') markProposal(db, PROJECT, proposal, status, started + 2000);
}

describe('which history a night mines', () => {
  it('lookback_hours 0 means all history, on every night, even after nights ran', () => {
    const db = store();
    for (let i = 0; i < 4; i++) put(db, `s${i}`, 30 + i);
    night(db, 10, 'adopted');
    night(db, 1, null);
    const mined = mineProjectClusters(db, PROJECT, config({ lookback_hours: 0 }), fixedClock(NOW));
    expect(mined.activeSince).toBeNull();
    expect(mined.clusters.map((c) => c.occurrences)).toEqual([4]);
  });

  it('after a revert (or a rejection, or a proposal still waiting) the same sessions are mined again', () => {
    const db = store();
    for (let i = 0; i < 4; i++) put(db, `s${i}`, 2 + i);
    const cfg = config({ lookback_hours: 24 * 30 });
    night(db, 1, 'reverted');
    expect(mineProjectClusters(db, PROJECT, cfg, fixedClock(NOW)).clusters).toHaveLength(1);
    night(db, 1, 'rejected');
    night(db, 1, 'staged');
    expect(mineProjectClusters(db, PROJECT, cfg, fixedClock(NOW)).clusters).toHaveLength(1);
    // Once a night's proposal is adopted, its sessions are learned from: nothing new since.
    night(db, 1, 'adopted');
    const after = mineProjectClusters(db, PROJECT, cfg, fixedClock(NOW));
    expect(after.clusters).toHaveLength(0);
    expect(after.activeSince).toBe(NOW - DAY);
    put(db, 'fresh', 0);
    expect(mineProjectClusters(db, PROJECT, cfg, fixedClock(NOW)).clusters.map((c) => c.occurrences)).toEqual(
      [5],
    );
  });

  it('killed nights (running, then interrupted) after an adopted one, however many, do not move the window', () => {
    const db = store();
    for (let i = 0; i < 4; i++) put(db, `s${i}`, 40 + i);
    const cfg = config({ lookback_hours: 24 });
    night(db, 30, 'adopted');
    for (let i = 0; i < 25; i++) startNight(db, PROJECT, 'mock', NOW - (20 - i / 2) * DAY);
    markInterruptedNights(db, NOW, () => false);
    const mined = mineProjectClusters(db, PROJECT, cfg, fixedClock(NOW));
    expect(mined.activeSince).toBe(NOW - 30 * DAY);
    expect(mined.funnel.window).toBe('adopted_night');
    expect(mined.clusters).toHaveLength(0);
  });

  it('on a first night uses every session within the lookback and says how many the cap left out', () => {
    const db = store();
    for (let i = 0; i < 6; i++) put(db, `s${i}`, i);
    const capped = mineProjectTasks(
      db,
      PROJECT,
      config({ lookback_hours: 0, max_sessions_per_night: 4 }),
      fixedClock(NOW),
    );
    expect(capped.nSessions).toBe(4);
    expect(capped.sessionsLeftOut).toBe(2);
    const all = mineProjectTasks(db, PROJECT, config({ lookback_hours: 0 }), fixedClock(NOW));
    expect(all.nSessions).toBe(6);
    expect(all.sessionsLeftOut).toBe(0);
  });

  it('--source filters the sessions mined', () => {
    const db = store();
    put(db, 'c1', 1, 'claude');
    put(db, 'c2', 2, 'claude');
    put(db, 'x1', 1, 'codex');
    put(db, 'x2', 2, 'codex');
    put(db, 'x3', 3, 'codex');
    const codex = mineProjectTasks(
      db,
      PROJECT,
      config({ lookback_hours: 0, transcript_source: 'codex' }),
      fixedClock(NOW),
    );
    expect(codex.nSessions).toBe(3);
    expect(codex.tasks.every((t) => t.source_sessions.every((s) => s.startsWith('codex:')))).toBe(true);
    const all = mineProjectTasks(db, PROJECT, config({ lookback_hours: 0 }), fixedClock(NOW));
    expect(all.nSessions).toBe(5);
  });
});

describe('why a night found no task', () => {
  const note = (db: Db, cfg: Config): string | null =>
    emptyNightNote(mineProjectTasks(db, PROJECT, cfg, fixedClock(NOW)), PROJECT, cfg);

  it('names the lookback window and the flag that widens it', () => {
    const db = store();
    for (let i = 0; i < 3; i++) put(db, `s${i}`, 10 + i);
    expect(note(db, config({ lookback_hours: 72 }))).toBe(
      `no task had a session in the last 72 hours (lookback_hours, since ${new Date(NOW - 3 * DAY).toISOString()}), so 1 task was left out: --lookback-hours 0 replays all history, or give a larger --lookback-hours`,
    );
    expect(note(db, config({ lookback_hours: 0 }))).toBeNull();
  });

  it('says nothing is new since the last adopted night', () => {
    const db = store();
    for (let i = 0; i < 3; i++) put(db, `s${i}`, 2 + i);
    night(db, 1, 'adopted');
    expect(note(db, config({ lookback_hours: 24 * 30 }))).toMatch(
      /^nothing new since the last adopted night \(.+\): no session of its 1 task came after it; --lookback-hours 0 replays/,
    );
  });

  it('names the task cap, and the sessions and sources when there are none', () => {
    const db = store();
    put(db, 's0', 0);
    put(db, 's1', 0);
    expect(note(db, config({ max_tasks_per_night: 0 }))).toBe(
      'max_tasks_per_night is 0, so 1 task was left out: raise it with --max-tasks',
    );
    expect(note(db, config({ transcript_source: 'codex' }))).toBe(
      `no sessions of codex found for ${PROJECT} (sessions started in it or below count): --scope all mines every folder, --source all every agent`,
    );
  });
});
