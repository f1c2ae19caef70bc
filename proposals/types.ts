/**
 * The proposal store's data shapes. A proposal is a folder under
 * `<project>/.skillopt-sleep/proposals/<id>/`; its `manifest.json` is the source of truth (the caller
 * mirrors status into its database). Files we read back are validated with the zod schemas below.
 */
import path from 'node:path';
import { z } from 'zod';

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
});
export type ManifestTarget = z.infer<typeof manifestTargetSchema>;

export const MANIFEST_SCHEMA = 'skillopt-sleep.proposal';
export const MANIFEST_VERSION = 1;

export const proposalManifestSchema = z.object({
  schema: z.literal(MANIFEST_SCHEMA),
  version: z.literal(MANIFEST_VERSION),
  id: z.string().min(1),
  project: absolutePath,
  night: z.number().int().nonnegative(),
  createdAt: epochMs,
  targets: z.array(manifestTargetSchema).min(1),
});
export type ProposalManifest = z.infer<typeof proposalManifestSchema>;

export const adoptedTargetSchema = z.object({
  livePath: absolutePath,
  /** '' when the live file did not exist before adoption. */
  sha256Before: z.union([z.literal(''), sha256]),
  sha256After: sha256,
  /** Absolute path of the backup copy; '' when there was nothing to back up. */
  backupPath: z.string(),
});
export type AdoptedTarget = z.infer<typeof adoptedTargetSchema>;

/** `adopted.json`: the receipt written when a proposal is adopted. */
export const adoptedRecordSchema = z.object({
  adoptedAt: epochMs,
  targets: z.array(adoptedTargetSchema),
});
export type AdoptedRecord = z.infer<typeof adoptedRecordSchema>;

export interface StagedProposal {
  id: string;
  /** Absolute path of the proposal folder. */
  dir: string;
  manifest: ProposalManifest;
}

export type ProposalStatus = 'staged' | 'adopted';

export interface ProposalSummary {
  id: string;
  dir: string;
  night: number;
  createdAt: number;
  status: ProposalStatus;
  /** Set when status is 'adopted' and the receipt is readable. */
  adoptedAt?: number;
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
  skipped: SkippedProposal[];
}

export interface ProposalDetails {
  summary: ProposalSummary;
  manifest: ProposalManifest;
  /** `report.json`, parsed but not validated (its shape belongs to the night). */
  report: unknown;
  /** `proposal.diff` text. */
  diff: string;
  /** `adopted.json` when the proposal was adopted and the receipt is readable. */
  receipt: AdoptedRecord | null;
}

export interface AdoptProposalOptions {
  projectDir: string;
  /** Proposal id; defaults to the latest proposal. */
  id?: string;
  /** Adoption time, UTC epoch ms. */
  now: number;
  /** Where backups go: `<backupRoot>/<id>/<n>-<basename>`. Default `<proposalDir>/backup/<n>-<basename>`. */
  backupRoot?: string;
}

export interface AdoptReceipt {
  id: string;
  dir: string;
  /** Absolute live paths that were written. */
  updatedPaths: string[];
  targets: AdoptedTarget[];
}
