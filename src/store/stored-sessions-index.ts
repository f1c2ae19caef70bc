/**
 * Which sessions the store holds (keys and the files they came from), read in one query so that a
 * harvest asks nothing per session it has never stored: a cold harvest of 8000 transcripts made three
 * lookups per session that all came back empty. Valid only inside a write transaction that began with
 * `begin()`: no other connection can commit then, and `PRAGMA data_version` tells whether one did
 * since the index was read (this connection's own writes go through `added`/`removed`).
 */
import type { Db } from './db.js';

export interface StoredSessionsIndex {
  /** Called at the start of a write transaction: the index may be used until `end()`. */
  begin(): void;
  /** After COMMIT (`committed`) or ROLLBACK: a rolled-back write leaves the index to be read again. */
  end(committed: boolean): void;
  /** Whether the session is stored; undefined outside begin/end (then the caller asks the store). */
  has(key: string): boolean | undefined;
  /** Whether some stored session came from this file; undefined outside begin/end. */
  hasFile(sourcePath: string): boolean | undefined;
  added(key: string, sourcePath: string): void;
  removed(key: string): void;
}

export function storedSessionsIndex(db: Db): StoredSessionsIndex {
  const dataVersion = db.prepare('PRAGMA data_version').pluck();
  const all = db.prepare('SELECT key, source_path FROM sessions');
  let keys: Set<string> | null = null;
  let files: Set<string> | null = null;
  let version: unknown = null;
  let open = false;
  const load = (): void => {
    keys = new Set();
    files = new Set();
    for (const row of all.iterate() as Iterable<{ key: string; source_path: string }>) {
      keys.add(row.key);
      files.add(row.source_path);
    }
  };
  return {
    begin() {
      const now = dataVersion.get();
      if (now !== version) {
        version = now;
        keys = null; // another connection committed: read again on first use
        files = null;
      }
      open = true;
    },
    end(committed) {
      open = false;
      if (committed) return;
      keys = null;
      files = null;
    },
    has(key) {
      if (!open) return undefined;
      if (keys === null) load();
      return keys?.has(key);
    },
    hasFile(sourcePath) {
      if (!open) return undefined;
      if (files === null) load();
      return files?.has(sourcePath);
    },
    added(key, sourcePath) {
      keys?.add(key);
      files?.add(sourcePath);
    },
    // A file stays in `files` (one of its sessions may remain): it then costs one query, never a wrong answer.
    removed(key) {
      keys?.delete(key);
    },
  };
}
