/** `harvest`: read transcripts into the store and show (or write) the tasks a night would mine. */
import { Command } from 'commander';
import { addCommonOptions, addNightOptions, MINING_KEYS } from '../options.js';
import type { CommonFlags } from '../context.js';

export const harvestCommand = (): Command =>
  addNightOptions(addCommonOptions(new Command('harvest'), 'progress'), MINING_KEYS)
    .description(
      'Read new agent transcripts into the local store (secrets redacted) and list the tasks a night would mine for this project. With --output, write them as a tasks file to review (marked "reviewed": false).',
    )
    .option('--output <file>', 'write the mined tasks as a skillopt_sleep.tasks.v1 file')
    .option('--force', 'with --output: overwrite an existing file')
    .option('--demo', 'harvest the bundled demo transcripts')
    .action(async (flags: CommonFlags & { output?: string; force?: boolean }, command: Command) =>
      (await import('./harvest-action.js')).doHarvest(flags, command),
    );
