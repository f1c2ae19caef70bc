/**
 * The proposal store: stage a night's proposal as a folder, list and read proposals, adopt one.
 * The folder's manifest.json is the source of truth; callers mirror status into their database.
 */
export { stageProposal, formatProposalId } from './stage.js';
export { unifiedDiff } from './diff.js';
export type { DiffLabels } from './diff.js';
export { adoptProposal, ADOPT_LOCK_FILE } from './adopt.js';
export { listProposals, latestProposal, readProposal, proposalsRootOf } from './list.js';
export { writeFileAtomic } from './atomic-write.js';
export { adoptedRecordSchema, proposalManifestSchema, MANIFEST_SCHEMA, MANIFEST_VERSION } from './types.js';
export type {
  AdoptProposalOptions,
  AdoptReceipt,
  AdoptedRecord,
  AdoptedTarget,
  ManifestTarget,
  ProposalDetails,
  ProposalListing,
  ProposalManifest,
  ProposalStatus,
  ProposalSummary,
  SkippedProposal,
  StageProposalOptions,
  StageTarget,
  StagedProposal,
  TargetKind,
} from './types.js';
