/**
 * The proposal store: stage a night's proposal as a folder, list and read proposals, adopt, revert
 * or reject one, and recover an interrupted adoption. The folder's files are the source of truth;
 * callers mirror status into their database.
 */
export { stageProposal, formatProposalId, isInsideDir, resolveRealPath } from './stage.js';
export { unifiedDiff } from './diff.js';
export type { DiffLabels } from './diff.js';
export { adoptProposal } from './adopt.js';
export { ADOPT_LOCK_FILE } from './lock.js';
export { revertProposal } from './revert.js';
export type { RevertOptions, RevertReceipt } from './revert.js';
export { rejectProposal } from './reject.js';
export { recoverProject } from './recover.js';
export { JOURNAL_FILE } from './transaction.js';
export { FOREIGN_REASON } from './trust.js';
export { assertProposalId, listProposals, latestProposal, readProposal, proposalsRootOf } from './list.js';
export { readComparison, type StoredComparison } from './comparison.js';
export { readProposalRules } from './rules.js';
export { adoptedRecordSchema, proposalManifestSchema, MANIFEST_SCHEMA, MANIFEST_VERSION } from './types.js';
export type {
  AdoptProposalOptions,
  AdoptReceipt,
  AdoptedRecord,
  AdoptedTarget,
  Checkpoint,
  GitOutcome,
  ManifestTarget,
  ProposalDetails,
  ProposalListing,
  ProposalManifest,
  ProposalStatus,
  ProposalSummary,
  ProposalTargetSummary,
  RecoveryNote,
  SkippedProposal,
  StageProposalOptions,
  StageTarget,
  StagedProposal,
  TargetKind,
  TargetSelection,
} from './types.js';
