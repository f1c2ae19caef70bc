import { EventEmitter } from 'node:events';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { batchNightDir } from '../config/paths.js';
import { systemClock } from '../core/clock.js';
import { memoryLogger } from '../core/logger.js';
import { writeRegistry, type ScheduleEntry } from '../scheduler/registry.js';
import { openStore, type Db } from '../store/db.js';
import { startDaemon, type DaemonHandle, type Scheduler } from './daemon.js';
import type { NightChild } from './night-runner.js';

/** A night that ends when the test says so. */
function controllableNight(): NightChild & { finish(code: number): void } {
  let finish: (code: number) => void = () => {};
  const exited = new Promise<number>((resolve) => (finish = resolve));
  const child = Object.assign(new EventEmitter(), { exitCode: null, kill: () => true });
  return { child: child as unknown as NightChild['child'], exited, finish: (c) => finish(c) };
}

/** A scheduler the test ticks by hand: no real cron, no waiting for a second to pass. */
function manualScheduler(): Scheduler & { tick(): Array<Promise<void>>; exprs: string[] } {
  const live = new Set<{ expr: string; fn: () => Promise<void> }>();
  return {
    exprs: [],
    schedule(expr, _name, fn) {
      const task = { expr, fn };
      live.add(task);
      this.exprs.push(expr);
      return { stop: () => Promise.resolve(void live.delete(task)) };
    },
    tick: () => [...live].map((t) => t.fn()),
  };
}

/** Let pending I/O and promises run until `done()` (the initial harvest touches the disk). */
/** Waits (up to 5 s) for `done`: a tick may read files or load a module first, which takes real time under load. */
async function settle(done: () => boolean): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!done() && Date.now() < deadline) await new Promise((r) => setImmediate(r));
  expect(done()).toBe(true);
}

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
    const scheduler = manualScheduler();
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
      scheduler,
    });
    const h = handle;
    expect(scheduler.exprs).toEqual(['0 3 * * *']);
    void scheduler.tick();
    await settle(() => started.length === 1);
    await Promise.all([...scheduler.tick(), ...scheduler.tick()]); // skipped: the night still runs
    expect(started).toHaveLength(1);
    expect(logger.lines.filter((l) => l.includes('skipped: the previous one is still running'))).toHaveLength(
      2,
    );
    expect(h.status().last_night).toMatchObject({ project: '/p/0', exit_code: null });
    started[0]?.finish(0);
    await settle(() => h.status().nights === 1);
    expect(h.status().last_night).toMatchObject({ project: '/p/0', exit_code: 0 });
    void scheduler.tick();
    await settle(() => started.length === 2);
    for (const n of started) n.finish(0);
  });

  it("runs a scheduled project's waiting batch night between its schedules, not others", async () => {
    const { home, userHome, logger } = setup([{}, {}]);
    mkdirSync(batchNightDir(home, '/p/1'), { recursive: true });
    const started: string[] = [];
    handle = startDaemon({
      home,
      userHome,
      env: {},
      clock: systemClock,
      logger,
      db: db as Db,
      startNight: (entry) => {
        started.push(entry.project);
        const n = controllableNight();
        n.finish(0);
        return n;
      },
      debounceMs: 50,
      pollMs: 20,
      batchPollMs: 60_000,
      nightGraceMs: 100,
      scheduler: manualScheduler(),
    });
    await settle(() => started.length === 1);
    expect(started).toEqual(['/p/1']);
    // Polled again only after batchPollMs: a few more poll intervals start nothing.
    await new Promise((r) => setTimeout(r, 100));
    expect(started).toEqual(['/p/1']);
  });

  it('only runs entries scheduled for the daemon, and lists their next run', () => {
    const { home, userHome, logger } = setup([{ via: 'cron' }, { cron: '30 2 * * *' }]);
    let count = 0;
    const scheduler = manualScheduler();
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
      scheduler,
    });
    expect(scheduler.exprs).toEqual(['30 2 * * *']);
    expect(handle.status().schedules).toEqual([
      { project: '/p/1', cron: '30 2 * * *', next_run: Date.parse('2026-11-30T02:30:00Z') },
    ]);
    expect(handle.status().watching).toEqual([path.join(userHome, '.claude', 'projects')]);
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
    const scheduler = manualScheduler();
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
      scheduler,
    });
    const h = handle;
    void scheduler.tick();
    await settle(() => h.status().last_night !== null);
    expect(h.status().last_night?.exit_code).toBeNull();
    await handle.stop();
    expect(killed).toBe(true);
    expect(handle.status().state).toBe('stopped');
    expect(handle.status().harvests).toBeGreaterThanOrEqual(1);
  });
});

describe('daemon harvests', () => {
  const id = 'ACME-' + '424242';
  function withTranscript() {
    const s = setup([]);
    const cwd = '/work/acme';
    const dir = path.join(s.userHome, '.claude', 'projects', '-work-acme');
    mkdirSync(dir, { recursive: true });
    const base = { sessionId: 's1', cwd, gitBranch: 'main', version: '2.1.0', userType: 'external' };
    const at = new Date(Date.now() - 120_000).toISOString();
    writeFileSync(
      path.join(dir, 's1.jsonl'),
      JSON.stringify({
        ...base,
        type: 'user',
        uuid: 'u1',
        timestamp: at,
        message: { role: 'user', content: `fix ticket ${id} please` },
      }) + '\n',
    );
    return s;
  }
  /** The user's config in the state home, which the daemon reads before each harvest. */
  const userConfig = (s: ReturnType<typeof setup>, text: string) =>
    writeFileSync(path.join(s.home, 'config.json'), text);
  const start = (s: ReturnType<typeof setup>) =>
    startDaemon({
      home: s.home,
      userHome: s.userHome,
      env: {},
      clock: systemClock,
      logger: s.logger,
      db: db as Db,
      startNight: () => controllableNight(),
      debounceMs: 50,
      pollMs: 10_000,
      nightGraceMs: 100,
      scheduler: manualScheduler(),
    });
  const storedTexts = (): string[] =>
    (db as Db)
      .prepare('SELECT text FROM turns')
      .all()
      .map((r) => (r as { text: string }).text);

  it("stores what it harvests with the user's redact_patterns", async () => {
    const s = withTranscript();
    userConfig(s, JSON.stringify({ redact_patterns: ['ACME-[0-9]{6}'] }));
    handle = start(s);
    const h = handle;
    await settle(() => h.status().harvests === 1);
    expect(storedTexts()).toEqual(['fix ticket [REDACTED:custom] please']);
  });

  it('fails the harvest rather than store without the patterns when the config became invalid', async () => {
    const s = withTranscript();
    userConfig(s, JSON.stringify({ redact_patterns: ['(unclosed'] }));
    handle = start(s);
    const h = handle;
    await settle(() => h.status().last_harvest !== null);
    expect(h.status().last_harvest?.error).toContain('redact_patterns');
    expect(storedTexts()).toEqual([]);
  });
});
