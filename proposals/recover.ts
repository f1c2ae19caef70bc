/**
 * Crash recovery, run by every command that opens a project's proposals: a staging killed midway left
 * a temporary folder (removed); an adopt or revert killed midway left a journal (and a stale lock). Its transaction is finished when its receipt was already
 * written, and rolled back otherwise, so live files end wholly old or wholly new.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { readAdoptedState, checkProposalsRoot, proposalsRootOf, readReverted } from './list.js';
import { lockPathOf, lockState, removeStaleProposalLock } from './lock.js';
import { removeLeftoverStaging } from './staging-dir.js';
import { readJournal, recoverTransaction, type Journal } from './transaction.js';
import type { RecoveryNote } from './types.js';

export async function recoverProject(projectDir: string): Promise<RecoveryNote[]> {
  const root = proposalsRootOf(projectDir);
  if (!(await checkProposalsRoot(root))) return [];
  await removeLeftoverStaging(root);
  const notes: RecoveryNote[] = [];
  for (const entry of await readdir(root, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const note = await recoverProposalDir(path.join(root, entry.name), entry.name);
    if (note) notes.push(note);
  }
  return notes;
}

/** Recover one proposal folder; a lock held by a live process means the transaction is still running. */
export async function recoverProposalDir(dir: string, id: string): Promise<RecoveryNote | null> {
  const lock = await lockState(dir);
  if (lock === 'held') return null;
  const journal = await readJournal(dir);
  let note: RecoveryNote | null = null;
  if (journal) {
    const outcome = await recoverTransaction(dir, journal, await isCommitted(dir, id, journal));
    note = {
      proposalId: journal.proposalId,
      kind: journal.kind,
      outcome,
      paths: journal.entries.map((e) => e.livePath),
    };
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
