/** `revert`: undo an adoption from its receipt. */
import { Command } from 'commander';
import { addCommonOptions } from '../options.js';
import type { CommonFlags } from '../context.js';

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
    .action(async (id: string | undefined, flags: CommonFlags & { force?: boolean; commit?: boolean }) =>
      (await import('./revert-action.js')).doRevert(id, flags),
    );
