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
