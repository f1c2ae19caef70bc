/** `reject ID`: the user turns a proposal down; it stays on disk for the record but can no longer be adopted. */
import path from 'node:path';
import { AdoptRefusedError } from '../src/core/errors.js';
import { locateProposal } from './adopt.js';
import { REJECTED_FILE, listProposals } from './list.js';
import { acquireProposalLock, releaseProposalLock } from './lock.js';
import { recoverProject } from './recover.js';
import { assertEpochMs } from './stage.js';
import type { RejectedRecord } from './types.js';
import { PRIVATE_FILE_MODE } from '../src/core/io/private-mode.js';
import { writeFileAtomic } from '../src/core/io/atomic-file.js';

export async function rejectProposal(options: {
  projectDir: string;
  id: string;
  now: number;
  reason?: string;
}): Promise<{ id: string; dir: string; record: RejectedRecord }> {
  assertEpochMs(options.now, 'rejection time');
  const project = path.resolve(options.projectDir);
  await recoverProject(project);
  const { id, dir } = await locateProposal(project, options.id);
  const lockPath = await acquireProposalLock(dir, id, options.now);
  try {
    const status = (await listProposals(project)).proposals.find((p) => p.id === id)?.status;
    if (status === 'adopted' || status === 'reverted') {
      throw new AdoptRefusedError(
        `proposal ${id} is ${status}; ${status === 'adopted' ? 'use revert to undo it' : 'nothing to reject'}`,
        `already_${status}`,
      );
    }
    if (status === 'rejected')
      throw new AdoptRefusedError(`proposal ${id} was already rejected`, 'already_rejected');
    const record: RejectedRecord = { rejectedAt: options.now, reason: options.reason ?? '' };
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
