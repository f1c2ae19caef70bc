/**
 * Harvest: ask each source for its transcript files, parse the ones that changed, and store the
 * sessions. Harvesters only normalise; storage happens here.
 */
import path from 'node:path';
import { harvesters } from '../../harvesters/index.js';
import type { HarvestContext, SourceId } from '../../harvesters/types.js';
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import type { Db } from '../store/db.js';
import { getCursor, setCursor, upsertSession } from '../store/sessions-repo.js';

export interface HarvestOptions {
  db: Db;
  ctx: HarvestContext;
  clock: Clock;
  logger: Logger;
  sources?: SourceId[];
  /** Rewrites a transcript's cwd before storing (the bundled demo maps its recorded cwd to the demo copy). */
  mapCwd?: (cwd: string) => string;
}

export interface HarvestSummary {
  filesSeen: number;
  filesParsed: number;
  sessionsStored: number;
  badLines: number;
  /** Files that could not be read at all (permissions...), with the reason. */
  unreadable: Array<{ path: string; error: string }>;
}

/** A path without trailing separators, so `/a/b/` and `/a/b` are the same project. */
export function normalizeProjectPath(p: string): string {
  if (p === '') return '';
  const resolved = path.resolve(p);
  return resolved.length > 1 ? resolved.replace(/[/\\]+$/, '') : resolved;
}

export async function harvest(opts: HarvestOptions): Promise<HarvestSummary> {
  const summary: HarvestSummary = {
    filesSeen: 0,
    filesParsed: 0,
    sessionsStored: 0,
    badLines: 0,
    unreadable: [],
  };
  const ids = opts.sources ?? (Object.keys(harvesters) as SourceId[]);
  for (const id of ids) {
    const harvester = harvesters[id];
    const files = await harvester.discover(opts.ctx);
    for (const file of files) {
      summary.filesSeen++;
      const cursor = getCursor(opts.db, file.path);
      const unchanged =
        cursor !== null &&
        cursor.size === file.size &&
        cursor.mtimeMs === Math.trunc(file.mtimeMs) &&
        cursor.inode === file.inode &&
        cursor.parsedOffset === file.size;
      if (unchanged) continue;
      try {
        // Whole-file re-parse of a changed file; sessions are upserted, so nothing is stored twice.
        const parsed = await harvester.parse(file, 0);
        const now = opts.clock.now();
        for (const session of parsed.sessions) {
          const cwd = normalizeProjectPath(opts.mapCwd ? opts.mapCwd(session.cwd) : session.cwd);
          upsertSession(opts.db, { ...session, cwd }, cwd, now);
          summary.sessionsStored++;
        }
        setCursor(opts.db, file, parsed.endOffset, parsed.badLines, now);
        summary.filesParsed++;
        summary.badLines += parsed.badLines;
      } catch (err) {
        summary.unreadable.push({ path: file.path, error: (err as Error).message });
        opts.logger.warn(`skipped unreadable transcript ${file.path}: ${(err as Error).message}`);
      }
    }
  }
  return summary;
}
