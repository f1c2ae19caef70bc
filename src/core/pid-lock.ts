/**
 * The one pid-lock of the tool (project nights, the daemon, crontab edits, proposal adoptions).
 *
 * A lock file is created whole: its record (pid, process start time, a random token) is written to a
 * private temp file first, then `link`ed to the lock's name, which fails with EEXIST while it is held.
 * So a lock file always names its holder; nothing ever sees it empty.
 *
 * A stale lock (its process is gone, checked by pid and start time) is removed only under a second,
 * short-lived guard file (`<lock>.break`), after re-reading it proves it is the same stale file: two
 * processes that both saw it stale cannot remove a lock the other took in between.
 */
import { randomUUID } from 'node:crypto';
import { linkSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { ownIdentity, processAlive } from './process-identity.js';
import { errnoCode } from './errors.js';

export interface LockRecord {
  pid: number;
  /** The holder's process start time ('' when the OS does not say, or a lock from before it was kept). */
  start: string;
  token: string;
  /** Whatever else the lock's owner recorded (project, started_at, …). */
  extra: Record<string, unknown>;
}

export type LockAttempt =
  { held: true; record: LockRecord; release: () => void } | { held: false; holder: LockRecord | null };

/** An unreadable lock (only an older version writing its pid in a second step makes one) this old is stale. */
const UNREADABLE_STALE_MS = 10_000;
const ATTEMPTS = 8;

interface Snapshot {
  text: string;
  ino: number;
  mtimeMs: number;
}

function snapshot(file: string): Snapshot | null {
  try {
    const st = statSync(file);
    return { text: readFileSync(file, 'utf8'), ino: st.ino, mtimeMs: st.mtimeMs };
  } catch {
    return null;
  }
}

const sameFile = (a: Snapshot | null, b: Snapshot): boolean =>
  a !== null && a.ino === b.ino && a.text === b.text;

export function parseLockRecord(text: string): LockRecord | null {
  try {
    const data = JSON.parse(text) as Record<string, unknown>;
    const pid = data.pid;
    if (typeof pid !== 'number' || !Number.isSafeInteger(pid) || pid <= 0) return null;
    const { start, token, ...extra } = data;
    delete extra.pid;
    return {
      pid,
      start: typeof start === 'string' ? start : '',
      token: typeof token === 'string' ? token : '',
      extra,
    };
  } catch {
    return null;
  }
}

/** The lock's record, or null when there is no lock or it cannot be read. */
export function readLockRecord(file: string): LockRecord | null {
  const seen = snapshot(file);
  return seen ? parseLockRecord(seen.text) : null;
}

/** The lock's holder when it is a live process, else null. */
export function liveHolder(file: string): LockRecord | null {
  const record = readLockRecord(file);
  return record && processAlive(record) ? record : null;
}

function isStale(seen: Snapshot, now: number): boolean {
  const record = parseLockRecord(seen.text);
  if (record) return !processAlive(record);
  return now - seen.mtimeMs > UNREADABLE_STALE_MS;
}

/** Link a new file holding `record` to `file`; false when `file` exists. */
function linkNew(file: string, text: string): boolean {
  const tmp = `${file}.${process.pid}.${randomUUID().slice(0, 8)}.tmp`;
  writeFileSync(tmp, text, { mode: 0o600, flag: 'wx' });
  try {
    linkSync(tmp, file);
    return true;
  } catch (err) {
    if (errnoCode(err) === 'EEXIST') return false;
    throw err;
  } finally {
    unlinkSync(tmp);
  }
}

function removeIfSame(file: string, text: string): void {
  const now = snapshot(file);
  if (now?.text !== text) return;
  try {
    unlinkSync(file);
  } catch {
    // Already gone.
  }
}

/**
 * The guard's own staleness (its holder was killed in the microseconds it holds it): moved aside, and
 * put back when what was moved turns out not to be the stale guard that was read.
 */
function clearStaleGuard(guard: string, seen: Snapshot): void {
  const aside = `${guard}.${process.pid}.${randomUUID().slice(0, 8)}.stale`;
  try {
    renameSync(guard, aside);
  } catch {
    return; // someone else cleared it
  }
  const moved = snapshot(aside);
  if (moved && !sameFile(moved, seen)) {
    try {
      linkSync(aside, guard);
    } catch {
      // A newer guard is in place; ours was theirs to finish.
    }
  }
  try {
    unlinkSync(aside);
  } catch {
    // Already gone.
  }
}

/**
 * Remove `file` when it is still the stale lock `seen`. True when the caller may try to take the lock
 * again (it was removed, or had changed); false when another process is removing it right now.
 */
function breakStale(file: string, seen: Snapshot, now: number): boolean {
  const guard = `${file}.break`;
  const me = ownIdentity();
  const guardText = JSON.stringify({ pid: me.pid, start: me.start, token: randomUUID() });
  if (!linkNew(guard, guardText)) {
    const other = snapshot(guard);
    if (other && !isStale(other, now)) return false;
    if (other) clearStaleGuard(guard, other);
    if (!linkNew(guard, guardText)) return false;
  }
  try {
    const again = snapshot(file);
    if (sameFile(again, seen)) unlinkSync(file);
    return true;
  } finally {
    removeIfSame(guard, guardText);
  }
}

/**
 * Take the lock `file` or report its holder. A stale lock is taken over unless `takeOverStale` is
 * false (a proposal's lock: its interrupted transaction is recovered first, then the lock removed with
 * `removeStaleLock`). `release` removes the lock only while it is still this one.
 */
export function tryPidLock(
  file: string,
  extra: Record<string, unknown> = {},
  options: { takeOverStale?: boolean } = {},
): LockAttempt {
  const me = ownIdentity();
  const record: LockRecord = { pid: me.pid, start: me.start, token: randomUUID(), extra };
  const text = JSON.stringify({ ...extra, pid: record.pid, start: record.start, token: record.token });
  // File times are the system's, so staleness by age is too (not the injected clock's).
  const now = Date.now();
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    if (linkNew(file, text)) return { held: true, record, release: () => removeIfSame(file, text) };
    const seen = snapshot(file);
    if (seen === null) continue; // released in between: try again
    const holder = parseLockRecord(seen.text);
    if (!isStale(seen, now) || options.takeOverStale === false) return { held: false, holder };
    if (!breakStale(file, seen, now)) return { held: false, holder };
  }
  return { held: false, holder: readLockRecord(file) };
}

/** Remove `file` if it is a stale lock (proved by its pid and start time); true when none is left. */
export function removeStaleLock(file: string): boolean {
  const now = Date.now();
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const seen = snapshot(file);
    if (seen === null) return true;
    if (!isStale(seen, now)) return false;
    if (!breakStale(file, seen, now)) return false;
  }
  return snapshot(file) === null;
}
