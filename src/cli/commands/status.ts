/** `status`: the latest proposal of the project and its night history. */
import { Command } from 'commander';
import { addCommonOptions, intArg } from '../options.js';
import type { CommonFlags } from '../context.js';

export const statusCommand = (): Command =>
  addCommonOptions(new Command('status'))
    .description("Show this project's latest staged proposal and its night history.")
    .option('--demo', 'show the bundled demo project (after `run --demo`)')
    .option('--limit <n>', 'how many past nights to list (at least 1)', intArg('--limit', 1), 10)
    .action(async (flags: CommonFlags & { limit: number }) =>
      (await import('./status-action.js')).doStatus(flags),
    );
