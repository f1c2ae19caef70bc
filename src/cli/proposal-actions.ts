/**
 * Adopt, reject and revert as functions: the CLI commands and the dashboard's buttons (`src/ui/`) run
 * these same steps and print the same lines, so their refusals and messages cannot drift apart.
 */
import {
  adoptProposal,
  rejectProposal,
  revertProposal,
  type AdoptReceipt,
  type RevertReceipt,
  type TargetSelection,
} from '../../proposals/index.js';
import type { Logger } from '../core/logger.js';
import type { Db } from '../store/db.js';
import { displayText } from './output.js';
import { commitFailure, ledgerOf, recoverAndSync, syncMirror } from './proposal-session.js';
import { readProposalRules } from '../../proposals/index.js';
import type { LearnedRule } from '../core/rule-evidence.js';
import { chosenRules, recordRejectedRules } from './rejected-rules.js';

export interface ActionBase {
  db: Db;
  project: string;
  now: number;
  logger: Logger;
}

export async function adoptAction(
  o: ActionBase & { id?: string; select: TargetSelection; commit: boolean },
): Promise<AdoptReceipt> {
  await recoverAndSync(o.db, o.project, o.logger);
  try {
    return await adoptProposal({
      projectDir: o.project,
      ...(o.id !== undefined ? { id: o.id } : {}),
      now: o.now,
      select: o.select,
      commit: o.commit,
      ledger: ledgerOf(o.db, o.project),
    });
  } finally {
    await syncMirror(o.db, o.project);
  }
}

/** What `adopt` prints; a failed commit throws after the target lines (the files are written). */
export function adoptedLines(receipt: AdoptReceipt, say: (line: string) => void): void {
  say(`[sleep] adopted ${receipt.id}`);
  for (const t of receipt.targets) say(`   -> ${t.kind ?? ''} ${displayText(t.name ?? '')}: ${t.livePath}`);
  commitFailure('adopt', receipt.id, receipt.git);
  if (receipt.git) say(`[sleep] git: ${displayText(receipt.git.message)}`);
}

export async function revertAction(
  o: ActionBase & { id?: string; force: boolean; commit: boolean },
): Promise<RevertReceipt> {
  await recoverAndSync(o.db, o.project, o.logger);
  try {
    return await revertProposal({
      projectDir: o.project,
      ...(o.id !== undefined ? { id: o.id } : {}),
      now: o.now,
      force: o.force,
      commit: o.commit,
      ledger: ledgerOf(o.db, o.project),
    });
  } finally {
    await syncMirror(o.db, o.project);
  }
}

/** What `revert` prints; a failed commit throws after the path lines. */
export function revertedLines(receipt: RevertReceipt, say: (line: string) => void): void {
  say(`[sleep] reverted ${receipt.id}`);
  for (const p of receipt.restoredPaths) say(`   <- ${p}`);
  for (const p of receipt.unchangedPaths) say(`   (already as before: ${p})`);
  commitFailure('revert', receipt.id, receipt.git);
  if (receipt.git) say(`[sleep] git: ${displayText(receipt.git.message)}`);
}

export async function rejectAction(
  o: ActionBase & { id: string; reason?: string; rules?: readonly number[] },
): Promise<Awaited<ReturnType<typeof rejectProposal>> & { rulesRejected: LearnedRule[] }> {
  await recoverAndSync(o.db, o.project, o.logger);
  const ledger = ledgerOf(o.db, o.project);
  // The rules are read (and the numbers checked) before anything is written.
  const rules = await readProposalRules(o.project, o.id, ledger);
  const chosen = chosenRules(rules, o.rules ?? [], o.id);
  const result = await rejectProposal({
    projectDir: o.project,
    id: o.id,
    now: o.now,
    ...(o.reason !== undefined ? { reason: o.reason } : {}),
    ...(o.rules !== undefined && o.rules.length > 0 ? { rules: o.rules } : {}),
    ledger,
  });
  recordRejectedRules(o.db, o.project, chosen, o.now);
  await syncMirror(o.db, o.project);
  return { ...result, rulesRejected: chosen };
}

export const rejectedLine = (id: string): string => `[sleep] rejected ${id}`;

/** What a reject prints, from the command or the dashboard's button: the proposal, then each rule kept out. */
export const rejectedLines = (r: { id: string; rulesRejected: readonly LearnedRule[] }): string[] => [
  rejectedLine(r.id),
  ...r.rulesRejected.map(
    (rule) => `[sleep]   rule ${rule.n} is not proposed again: ${displayText(rule.line)}`,
  ),
];
