/**
 * What the harvest keeps out of the store, and how it remembers that without a readable trace:
 * sessions `forget` deleted (by key), and transcripts whose sessions the harvest rules skipped (by a
 * hash of their path, with the file's size, mtime and inode and the hash of the rules that skipped them).
 */
import type { SourceFile } from '../core/session.js';
import { sha256Hex } from '../core/hash.js';
import type { Db } from './db.js';

/** Whether `forget` deleted the session with this key (it is then never stored again). */
export function forgottenSessions(db: Db): (key: string) => boolean {
  const keys = new Set(
    (db.prepare('SELECT key FROM forgotten_sessions').all() as Array<{ key: string }>).map((r) => r.key),
  );
  return (key) => keys.has(key);
}

export interface SkippedFiles {
  /** The rules this file's sessions were last skipped under, and whether the file is as it was then. */
  skipOf(file: SourceFile): { rulesHash: string; unchanged: boolean } | null;
  record(file: SourceFile, rulesHash: string, now: number): void;
  clear(file: SourceFile): void;
}

const pathHash = (p: string): string => sha256Hex(`skillopt-sleep skipped file\u0000${p}`);

export function skippedFiles(db: Db): SkippedFiles {
  const rows = db
    .prepare('SELECT path_hash, size, mtime_ms, inode, rules_hash FROM skipped_files')
    .all() as Array<{ path_hash: string; size: number; mtime_ms: number; inode: number; rules_hash: string }>;
  const byHash = new Map(rows.map((r) => [r.path_hash, r]));
  const upsert = db.prepare(
    `INSERT INTO skipped_files (path_hash, size, mtime_ms, inode, rules_hash, updated_at) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (path_hash) DO UPDATE SET size = excluded.size, mtime_ms = excluded.mtime_ms,
       inode = excluded.inode, rules_hash = excluded.rules_hash, updated_at = excluded.updated_at`,
  );
  const remove = db.prepare('DELETE FROM skipped_files WHERE path_hash = ?');
  return {
    // Most stores skip no file: then no path is hashed (a harvest sees thousands).
    skipOf(file) {
      if (byHash.size === 0) return null;
      const row = byHash.get(pathHash(file.path));
      if (row === undefined) return null;
      const unchanged =
        row.size === file.size && row.mtime_ms === Math.trunc(file.mtimeMs) && row.inode === file.inode;
      return { rulesHash: row.rules_hash, unchanged };
    },
    record(file, rulesHash, now) {
      const h = pathHash(file.path);
      const row = {
        path_hash: h,
        size: file.size,
        mtime_ms: Math.trunc(file.mtimeMs),
        inode: file.inode,
        rules_hash: rulesHash,
      };
      upsert.run(h, row.size, row.mtime_ms, row.inode, rulesHash, now);
      byHash.set(h, row);
    },
    clear(file) {
      if (byHash.size === 0) return;
      const h = pathHash(file.path);
      if (!byHash.delete(h)) return;
      remove.run(h);
    },
  };
}

/** Stored sessions per working folder and source, to count those the rules now keep out. */
export function storedFolders(db: Db): Array<{ projectRoot: string; source: string; n: number }> {
  return (
    db
      .prepare('SELECT project_root, source, COUNT(*) AS n FROM sessions GROUP BY project_root, source')
      .all() as Array<{ project_root: string; source: string; n: number }>
  ).map((r) => ({ projectRoot: r.project_root, source: r.source, n: r.n }));
}

/** Every stored session's key with its working folder and source, for `forget --excluded`. */
export function storedSessionFolders(db: Db): Array<{ key: string; projectRoot: string; source: string }> {
  return (
    db.prepare('SELECT key, project_root, source FROM sessions').all() as Array<{
      key: string;
      project_root: string;
      source: string;
    }>
  ).map((r) => ({ key: r.key, projectRoot: r.project_root, source: r.source }));
}
