/** Mirror of proposal folders' status, for history and `status`. The folder's manifest stays the truth. */
import type { Db } from './db.js';

export type ProposalStatus = 'staged' | 'adopted' | 'rejected' | 'superseded' | 'reverted';

export function recordProposal(
  db: Db,
  p: {
    id: string;
    project: string;
    nightId: number | null;
    dir: string;
    createdAt: number;
    targets: string[];
  },
): void {
  db.prepare(
    `INSERT INTO proposals (id, project, night_id, dir, status, created_at, targets)
     VALUES (?, ?, ?, ?, 'staged', ?, ?)
     ON CONFLICT (project, id) DO UPDATE SET dir = excluded.dir, targets = excluded.targets`,
  ).run(p.id, p.project, p.nightId, p.dir, p.createdAt, JSON.stringify(p.targets));
}

export function markProposal(db: Db, project: string, id: string, status: ProposalStatus, at: number): void {
  db.prepare(
    `UPDATE proposals SET status = ?, adopted_at = CASE WHEN ? = 'adopted' THEN ? ELSE adopted_at END
     WHERE project = ? AND id = ?`,
  ).run(status, status, at, project, id);
}

/** A night's proposal and the night's link to it, in one transaction. */
export function recordNightProposal(
  db: Db,
  p: Parameters<typeof recordProposal>[1] & { nightId: number },
): void {
  db.transaction(() => {
    recordProposal(db, p);
    db.prepare('UPDATE nights SET proposal_id = ? WHERE id = ?').run(p.id, p.nightId);
  })();
}

/**
 * Bring the mirror in line with the proposal folders (the truth for status): after a crash between
 * writing a receipt and updating the store, the next command fixes the row, and a night killed after
 * its proposal was published is linked to it (its manifest names the night). Only proposals the store
 * staged are passed in (`proposals/trust.ts`): a folder never adds a row.
 */
export function syncProposals(
  db: Db,
  project: string,
  proposals: ReadonlyArray<{
    id: string;
    status: ProposalStatus;
    adoptedAt?: number;
    nightId?: number;
  }>,
): void {
  const update = db.prepare(
    `UPDATE proposals SET status = ?, adopted_at = ?,
       night_id = COALESCE(night_id, (SELECT id FROM nights WHERE id = ? AND project = ?))
     WHERE project = ? AND id = ?`,
  );
  const link = db.prepare(
    `UPDATE nights SET proposal_id = ? WHERE id = ? AND project = ? AND proposal_id = ''`,
  );
  db.transaction(() => {
    for (const p of proposals) {
      update.run(p.status, p.adoptedAt ?? null, p.nightId ?? null, project, project, p.id);
      if (p.nightId !== undefined) link.run(p.id, p.nightId, project);
    }
  })();
}

export function proposalStatuses(db: Db, project: string): Map<string, ProposalStatus> {
  const rows = db.prepare('SELECT id, status FROM proposals WHERE project = ?').all(project) as Array<{
    id: string;
    status: ProposalStatus;
  }>;
  return new Map(rows.map((r) => [r.id, r.status]));
}
