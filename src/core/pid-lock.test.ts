import { mkdtempSync, readFileSync, utimesSync, writeFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { liveHolder, removeStaleLock, tryPidLock } from './pid-lock.js';
import { ownIdentity, processAlive, processStartTime } from './process-identity.js';

const DEAD_PID = 2 ** 22 + 7;
const lockFile = (): string => path.join(mkdtempSync(path.join(os.tmpdir(), 'sos-lock-')), 'x.lock');

describe('pid lock', () => {
  it('is created whole with pid, start time and extra fields, and held against a second taker', () => {
    const file = lockFile();
    const first = tryPidLock(file, { project: '/p' });
    expect(first.held).toBe(true);
    const text = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    expect(text).toMatchObject({ pid: process.pid, start: ownIdentity().start, project: '/p' });
    const second = tryPidLock(file);
    expect(second).toMatchObject({ held: false, holder: { pid: process.pid } });
    expect(liveHolder(file)?.extra).toEqual({ project: '/p' });
    if (first.held) first.release();
    expect(existsSync(file)).toBe(false);
  });

  it('takes over a lock whose process is gone, and one whose pid was reused (other start time)', () => {
    const file = lockFile();
    writeFileSync(file, JSON.stringify({ pid: DEAD_PID }));
    expect(tryPidLock(file).held).toBe(true);
    if (process.platform === 'linux') {
      const reused = lockFile();
      writeFileSync(reused, JSON.stringify({ pid: process.pid, start: '1' }));
      expect(tryPidLock(reused).held).toBe(true);
    }
  });

  it('leaves a fresh unreadable lock alone (an older version writing it) but removes an old one', () => {
    const file = lockFile();
    writeFileSync(file, '');
    expect(tryPidLock(file)).toEqual({ held: false, holder: null });
    expect(existsSync(file)).toBe(true);
    const old = (Date.now() - 60_000) / 1000;
    utimesSync(file, old, old);
    expect(tryPidLock(file).held).toBe(true);
  });

  it('never takes over a stale lock when told not to; removeStaleLock removes only a stale one', () => {
    const file = lockFile();
    writeFileSync(file, JSON.stringify({ pid: DEAD_PID }));
    expect(tryPidLock(file, {}, { takeOverStale: false }).held).toBe(false);
    expect(removeStaleLock(file)).toBe(true);
    expect(existsSync(file)).toBe(false);
    const live = tryPidLock(file);
    expect(removeStaleLock(file)).toBe(false);
    expect(existsSync(file)).toBe(true);
    if (live.held) live.release();
  });

  it('release leaves a lock that is no longer this one', () => {
    const file = lockFile();
    const mine = tryPidLock(file);
    writeFileSync(file, JSON.stringify({ pid: process.pid, token: 'someone-else' }));
    if (mine.held) mine.release();
    expect(existsSync(file)).toBe(true);
  });
});

describe('process identity', () => {
  it('knows this process is alive, a dead pid is not, and a different start time is another process', () => {
    expect(processAlive(ownIdentity())).toBe(true);
    expect(processAlive({ pid: DEAD_PID, start: '' })).toBe(false);
    if (process.platform === 'linux') {
      expect(processStartTime(process.pid)).toMatch(/^\d+$/);
      expect(processAlive({ pid: process.pid, start: '1' })).toBe(false);
    }
  });
});
