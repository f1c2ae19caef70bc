/**
 * Which transcript times to believe. A timestamp is whatever the file says, and a broken or hostile file
 * can say `1e300` or year 9999: such a time would become a task's "last seen" and make it new every
 * night forever. One rule for every source: a time is a finite epoch from 2000 on, and no record can be
 * later than the file that holds it was last written (its mtime), give or take clock skew between machines.
 */
import type { HarvestedSession } from '../../src/core/session.js';

/** Nothing these agents wrote predates 2000; earlier values are zero, garbage or a unit mix-up. */
export const EARLIEST_TRANSCRIPT_MS = Date.UTC(2000, 0, 1);
/** The largest time a JavaScript Date can hold. */
const LATEST_DATE_MS = 8.64e15;
/**
 * A record may be stamped up to this long after its file's mtime (a transcript synced from a machine
 * whose clock runs ahead) and is then set to the mtime; later than that it is refused as no time at all.
 */
export const FILE_TIME_SLACK_MS = 24 * 60 * 60 * 1000;

/** `ms` rounded when it is a plausible transcript time (finite, from 2000 on), else null. */
export function plausibleMs(ms: number): number | null {
  return Number.isFinite(ms) && ms >= EARLIEST_TRANSCRIPT_MS && ms <= LATEST_DATE_MS ? Math.round(ms) : null;
}

/**
 * A record's time, bounded by its file's mtime: at most the mtime (a little later is clock skew, set to
 * the mtime), null when implausible or more than `FILE_TIME_SLACK_MS` after it.
 */
export function boundToFileTime(ts: number | null, fileMtimeMs: number): number | null {
  if (ts == null) return null;
  const ms = plausibleMs(ts);
  if (ms == null || !Number.isFinite(fileMtimeMs)) return ms;
  const mtime = Math.trunc(fileMtimeMs);
  if (ms <= mtime) return ms;
  return ms - mtime <= FILE_TIME_SLACK_MS ? mtime : null;
}

/** A session's bounds never pass the file's mtime: a session cannot end after its file was last written. */
function boundRangeEnd(ts: number | null, fileMtimeMs: number): number | null {
  if (ts == null) return null;
  const ms = plausibleMs(ts);
  if (ms == null || !Number.isFinite(fileMtimeMs)) return ms;
  return Math.min(ms, Math.trunc(fileMtimeMs));
}

/**
 * Every time of a parsed session checked against its file's mtime (applied by the core to every source,
 * which passes the earlier of the mtime and now: an mtime can be set to the future too).
 */
export function boundSessionTimes(session: HarvestedSession, fileMtimeMs: number): HarvestedSession {
  const turns = session.turns.map((t) => {
    const ts = boundToFileTime(t.ts, fileMtimeMs);
    return ts === t.ts ? t : { ...t, ts };
  });
  const startedAt = boundRangeEnd(session.startedAt, fileMtimeMs);
  const endedAt = boundRangeEnd(session.endedAt, fileMtimeMs);
  return { ...session, turns, startedAt, endedAt };
}
