/**
 * The store's side of `ProposalLedger` (`src/core/proposal-ledger.ts`): the `proposals` row of each
 * proposal a night staged holds its manifest (from migration 18), and while an adopt or revert runs,
 * its journal. Until the folder is published its row's `dir` names the staging folder.
 */
import path from 'node:path';
import type { ProposalLedger, StageReservation, StagedRecord } from '../core/proposal-ledger.js';
import type { Db } from './db.js';

/** Staging folders are `.staging-<pid>-<start>-<random>` (`proposals/staging-dir.ts`). */
const isStagingDir = (dir: string): boolean => path.basename(dir).startsWith('.staging-');

export function proposalLedger(db: Db, project: string): ProposalLedger {
  const text = (id: string, column: 'journal' | 'dir'): string | null => {
    const row = db
      .prepare(`SELECT ${column} AS value FROM proposals WHERE project = ? AND id = ?`)
      .get(project, id) as { value: unknown } | undefined;
    return typeof row?.value === 'string' ? row.value : null;
  };
  return {
    staged(id: string): StagedRecord | null {
      const row = db
        .prepare('SELECT manifest, targets FROM proposals WHERE project = ? AND id = ?')
        .get(project, id) as { manifest: string | null; targets: string } | undefined;
      if (row === undefined) return null;
      return { manifest: row.manifest, targets: parseTargets(row.targets) };
    },
    reserve(r: StageReservation): boolean {
      const result = db
        .prepare(
          `INSERT INTO proposals (id, project, night_id, dir, status, created_at, targets, manifest)
           VALUES (?, ?, (SELECT id FROM nights WHERE id = ? AND project = ?), ?, 'staged', ?, ?, ?)
           ON CONFLICT (project, id) DO NOTHING`,
        )
        .run(
          r.id,
          project,
          r.nightId ?? null,
          project,
          r.stagingDir,
          r.createdAt,
          JSON.stringify(r.targets),
          r.manifest,
        );
      return result.changes === 1;
    },
    published(id: string, dir: string): void {
      db.prepare('UPDATE proposals SET dir = ? WHERE project = ? AND id = ?').run(dir, project, id);
    },
    release(id: string): void {
      // Only a reservation: a published proposal's row is history and stays.
      if (isStagingDir(text(id, 'dir') ?? '')) {
        db.prepare('DELETE FROM proposals WHERE project = ? AND id = ?').run(project, id);
      }
    },
    unpublished(): Array<{ id: string; stagingDir: string }> {
      const rows = db
        .prepare('SELECT id, dir FROM proposals WHERE project = ? AND manifest IS NOT NULL')
        .all(project) as Array<{ id: string; dir: string }>;
      return rows.filter((r) => isStagingDir(r.dir)).map((r) => ({ id: r.id, stagingDir: r.dir }));
    },
    journal(id: string): string | null {
      return text(id, 'journal');
    },
    recordJournal(id: string, text: string): void {
      const result = db
        .prepare('UPDATE proposals SET journal = ? WHERE project = ? AND id = ?')
        .run(text, project, id);
      if (result.changes !== 1) throw new Error(`the store has no proposal ${id} of ${project}`);
    },
    clearJournal(id: string): void {
      db.prepare('UPDATE proposals SET journal = NULL WHERE project = ? AND id = ?').run(project, id);
    },
  };
}

function parseTargets(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((t): t is string => typeof t === 'string') : [];
  } catch {
    return [];
  }
}
