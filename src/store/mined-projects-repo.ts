/**
 * A project's last mining result, under a digest of its inputs (migrations 13, 14): a cache, dropped by
 * any forget. The result is stored in two parts: what every reader needs, and `texts`, which only
 * some read (read from the store on first use, so a night that never needs them never loads them).
 */
import { deserialize, serialize } from 'node:v8';
import type { Db } from './db.js';

export interface StoredMined<T, X> {
  value: T;
  /** The second part, read on the first call; undefined once the row is gone, replaced or damaged. */
  texts: () => X | undefined;
}

export interface MinedProjectsStore<T, X> {
  /** The result stored for `project` under `inputDigest`; undefined when none (or another input's). */
  load(project: string, inputDigest: string): StoredMined<T, X> | undefined;
  /** Replaces the project's stored result. */
  save(project: string, inputDigest: string, value: T, texts: X): void;
}

/** A damaged value, or one written by another Node version, reads as none: it is mined again. */
function deserialized<V>(blob: unknown): V | undefined {
  if (!(blob instanceof Uint8Array)) return undefined;
  try {
    return deserialize(blob) as V;
  } catch {
    return undefined;
  }
}

export function minedProjectsStore<T, X>(db: Db): MinedProjectsStore<T, X> {
  return {
    load(project, inputDigest) {
      const row = db
        .prepare('SELECT mined FROM mined_projects WHERE project = ? AND input_digest = ?')
        .get(project, inputDigest) as { mined: unknown } | undefined;
      const value = deserialized<T>(row?.mined);
      if (value === undefined) return undefined;
      let texts: { value: X | undefined } | undefined;
      const read = (): X | undefined => {
        const r = db
          .prepare('SELECT texts FROM mined_projects WHERE project = ? AND input_digest = ?')
          .get(project, inputDigest) as { texts: unknown } | undefined;
        return deserialized<X>(r?.texts);
      };
      return { value, texts: () => (texts ??= { value: read() }).value };
    },
    save(project, inputDigest, value, texts) {
      db.prepare(
        `INSERT INTO mined_projects (project, input_digest, mined, texts) VALUES (?, ?, ?, ?)
         ON CONFLICT (project) DO UPDATE SET
           input_digest = excluded.input_digest, mined = excluded.mined, texts = excluded.texts`,
      ).run(project, inputDigest, serialize(value), serialize(texts));
    },
  };
}
