/**
 * What the user's exclusions and a repository's `.skillopt-sleep-ignore` keep out never reaches the
 * store: the database file and its WAL hold no byte of it (its text, its folder, its transcript's path).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixedClock } from '../src/core/clock.js';
import { memoryLogger } from '../src/core/logger.js';
import { harvest } from '../src/harvest/harvest.js';
import { harvestRules, IGNORE_FILE } from '../src/harvest/harvest-rules.js';
import { excludedSessionKeys } from '../src/harvest/kept-out.js';
import { REPLAY_MARKER } from '../src/core/machine-sessions.js';
import { openStore } from '../src/store/db.js';
import { querySessions } from '../src/store/sessions-repo.js';
import { claudeProjectDir, claudeSessionLines } from './e2e/claude-transcript.js';

function setup() {
  const home = mkdtempSync(path.join(os.tmpdir(), 'sos-privacy-'));
  const work = path.join(home, 'work');
  const dbFile = path.join(home, 'state', 'store.sqlite');
  mkdirSync(path.dirname(dbFile), { recursive: true });
  const db = openStore(dbFile);
  let t = Date.now() + 120_000; // every file quiet
  const session = (folder: string, id: string, marker: string): string => {
    const cwd = path.join(work, folder);
    mkdirSync(cwd, { recursive: true });
    const dir = claudeProjectDir(home, cwd);
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `${id}.jsonl`);
    const lines = claudeSessionLines(cwd, id, `please fix the build ${marker}`, `done ${marker}`);
    writeFileSync(file, `${lines.join('\n')}\n`);
    return cwd;
  };
  const run = (config: { exclude_paths?: string[]; include_paths?: string[] } = {}) =>
    harvest({
      db,
      ctx: { home, env: {} },
      clock: fixedClock((t += 1000)),
      logger: memoryLogger(),
      sources: ['claude'],
      rules: harvestRules(
        { exclude_paths: config.exclude_paths ?? [], include_paths: config.include_paths ?? [] },
        { userHome: home, platform: process.platform },
      ),
    });
  const stored = () =>
    querySessions(db, { project: '/', scope: 'all', sinceMs: null, limit: 100 }).map((s) => s.sessionId);
  /** The store's bytes as they are on disk, WAL and shared memory included. */
  const bytes = (): string =>
    ['', '-wal', '-shm']
      .map((suffix) => dbFile + suffix)
      .filter((f) => existsSync(f))
      .map((f) => readFileSync(f).toString('latin1'))
      .join('\n');
  /** A tombstone, as `forget` writes it from another process. */
  const forgetKey = (key: string): void =>
    void db
      .prepare("INSERT OR IGNORE INTO forgotten_sessions (key, forgotten_at, source_path) VALUES (?, 0, '')")
      .run(key);
  /** A harvest of every quiet file that runs `onFile` between reading a file and storing it. */
  const runReading = (onFile: () => void) =>
    harvest({
      db,
      ctx: { home, env: {} },
      clock: fixedClock(Date.now() + 120_000),
      logger: memoryLogger(),
      sources: ['claude'],
      onFile,
    });
  return { home, work, db, run, stored, bytes, session, forgetKey, runReading };
}

describe('harvest privacy rules', () => {
  it('an excluded folder leaves no row and no byte in the store, WAL included', async () => {
    const h = setup();
    h.session('client-zeta/api', 'sess-excluded', 'MARKER-EXCL-7Q2');
    h.session('internal', 'sess-kept', 'MARKER-KEPT-5R1');
    const summary = await h.run({ exclude_paths: ['~/work/client-*'] });
    expect(h.stored()).toEqual(['sess-kept']);
    expect(summary.bySource.claude?.excluded).toBe(1);
    const raw = h.bytes();
    expect(raw).toContain('MARKER-KEPT-5R1');
    expect(raw).not.toContain('MARKER-EXCL-7Q2');
    expect(raw).not.toContain('client-zeta');
    expect(raw).not.toContain('sess-excluded');
  });

  it('a repository opted out with an ignore file leaves no byte either', async () => {
    const h = setup();
    const repo = h.session('opted-out', 'sess-opt', 'MARKER-OPT-9K3');
    h.session('other', 'sess-other', 'MARKER-OTHER-2B8');
    writeFileSync(path.join(repo, IGNORE_FILE), '');
    await h.run();
    expect(h.stored()).toEqual(['sess-other']);
    const raw = h.bytes();
    expect(raw).not.toContain('MARKER-OPT-9K3');
    expect(raw).not.toContain('opted-out');
  });

  it('include_paths reads only those folders', async () => {
    const h = setup();
    h.session('acme/web', 'sess-acme', 'MARKER-A');
    h.session('elsewhere', 'sess-else', 'MARKER-B');
    await h.run({ include_paths: ['~/work/acme'] });
    expect(h.stored()).toEqual(['sess-acme']);
    expect(h.bytes()).not.toContain('MARKER-B');
  });

  it('a skipped transcript is not parsed again until it or the rules change; included ones are not re-read', async () => {
    const h = setup();
    h.session('client-a', 'sess-a', 'MARKER-A');
    h.session('internal', 'sess-i', 'MARKER-I');
    const rules = { exclude_paths: ['~/work/client-*'] };
    expect((await h.run(rules)).filesParsed).toBe(2);
    expect((await h.run(rules)).filesParsed).toBe(0);
    // The exclusion is lifted: only the skipped transcript is read, and its session is stored.
    const lifted = await h.run();
    expect(lifted.filesParsed).toBe(1);
    expect(h.stored().sort()).toEqual(['sess-a', 'sess-i']);
    expect((await h.run()).filesParsed).toBe(0);
  });

  it('counts sessions stored before a folder was excluded, for `forget --excluded`', async () => {
    const h = setup();
    h.session('client-a', 'sess-a', 'MARKER-A');
    h.session('internal', 'sess-i', 'MARKER-I');
    expect((await h.run()).excludedStored).toBe(0);
    const after = await h.run({ exclude_paths: ['~/work/client-a'] });
    expect(after.excludedStored).toBe(1);
    // Excluding does not delete by itself: that is for the user to decide.
    expect(h.stored().sort()).toEqual(['sess-a', 'sess-i']);
    const rules = harvestRules(
      { exclude_paths: ['~/work/client-a'], include_paths: [] },
      { userHome: h.home, platform: process.platform },
    );
    expect(excludedSessionKeys(h.db, rules, [])).toEqual(['claude:sess-a']);
    expect(
      excludedSessionKeys(
        h.db,
        harvestRules(
          { exclude_paths: [], include_paths: [] },
          { userHome: h.home, platform: process.platform },
        ),
        ['claude'],
      ).sort(),
    ).toEqual(['claude:sess-a', 'claude:sess-i']);
  });

  it('a forget that commits while the harvest reads is seen before anything is written', async () => {
    const h = setup();
    h.session('internal', 'sess-race', 'MARKER-RACE');
    // Between reading the file and storing it, another process forgets the session.
    const summary = await h.runReading(() => h.forgetKey('claude:sess-race'));
    expect(summary.bySource.claude?.forgotten).toBe(1);
    expect(h.stored()).toEqual([]);
  });

  it('a tombstone lifted while the harvest reads lets its session in, redacted, and still no machine session', async () => {
    // Sessions are redacted when read, outside the write transaction; one kept out then is redacted when stored.
    const h = setup();
    const token = `ghp_${'a1B2c3D4e5F6'.repeat(3)}`;
    h.session('internal', 'sess-back', token);
    h.session('internal', 'sess-replay', REPLAY_MARKER);
    h.forgetKey('claude:sess-back');
    h.forgetKey('claude:sess-replay');
    // Between reading the files and storing them, another process runs `forget --reharvest`.
    const summary = await h.runReading(() => void h.db.prepare('DELETE FROM forgotten_sessions').run());
    expect(h.stored()).toEqual(['sess-back']);
    expect(summary.bySource.claude?.machine_sessions).toBe(1);
    expect(summary.bySource.claude?.forgotten).toBe(0);
    expect(h.bytes()).not.toContain(token);
    const texts = h.db.prepare('SELECT text FROM turns').all() as Array<{ text: string }>;
    expect(texts.map((t) => t.text).join('\n')).toMatch(/please fix the build \S*REDACTED/);
  });
});
