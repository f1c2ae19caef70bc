/** `proposals list|show|diff` and `reject`: review what the nights staged. */
import { Command } from 'commander';
import { withDefaultSubcommand } from '../default-subcommand.js';
import { addCommonOptions } from '../options.js';
import type { CommonFlags } from '../context.js';

const listCommand = (): Command =>
  addCommonOptions(new Command('list'))
    .description('List proposals, newest first: id, night, status, validation scores, targets.')
    .option('--demo', 'the bundled demo project')
    .action(async (_flags: CommonFlags, cmd: Command) =>
      (await import('./proposals-action.js')).doProposalsList(_flags, cmd),
    );

const showCommand = (): Command =>
  addCommonOptions(new Command('show'))
    .description(
      "Show a proposal's status, targets and report (as plain text; the proposal folder's report.md is the Markdown).",
    )
    .argument('<id>', 'proposal id')
    .option('--demo', 'the bundled demo project')
    .action(async (id: string, _flags: CommonFlags, cmd: Command) =>
      (await import('./proposals-action.js')).doProposalsShow(id, _flags, cmd),
    );

const diffCommand = (): Command =>
  addCommonOptions(new Command('diff'))
    .description("Print a proposal's unified diff (coloured on a terminal).")
    .argument('<id>', 'proposal id')
    .option('--demo', 'the bundled demo project')
    .action(async (id: string, _flags: CommonFlags, cmd: Command) =>
      (await import('./proposals-action.js')).doProposalsDiff(id, _flags, cmd),
    );

/**
 * The common options are accepted before the subcommand too (`proposals --project P list`), and
 * `proposals` alone lists; subcommands read them with optsWithGlobals.
 */
export const proposalsCommand = (): Command => {
  const parent = addCommonOptions(new Command('proposals'))
    .description('Review staged proposals: list (the default), show ID, diff ID.')
    .option('--demo', 'the bundled demo project');
  return withDefaultSubcommand(parent, listCommand(), showCommand(), diffCommand());
};

export const rejectCommand = (): Command =>
  addCommonOptions(new Command('reject'))
    .description(
      'Turn a staged proposal down: it is kept for the record but can no longer be adopted, and its learned rules (or those --rule names) are never proposed again, in any wording.',
    )
    .argument('<id>', 'proposal id')
    .option('--reason <text>', 'why (kept in rejected.json)')
    .option(
      '--rule <n>',
      'reject only this learned rule (its number in `proposals show`; repeatable); the others may come back',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option('--demo', 'the bundled demo project')
    .action(async (id: string, flags: CommonFlags & { reason?: string; rule?: string[] }) =>
      (await import('./proposals-action.js')).doReject(id, flags),
    );
