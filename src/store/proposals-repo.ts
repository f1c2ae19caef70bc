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
 * Bring the mirror in line with the proposal folders (the truth): after a crash between writing a
 * receipt and updating the store, the next command fixes the row. Missing rows are added (a staging
 * killed after its folder was published, before its row: the manifest names its night, linked here).
 */
export function syncProposals(
  db: Db,
  project: string,
  proposals: ReadonlyArray<{
    id: string;
    dir: string;
    createdAt: number;
    status: ProposalStatus;
    adoptedAt?: number;
    nightId?: number;
    targets: ReadonlyArray<{ livePath: string }>;
  }>,
): void {
  const upsert = db.prepare(
    `INSERT INTO proposals (id, project, night_id, dir, status, created_at, adopted_at, targets)
     VALUES (?, ?, (SELECT id FROM nights WHERE id = ? AND project = ?), ?, ?, ?, ?, ?)
     ON CONFLICT (project, id) DO UPDATE SET status = excluded.status, adopted_at = excluded.adopted_at,
       night_id = COALESCE(proposals.night_id, excluded.night_id)`,
  );
  const link = db.prepare(
    `UPDATE nights SET proposal_id = ? WHERE id = ? AND project = ? AND proposal_id = ''`,
  );
  db.transaction(() => {
    for (const p of proposals) {
      upsert.run(
        p.id,
        project,
        p.nightId ?? null,
        project,
        p.dir,
        p.status,
        p.createdAt,
        p.adoptedAt ?? null,
        JSON.stringify(p.targets.map((t) => t.livePath)),
      );
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
