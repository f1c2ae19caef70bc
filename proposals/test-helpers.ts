/**
 * For tests of the proposal store without a SQLite store: a `ProposalLedger` in memory that behaves
 * like the store's (`src/store/proposal-ledger-repo.ts`), one per project folder.
 */
import path from 'node:path';
import type { ProposalLedger, StagedRecord } from '../src/core/proposal-ledger.js';

interface Row {
  dir: string;
  record: StagedRecord;
  journal: string | null;
}

export function memoryLedger(): ProposalLedger & { rows: Map<string, Row> } {
  const rows = new Map<string, Row>();
  const isStaging = (dir: string): boolean => path.basename(dir).startsWith('.staging-');
  return {
    rows,
    staged: (id) => rows.get(id)?.record ?? null,
    reserve: (r) => {
      if (rows.has(r.id)) return false;
      rows.set(r.id, {
        dir: r.stagingDir,
        record: { manifest: r.manifest, targets: r.targets },
        journal: null,
      });
      return true;
    },
    published: (id, dir) => {
      const row = rows.get(id);
      if (row) row.dir = dir;
    },
    release: (id) => {
      if (isStaging(rows.get(id)?.dir ?? '')) rows.delete(id);
    },
    unpublished: () =>
      [...rows.entries()].filter(([, r]) => isStaging(r.dir)).map(([id, r]) => ({ id, stagingDir: r.dir })),
    journal: (id) => rows.get(id)?.journal ?? null,
    recordJournal: (id, text) => {
      const row = rows.get(id);
      if (!row) throw new Error(`no proposal ${id}`);
      row.journal = text;
    },
    clearJournal: (id) => {
      const row = rows.get(id);
      if (row) row.journal = null;
    },
  };
}

const byProject = new Map<string, ReturnType<typeof memoryLedger>>();

/** The one memory ledger of a project folder (staging and adoption in a test share it). */
export function ledgerFor(project: string): ReturnType<typeof memoryLedger> {
  const key = path.resolve(project);
  let ledger = byProject.get(key);
  if (!ledger) {
    ledger = memoryLedger();
    byProject.set(key, ledger);
  }
  return ledger;
}
