/** The miner's per-session features, stored with the session (migration 12). */
import type { Db } from './db.js';

export interface StoredFeatures<T> {
  /** Features of `version` still valid for the stored session (same `harvested_at`), by session key. */
  load(keys: readonly string[]): Map<string, T>;
  /** Stores features for sessions (as stored now), replacing older ones. */
  save(entries: ReadonlyArray<readonly [string, T]>): void;
}

/**
 * A row derived for an older version of the session (it grew and was stored again) or of the miner
 * does not load; `save` replaces it. Unreadable rows (hand-edited) read as missing.
 */
export function sessionFeaturesStore<T>(db: Db, version: string): StoredFeatures<T> {
  return {
    load(keys) {
      const found = new Map<string, T>();
      if (keys.length === 0) return found;
      const rows = db
        .prepare(
          `SELECT f.session_key AS key, f.features FROM session_features f
             JOIN sessions s ON s.key = f.session_key AND s.harvested_at = f.harvested_at
           WHERE f.version = ? AND f.session_key IN (SELECT value FROM json_each(?))`,
        )
        .all(version, JSON.stringify(keys)) as Array<{ key: string; features: string }>;
      for (const row of rows) {
        try {
          found.set(row.key, JSON.parse(row.features) as T);
        } catch {
          // derived again
        }
      }
      return found;
    },
    save(entries) {
      if (entries.length === 0) return;
      const upsert = db.prepare(
        `INSERT INTO session_features (session_key, version, harvested_at, features)
           SELECT key, ?, harvested_at, ? FROM sessions WHERE key = ?
         ON CONFLICT (session_key) DO UPDATE SET version = excluded.version,
           harvested_at = excluded.harvested_at, features = excluded.features`,
      );
      db.transaction(() => {
        for (const [key, features] of entries) upsert.run(version, JSON.stringify(features), key);
      })();
    },
  };
}
