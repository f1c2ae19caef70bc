/** `export --tasks OUT`: a project's recurring tasks as a tasks file a team commits and trains on. */
import { Command } from 'commander';
import { addCommonOptions, addNightOptions, MINING_KEYS } from '../options.js';
import type { ExportFlags } from './export-action.js';

export const exportCommand = (): Command =>
  addNightOptions(addCommonOptions(new Command('export'), 'progress'), MINING_KEYS)
    .description(
      'Harvest and mine the project as a night would, then write its recurring tasks (redacted, without this machine\'s paths and session ids, marked "reviewed": false) as a tasks file to commit for your team: teammates train on everyone\'s files with `run --tasks-from DIR`.',
    )
    .requiredOption(
      '--tasks <file>',
      'the skillopt_sleep.tasks.v1 file to write (its folder must exist; an earlier export there is replaced, any other file refused)',
    )
    .action(async (flags: ExportFlags, command: Command) =>
      (await import('./export-action.js')).doExport(flags, command),
    );
