/** `revert`: undo an adoption from its receipt. */
import { Command } from 'commander';
import { assertProposalId } from '../../../proposals/index.js';
import { addCommonOptions } from '../options.js';
import { cliContext, openDb, commandProject, type CommonFlags } from '../context.js';
import { printJson, say } from '../output.js';
import { revertAction, revertedLines } from '../proposal-actions.js';
import { commitFailure } from '../proposal-session.js';

export const revertCommand = (): Command =>
  addCommonOptions(new Command('revert'))
    .description(
      'Restore the files an adoption changed, from its receipt and backups. Refused when a file was edited after the adoption, unless --force.',
    )
    .argument('[id]', 'proposal id (default: the latest adopted proposal)')
    .option(
      '--force',
      'revert files edited since the adoption too (their current text is kept in revert-backup/)',
    )
    .option('--commit', 'commit exactly the restored files with git')
    .option('--demo', 'revert in the bundled demo project')
    .action(async (id: string | undefined, flags: CommonFlags & { force?: boolean; commit?: boolean }) => {
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
    });
