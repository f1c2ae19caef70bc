/** A project's last mining result, under a digest of its inputs (migration 13): a cache, dropped by any forget. */
import { deserialize, serialize } from 'node:v8';
import type { Db } from './db.js';

export interface MinedProjectsStore<T> {
  /** The result stored for `project` under `inputDigest`; undefined when none (or another input's). */
  load(project: string, inputDigest: string): T | undefined;
  /** Replaces the project's stored result. */
  save(project: string, inputDigest: string, mined: T): void;
}

export function minedProjectsStore<T>(db: Db): MinedProjectsStore<T> {
  return {
    load(project, inputDigest) {
      const row = db
        .prepare('SELECT mined FROM mined_projects WHERE project = ? AND input_digest = ?')
        .get(project, inputDigest) as { mined: unknown } | undefined;
      if (!(row?.mined instanceof Uint8Array)) return undefined;
      try {
        return deserialize(row.mined) as T;
      } catch {
        return undefined; // written by another Node version, or damaged: mined again
      }
    },
    save(project, inputDigest, mined) {
      db.prepare(
        `INSERT INTO mined_projects (project, input_digest, mined) VALUES (?, ?, ?)
         ON CONFLICT (project) DO UPDATE SET input_digest = excluded.input_digest, mined = excluded.mined`,
      ).run(project, inputDigest, serialize(mined));
    },
  };
}
