/** `reject ID`: the user turns a proposal down; it stays on disk for the record but can no longer be adopted. */
import path from 'node:path';
import { AdoptRefusedError } from '../src/core/errors.js';
import { locateProposal } from './adopt.js';
import { REJECTED_FILE, listProposals } from './list.js';
import { acquireProposalLock, releaseProposalLock } from './lock.js';
import { recoverProject } from './recover.js';
import { assertEpochMs } from './stage.js';
import { trustedManifest } from './trust.js';
import type { RejectedRecord } from './types.js';
import type { ProposalLedger } from '../src/core/proposal-ledger.js';
import { PRIVATE_FILE_MODE } from '../src/core/io/private-mode.js';
import { writeFileAtomic } from '../src/core/io/atomic-file.js';

export async function rejectProposal(options: {
  projectDir: string;
  id: string;
  now: number;
  reason?: string;
  /** The learned rules the user named (`reject --rule N`), kept in rejected.json. */
  rules?: readonly number[];
  ledger: ProposalLedger;
}): Promise<{ id: string; dir: string; record: RejectedRecord }> {
  assertEpochMs(options.now, 'rejection time');
  const project = path.resolve(options.projectDir);
  const { ledger } = options;
  await recoverProject(project, ledger);
  const { id, dir } = await locateProposal(project, options.id, ledger);
  await trustedManifest(dir, id, ledger); // nothing is written into a folder the store never staged
  const lockPath = await acquireProposalLock(dir, id, options.now);
  try {
    const status = (await listProposals(project, ledger)).proposals.find((p) => p.id === id)?.status;
    if (status === 'adopted' || status === 'reverted') {
      throw new AdoptRefusedError(
        `proposal ${id} is ${status}; ${status === 'adopted' ? 'use revert to undo it' : 'nothing to reject'}`,
        `already_${status}`,
      );
    }
    if (status === 'rejected')
      throw new AdoptRefusedError(`proposal ${id} was already rejected`, 'already_rejected');
    const record: RejectedRecord = {
      rejectedAt: options.now,
      reason: options.reason ?? '',
      ...(options.rules !== undefined && options.rules.length > 0 ? { rules: [...options.rules] } : {}),
    };
    await writeFileAtomic(
      path.join(dir, REJECTED_FILE),
      `${JSON.stringify(record, null, 2)}\n`,
      PRIVATE_FILE_MODE,
    );
    return { id, dir, record };
  } finally {
    await releaseProposalLock(lockPath);
  }
}
