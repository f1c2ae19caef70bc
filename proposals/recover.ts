/**
 * Crash recovery, run by every command that opens a project's proposals: a staging killed midway left
 * a temporary folder (removed) and perhaps a reservation in the store (released, or completed when the
 * folder was published); an adopt or revert killed midway left its journal in the store (and a stale
 * lock). Its transaction is finished when its receipt was already written, and rolled back otherwise,
 * so live files end wholly old or wholly new, and temp files of killed writes are removed
 * (`leftover-temps.ts`). Folders the store never staged are never acted on.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { ProposalLedger } from '../src/core/proposal-ledger.js';
import {
  readAdoptedState,
  checkProposalsRoot,
  proposalsRootOf,
  readReverted,
  STAGING_PREFIX,
} from './list.js';
import { removeLeftoverTemps } from './leftover-temps.js';
import { lockPathOf, lockState, removeStaleProposalLock } from './lock.js';
import { removeLeftoverStaging, settleReservations } from './staging-dir.js';
import { hasJournalFile, parseJournal, recoverTransaction, type Journal } from './transaction.js';
import { judgeProposal } from './trust.js';
import type { RecoveryNote } from './types.js';

export async function recoverProject(projectDir: string, ledger: ProposalLedger): Promise<RecoveryNote[]> {
  const root = proposalsRootOf(projectDir);
  if (!(await checkProposalsRoot(root))) return [];
  await removeLeftoverStaging(root);
  await settleReservations(root, ledger);
  const notes: RecoveryNote[] = [];
  for (const entry of await readdir(root, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith(STAGING_PREFIX)) continue;
    const dir = path.join(root, entry.name);
    // A folder the store never staged may carry any journal: it is listed as foreign, never read here.
    const verdict = await judgeProposal(dir, entry.name, ledger);
    if (verdict.kind === 'foreign') continue;
    const note = await recoverProposalDir(dir, entry.name, ledger);
    if (note) notes.push(note);
    if (verdict.kind === 'ours') await removeLeftoverTemps(projectDir, dir, verdict.manifest);
  }
  return notes;
}

/** Recover one proposal folder; a lock held by a live process means the transaction is still running. */
async function recoverProposalDir(
  dir: string,
  id: string,
  ledger: ProposalLedger,
): Promise<RecoveryNote | null> {
  const lock = await lockState(dir);
  if (lock === 'held') return null;
  const recorded = ledger.journal(id);
  let note: RecoveryNote | null = null;
  if (recorded !== null) {
    const journal = parseJournal(recorded, id);
    const outcome = await recoverTransaction(dir, journal, await isCommitted(dir, id, journal));
    ledger.clearJournal(id);
    note = {
      proposalId: id,
      kind: journal.kind,
      outcome,
      paths: journal.entries.map((e) => e.livePath),
    };
  } else if (await hasJournalFile(dir)) {
    note = { proposalId: id, kind: 'unknown', outcome: 'left_alone', paths: [] };
  }
  if (lock === 'stale') removeStaleProposalLock(lockPathOf(dir));
  return note;
}

/** The receipt is the commit marker: it names the transaction that wrote it. */
async function isCommitted(dir: string, id: string, journal: Journal): Promise<boolean> {
  if (journal.kind === 'revert') return (await readReverted(dir, id))?.txId === journal.txId;
  const adopted = await readAdoptedState(dir, id);
  return adopted.adopted && adopted.record != null
    ? adopted.record.targets.some((t) => t.txId === journal.txId)
    : false;
}
