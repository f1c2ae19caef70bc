/**
 * The harvest's side of the privacy rules: which parsed sessions stay out of the store (forgotten by
 * `forget`, or kept out by `harvest-rules.ts`), which transcripts need no parse because everything in them
 * stayed out last time under the same rules, and how many already stored sessions the rules now keep out.
 */
import type { HarvestedSession, SourceFile, SourceId } from '../core/session.js';
import type { Db } from '../store/db.js';
import {
  forgottenSessions,
  skippedFiles,
  storedFolders,
  storedSessionFolders,
} from '../store/kept-out-repo.js';
import type { ExclusionReason, HarvestRules } from './harvest-rules.js';

export type KeptOutReason = ExclusionReason | 'forgotten';

export interface KeptOut {
  /** Why this session (with its working folder in normal form) is not stored, or null. */
  reason(session: HarvestedSession, cwd: string): KeptOutReason | null;
  /**
   * For a file with no cursor: true when its sessions were all kept out under the current rules and it has
   * not changed since. For a file with a cursor: true when some were kept out under other rules (read it
   * whole again: the new rules may let them in).
   */
  skippedBefore(file: SourceFile, hasCursor: boolean): boolean;
  /** After storing a file read whole or in part: remember (or forget) that the rules skipped some of it. */
  settle(file: SourceFile, rulesSkipped: boolean, now: number): void;
  /**
   * Reads the forgotten keys again: called inside each write transaction, so a `forget` that committed
   * while files were being read is seen before anything of its sessions is written back.
   */
  refresh(): void;
}

export function keptOut(db: Db, rules: HarvestRules | undefined): KeptOut {
  let forgotten = forgottenSessions(db);
  const skipped = skippedFiles(db);
  return {
    reason(session, cwd) {
      if (forgotten(`${session.source}:${session.sessionId}`)) return 'forgotten';
      return rules?.excludes(cwd) ?? null;
    },
    skippedBefore(file, hasCursor) {
      const skip = skipped.skipOf(file);
      if (skip === null) return false;
      if (!hasCursor) return skip.unchanged && skip.rulesHash === (rules?.hash ?? '');
      return skip.rulesHash !== (rules?.hash ?? '');
    },
    refresh() {
      forgotten = forgottenSessions(db);
    },
    settle(file, rulesSkipped, now) {
      if (rulesSkipped) skipped.record(file, rules?.hash ?? '', now);
      else skipped.clear(file);
    },
  };
}

/** Stored sessions the rules now keep out (sessions harvested before a folder was excluded), by source. */
export function storedButExcluded(
  db: Db,
  rules: HarvestRules | undefined,
  excludedSources: readonly SourceId[],
): number {
  let n = 0;
  for (const f of storedFolders(db)) {
    if (excludedSources.includes(f.source as SourceId) || rules?.excludes(f.projectRoot)) n += f.n;
  }
  return n;
}

/** The keys of the stored sessions the current rules and excluded sources keep out (`forget --excluded`). */
export function excludedSessionKeys(
  db: Db,
  rules: HarvestRules,
  excludedSources: readonly SourceId[],
): string[] {
  return storedSessionFolders(db)
    .filter((s) => excludedSources.includes(s.source as SourceId) || rules.excludes(s.projectRoot) !== null)
    .map((s) => s.key);
}
