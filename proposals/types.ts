/**
 * The proposal store's data shapes. A proposal is a folder under
 * `<project>/.skillopt-sleep/proposals/<id>/`; its `manifest.json` is the source of truth (the caller
 * mirrors status into its database). Files we read back are validated with the zod schemas below.
 */
import path from 'node:path';
import { z } from 'zod';
import type { ProposalLedger } from '../src/core/proposal-ledger.js';

export type TargetKind = 'skill' | 'memory';

/** What the night wants changed in one live file. */
export interface StageTarget {
  kind: TargetKind;
  /** The live file the proposal would replace (absolute, or relative to the process cwd). */
  livePath: string;
  /** The live file's text when the night started; null when the file did not exist. */
  baseText: string | null;
  /** The full proposed text of the file. */
  proposedText: string;
  /** Allow a live path outside the project directory (refused otherwise). */
  allowOutside?: boolean;
  /** The skill's name (`adopt --skill NAME`); default: the live file's folder name. */
  name?: string;
}

export interface StageProposalOptions {
  projectDir: string;
  /** The night number; becomes the id's last segment. */
  night: number;
  /** Staging time, UTC epoch ms; names the folder. */
  now: number;
  targets: readonly StageTarget[];
  reportMd: string;
  /** Written as `report.json`; must be JSON-serialisable. */
  reportJson: unknown;
  /**
   * Written as `comparison.json` and pinned by its hash in the manifest: what `eval --proposal` replays
   * (the tasks and documents of the night's paired comparison). Absent when the night measured none.
   */
  comparison?: string;
  /**
   * Written as `rules.json` and pinned by its hash in the manifest: each learned line with its lessons
   * and their evidence (`src/core/rule-evidence.ts`). Absent when the night learned no line.
   */
  rules?: string;
  /**
   * Skill folders a target outside the project must stay in (per-skill proposals); adoption
   * re-checks every `allowOutside` target against them.
   */
  allowedRoots?: readonly string[];
  /** The store's row of the night staging it, kept in the manifest (the store links the night to it). */
  nightId?: number;
  /** Where the manifest is recorded before the folder is published: what makes the folder trusted. */
  ledger: ProposalLedger;
  /** Test-only: called at each step of staging (the crash tests kill the process there). */
  checkpoint?: Checkpoint;
}

const sha256Pattern = /^[0-9a-f]{64}$/;
const sha256 = z.string().regex(sha256Pattern, 'expected a lowercase sha256 hex digest');
const absolutePath = z.string().refine((p) => path.isAbsolute(p), 'expected an absolute path');
const epochMs = z.number().int().nonnegative();

export const manifestTargetSchema = z.object({
  kind: z.enum(['skill', 'memory']),
  livePath: absolutePath,
  /** Relative to the proposal folder, always `files/<n>-<basename>`. */
  proposedFile: z.string().regex(/^files\/(?!\.\.?$)[^/\\]+$/, 'expected files/<n>-<basename>'),
  /** sha256 of the live file at night start; '' when it did not exist. */
  baseSha256: z.union([z.literal(''), sha256]),
  proposedSha256: sha256,
  /** Present (true) only when staging was explicitly allowed to target a file outside the project. */
  allowOutside: z.literal(true).optional(),
  /** The skill's name for `adopt --skill NAME` (skill targets); absent in older manifests. */
  name: z.string().min(1).optional(),
});
export type ManifestTarget = z.infer<typeof manifestTargetSchema>;

export const MANIFEST_FILE = 'manifest.json';
export const MANIFEST_SCHEMA = 'skillopt-sleep.proposal';
export const MANIFEST_VERSION = 1;

export const proposalManifestSchema = z.object({
  schema: z.literal(MANIFEST_SCHEMA),
  version: z.literal(MANIFEST_VERSION),
  id: z.string().min(1),
  project: absolutePath,
  night: z.number().int().nonnegative(),
  /** The store's row of the night that staged it (absent before it was recorded). */
  nightId: z.number().int().positive().optional(),
  createdAt: epochMs,
  targets: z.array(manifestTargetSchema).min(1),
  /** Where targets outside the project must stay (per-skill proposals); absent: no such limit. */
  allowedRoots: z.array(absolutePath).optional(),
  /** sha256 of `comparison.json`; absent when the proposal has none (older, or nothing was compared). */
  comparisonSha256: sha256.optional(),
  /** sha256 of `rules.json`; absent when the proposal has none. */
  rulesSha256: sha256.optional(),
});
export type ProposalManifest = z.infer<typeof proposalManifestSchema>;

export const adoptedTargetSchema = z.object({
  livePath: absolutePath,
  /** '' when the live file did not exist before adoption. */
  sha256Before: z.union([z.literal(''), sha256]),
  sha256After: sha256,
  /** Absolute path of the backup copy; '' when there was nothing to back up. */
  backupPath: z.string(),
  kind: z.enum(['skill', 'memory']).optional(),
  name: z.string().optional(),
  /** When this target was adopted (a proposal may be adopted in parts). */
  adoptedAt: epochMs.optional(),
  /** The transaction that wrote it; recovery finds a committed transaction by this id. */
  txId: z.string().optional(),
  /** The first directory adoption created for a new file ('' or absent: none); revert removes it when empty. */
  createdDir: z.string().optional(),
});
export type AdoptedTarget = z.infer<typeof adoptedTargetSchema>;

/** `adopted.json`: the receipt written when a proposal is adopted (targets accumulate over partial adoptions). */
export const adoptedRecordSchema = z.object({
  /** The latest adoption of this proposal. */
  adoptedAt: epochMs,
  targets: z.array(adoptedTargetSchema),
  /** Commits made by `adopt --commit`, oldest first. */
  commits: z.array(z.string()).optional(),
});
export type AdoptedRecord = z.infer<typeof adoptedRecordSchema>;

/** `rejected.json`: the user said no; the proposal can no longer be adopted. */
export const rejectedRecordSchema = z.object({
  rejectedAt: epochMs,
  reason: z.string(),
  /** The learned rules (`rules.json`'s `n`) the user named; absent: the whole proposal. */
  rules: z.array(z.number().int().positive()).optional(),
});
export type RejectedRecord = z.infer<typeof rejectedRecordSchema>;

export const revertedTargetSchema = z.object({
  livePath: absolutePath,
  /** The live file's hash before the revert (the adopted bytes, or the user's edit with --force). */
  sha256Before: sha256,
  /** After the revert: the pre-adoption hash, '' when the file was removed. */
  sha256After: z.union([z.literal(''), sha256]),
  /** A copy of what the revert replaced. */
  backupPath: z.string(),
});

/** `reverted.json`: an adoption undone from its receipt. */
export const revertedRecordSchema = z.object({
  revertedAt: epochMs,
  txId: z.string(),
  forced: z.boolean(),
  targets: z.array(revertedTargetSchema),
});
export type RevertedRecord = z.infer<typeof revertedRecordSchema>;

export interface StagedProposal {
  id: string;
  /** Absolute path of the proposal folder. */
  dir: string;
  manifest: ProposalManifest;
  /** Nothing was written: the newest pending proposal (this one) already proposes exactly this. */
  unchanged?: true;
}

/** Precedence when several apply: reverted > adopted > rejected > superseded > staged. */
export type ProposalStatus = 'staged' | 'adopted' | 'rejected' | 'superseded' | 'reverted';

export interface ProposalTargetSummary {
  kind: TargetKind;
  name: string;
  livePath: string;
  /** True once this target was adopted (a proposal may be adopted in parts). */
  adopted: boolean;
}

export interface ProposalSummary {
  id: string;
  dir: string;
  night: number;
  /** The store's row of the night that staged it, when the manifest records it. */
  nightId?: number;
  createdAt: number;
  status: ProposalStatus;
  targets: ProposalTargetSummary[];
  /** Set when status is 'adopted' and the receipt is readable. */
  adoptedAt?: number;
  /** Set for 'superseded': the newer proposal for the same targets. */
  supersededBy?: string;
  /** Set when rejected: when, and the reason given ('' when none was). */
  rejectedAt?: number;
  rejectReason?: string;
  /** Set when reverted. */
  revertedAt?: number;
}

/** A folder under proposals/ that could not be listed, and why. */
export interface SkippedProposal {
  name: string;
  dir: string;
  reason: string;
}

export interface ProposalListing {
  /** Newest first (manifest createdAt, then id). */
  proposals: ProposalSummary[];
  /** Folders this machine staged that cannot be read or no longer match the store's record. */
  skipped: SkippedProposal[];
  /** Folders the store never staged (they may have arrived with the repository): never read further. */
  foreign: SkippedProposal[];
}

export interface ProposalDetails<R = unknown> {
  summary: ProposalSummary;
  manifest: ProposalManifest;
  /** `report.json`, read through the caller's schema (its shape belongs to the night). */
  report: R;
  /** `proposal.diff` text. */
  diff: string;
  /** `adopted.json` when the proposal was adopted and the receipt is readable. */
  receipt: AdoptedRecord | null;
  /** `report.md` text. */
  reportMd: string;
}

export interface AdoptProposalOptions {
  projectDir: string;
  /** Proposal id; defaults to the latest proposal. */
  id?: string;
  /** Adoption time, UTC epoch ms. */
  now: number;
  /** The store's record of the project's proposals: only those it staged are adopted. */
  ledger: ProposalLedger;
  /** Which targets; default every target not adopted yet. */
  select?: TargetSelection;
  /** Commit exactly the touched files with git afterwards (refused up front when they have uncommitted edits). */
  commit?: boolean;
  /** Test seam: called at each numbered step of the transaction (the crash tests stop or kill it there). */
  checkpoint?: Checkpoint;
}

export type Checkpoint = (step: number, what: string) => void;

export interface TargetSelection {
  /** Skill targets by name (`--skill NAME`, repeatable). */
  skills?: readonly string[];
  /** Every skill target (`--all-skills`). */
  allSkills?: boolean;
  /** The memory target (`--memory`). */
  memory?: boolean;
}

export interface GitOutcome {
  /** 'committed', or why not: not a repository, nothing inside the repository. */
  status: 'committed' | 'not_a_repository' | 'nothing_to_commit' | 'failed';
  commit?: string;
  message: string;
  /** Paths committed (relative to the repository root). */
  paths: string[];
}

export interface AdoptReceipt {
  id: string;
  dir: string;
  /** Absolute live paths that were written. */
  updatedPaths: string[];
  targets: AdoptedTarget[];
  /** Set when a commit was asked for. */
  git?: GitOutcome;
  /** Interrupted transactions the command finished or rolled back first. */
  recovered: RecoveryNote[];
}

export interface RecoveryNote {
  proposalId: string;
  /** 'unknown': a journal file the store did not record, so it was never read. */
  kind: 'adopt' | 'revert' | 'unknown';
  /** 'left_alone': that file was not acted on (nor removed). */
  outcome: 'finished' | 'rolled_back' | 'left_alone';
  paths: string[];
}
