/**
 * What this machine's store recorded about a project's proposals. A proposal folder arrives with a
 * clone like the project's config, so its files are untrusted: a folder is a proposal only when the
 * store recorded its manifest when a night staged it, and an adopt or revert journal is acted on only
 * as the store recorded it before the first live file changed (`proposals/trust.ts`). The store
 * implements it (`src/store/proposal-ledger-repo.ts`); one ledger speaks for one project.
 */
export interface StagedRecord {
  /** The manifest's JSON text as staged; null for a proposal staged before manifests were recorded. */
  manifest: string | null;
  /** The live paths the store's row names. */
  targets: string[];
}

export interface StageReservation {
  id: string;
  /** The temporary folder the proposal is written in until it is renamed to its id. */
  stagingDir: string;
  createdAt: number;
  nightId?: number;
  targets: string[];
  manifest: string;
}

export interface ProposalLedger {
  /** What was recorded when proposal `id` was staged; null when this store never staged it. */
  staged(id: string): StagedRecord | null;
  /** Record a manifest before its folder is published; false when the id is already taken. */
  reserve(reservation: StageReservation): boolean;
  /** The folder was renamed to its id. */
  published(id: string, dir: string): void;
  /** Forget a reservation whose folder was never published. */
  release(id: string): void;
  /** Reservations whose folder was not known to be published yet: the staging folder each named. */
  unpublished(): Array<{ id: string; stagingDir: string }>;
  /** The journal (JSON text) an adopt or revert recorded before changing live files; null when none. */
  journal(id: string): string | null;
  recordJournal(id: string, text: string): void;
  clearJournal(id: string): void;
}
