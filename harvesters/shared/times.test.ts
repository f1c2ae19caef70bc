import { describe, expect, it } from 'vitest';
import { epochMs } from '../copilot-vscode/util.js';
import { parseUtcMs } from './values.js';
import { boundSessionTimes, boundToFileTime, FILE_TIME_SLACK_MS, plausibleMs } from './times.js';
import type { HarvestedSession } from '../../src/core/session.js';

const MTIME = Date.UTC(2026, 0, 1);

describe('plausibleMs and the timestamp parsers', () => {
  it('refuses non-finite, pre-2000 and beyond-Date times', () => {
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, 1e300, 8.64e15 + 1, Date.UTC(1999, 11, 31)]) {
      expect(plausibleMs(bad)).toBeNull();
    }
    expect(plausibleMs(MTIME + 0.4)).toBe(MTIME);
  });

  it('every parser refuses 1e300, epoch 0-ish and year-1970 strings', () => {
    for (const parse of [parseUtcMs, epochMs]) {
      expect(parse(1e300)).toBeNull();
      expect(parse(86_400)).toBeNull(); // 1970-01-02 in seconds
      expect(parse('1970-01-02T00:00:00Z')).toBeNull();
      expect(parse('2026-01-01T00:00:00Z')).toBe(MTIME);
      expect(parse(MTIME / 1000)).toBe(MTIME);
    }
  });

  it('reads the toISOString form the same as the general ISO forms, impossible dates included', () => {
    expect(parseUtcMs('2026-01-01T00:00:00.250Z')).toBe(MTIME + 250);
    expect(parseUtcMs('2026-01-01t00:00:00.250z')).toBe(MTIME + 250);
    expect(parseUtcMs('2026-01-01 00:00:00.250')).toBe(MTIME + 250);
    expect(parseUtcMs('2026-13-01T00:00:00.000Z')).toBeNull();
    expect(parseUtcMs('2026-01-01T25:00:00.000Z')).toBeNull();
    expect(parseUtcMs('2026-01-01T00:00:00.000+01:00')).toBe(MTIME - 3_600_000);
  });
});

describe('boundToFileTime', () => {
  it('keeps earlier times, clamps a little later to the mtime, refuses far later', () => {
    expect(boundToFileTime(MTIME - 5, MTIME)).toBe(MTIME - 5);
    expect(boundToFileTime(MTIME + FILE_TIME_SLACK_MS, MTIME)).toBe(MTIME);
    expect(boundToFileTime(MTIME + FILE_TIME_SLACK_MS + 1, MTIME)).toBeNull();
    expect(boundToFileTime(1e300, MTIME)).toBeNull();
    expect(boundToFileTime(null, MTIME)).toBeNull();
  });

  it('bounds a session: turn times as above, start and end never after the mtime', () => {
    const session = {
      startedAt: MTIME - 10,
      endedAt: Date.UTC(2090, 0, 1),
      turns: [{ ts: MTIME - 10 }, { ts: MTIME + 60_000 }, { ts: Date.UTC(2090, 0, 1) }],
    } as unknown as HarvestedSession;
    const bounded = boundSessionTimes(session, MTIME);
    expect(bounded.turns.map((t) => t.ts)).toEqual([MTIME - 10, MTIME, null]);
    expect([bounded.startedAt, bounded.endedAt]).toEqual([MTIME - 10, MTIME]);
  });
});
