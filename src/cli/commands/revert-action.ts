/** `revert`: undo an adoption from its receipt. */
// The command's action; its definition (options, help text) is `revert.ts`, which imports this file
// only when the command runs, so `--help` and the other commands do not load what it needs.
import { assertProposalId } from '../../../proposals/index.js';
import { cliContext, openDb, commandProject, type CommonFlags } from '../context.js';
import { printJson, say } from '../output.js';
import { revertAction, revertedLines } from '../proposal-actions.js';
import { commitFailure } from '../proposal-session.js';

export async function doRevert(
  id: string | undefined,
  flags: CommonFlags & { force?: boolean; commit?: boolean },
): Promise<void> {
  // Checked first: an empty id (an unset $ID in a script) is refused, never read as "the latest".
  if (id !== undefined) assertProposalId(id);
  const ctx = cliContext(flags);
  const project = commandProject(ctx, flags);
  const db = openDb(ctx, flags);
  try {
    const receipt = await revertAction({
      db,
      project,
      now: ctx.clock.now(),
      logger: ctx.logger,
      ...(id !== undefined ? { id } : {}),
      force: flags.force === true,
      commit: flags.commit === true,
    });
    if (ctx.json) {
      commitFailure('revert', receipt.id, receipt.git);
      printJson({
        ok: true,
        proposal_id: receipt.id,
        restored_paths: receipt.restoredPaths,
        unchanged_paths: receipt.unchangedPaths,
        forced: receipt.record.forced,
        targets: receipt.record.targets,
        ...(receipt.git ? { git: receipt.git } : {}),
      });
      return;
    }
    revertedLines(receipt, say);
  } finally {
    db.close();
  }
}
