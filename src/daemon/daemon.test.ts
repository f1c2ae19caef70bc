import { EventEmitter } from 'node:events';
import { mkdirSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../core/clock.js';
import { memoryLogger } from '../core/logger.js';
import { writeRegistry, type ScheduleEntry } from '../scheduler/registry.js';
import { openStore, type Db } from '../store/db.js';
import { startDaemon, type DaemonHandle } from './daemon.js';
import type { NightChild } from './night-runner.js';

/** A night that ends when the test says so. */
function controllableNight(): NightChild & { finish(code: number): void } {
  let finish: (code: number) => void = () => {};
  const exited = new Promise<number>((resolve) => (finish = resolve));
  const child = Object.assign(new EventEmitter(), { exitCode: null, kill: () => true });
  return { child: child as unknown as NightChild['child'], exited, finish: (c) => finish(c) };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let handle: DaemonHandle | null = null;
let db: Db | null = null;
afterEach(async () => {
  await handle?.stop();
  db?.close();
  handle = null;
  db = null;
});

function setup(entries: Array<Partial<ScheduleEntry>>) {
  const root = mkdtempSync(path.join(os.tmpdir(), 'sos-daemon-'));
  const home = path.join(root, 'state');
  const userHome = path.join(root, 'home');
  mkdirSync(path.join(userHome, '.claude', 'projects'), { recursive: true });
  writeRegistry(
    home,
    entries.map((e, i) => ({
      project: `/p/${i}`,
      digest: String(i).repeat(64).slice(0, 64),
      cron: '0 3 * * *',
      via: 'daemon',
      args: [],
      env: {},
      scheduled_at: 0,
      ...e,
    })),
  );
  db = openStore(path.join(home, 'store.sqlite'));
  return { home, userHome, logger: memoryLogger() };
}

describe('daemon scheduling', () => {
  it('never overlaps two nights of one project: ticks while it runs are skipped', async () => {
    const { home, userHome, logger } = setup([{}]);
    const started: Array<ReturnType<typeof controllableNight>> = [];
    handle = startDaemon({
      home,
      userHome,
      env: {},
      clock: systemClock,
      logger,
      db: db as Db,
      startNight: () => {
        const n = controllableNight();
        started.push(n);
        return n;
      },
      debounceMs: 50,
      pollMs: 10_000,
      nightGraceMs: 100,
      cronOverride: '* * * * * *', // every second
    });
    await sleep(3300);
    expect(started).toHaveLength(1);
    expect(handle.status().last_night).toMatchObject({ project: '/p/0', exit_code: null });
    started[0]?.finish(0);
    await sleep(1500);
    expect(started.length).toBeGreaterThanOrEqual(2);
    expect(handle.status().nights).toBeGreaterThanOrEqual(1);
    for (const n of started) n.finish(0);
  }, 15_000);

  it('only runs entries scheduled for the daemon, and lists their next run', async () => {
    const { home, userHome, logger } = setup([{ via: 'cron' }, { cron: '30 2 * * *' }]);
    let count = 0;
    handle = startDaemon({
      home,
      userHome,
      env: {},
      clock: { now: () => Date.parse('2026-11-29T10:00:00Z') },
      logger,
      db: db as Db,
      startNight: () => {
        count++;
        return controllableNight();
      },
      debounceMs: 50,
      pollMs: 10_000,
      nightGraceMs: 100,
    });
    expect(handle.status().schedules).toEqual([
      { project: '/p/1', cron: '30 2 * * *', next_run: Date.parse('2026-11-30T02:30:00Z') },
    ]);
    expect(handle.status().watching).toEqual([path.join(userHome, '.claude', 'projects')]);
    await sleep(200);
    expect(count).toBe(0);
  });

  it('stop() waits for the harvest, then SIGTERMs a night that outlives the grace period', async () => {
    const { home, userHome, logger } = setup([{}]);
    const night = controllableNight();
    let killed = false;
    (night.child as unknown as { kill: () => boolean }).kill = () => {
      killed = true;
      night.finish(143);
      return true;
    };
    handle = startDaemon({
      home,
      userHome,
      env: {},
      clock: systemClock,
      logger,
      db: db as Db,
      startNight: () => night,
      debounceMs: 50,
      pollMs: 10_000,
      nightGraceMs: 200,
      cronOverride: '* * * * * *',
    });
    await sleep(1500);
    expect(handle.status().last_night?.exit_code).toBeNull();
    await handle.stop();
    expect(killed).toBe(true);
    expect(handle.status().state).toBe('stopped');
    expect(handle.status().harvests).toBeGreaterThanOrEqual(1);
  });
});
