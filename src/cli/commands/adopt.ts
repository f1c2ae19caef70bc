/** `adopt`: apply a staged proposal (or a reviewed subset of it) to the live files. */
import { Command } from 'commander';
import { addCommonOptions } from '../options.js';
import type { AdoptFlags } from './adopt-action.js';

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

export const adoptCommand = (): Command =>
  addCommonOptions(new Command('adopt'))
    .description(
      'Write a staged proposal to its live files as one transaction, with backups and a receipt. Refused when a live file changed since the night, or the proposal was adopted, rejected or superseded.',
    )
    .argument('[id]', 'proposal id (default: the latest proposal of the project)')
    .option('--skill <name>', 'adopt only this skill of the proposal (repeatable)', collect)
    .option('--all-skills', 'adopt every skill of the proposal, not the memory document')
    .option('--memory', 'adopt the memory document (with --skill/--all-skills: as well)')
    .option('--commit', 'commit exactly the changed files with git (config adopt_commit)')
    .option('--no-commit', 'do not commit, whatever adopt_commit says')
    .option('--demo', 'adopt into the bundled demo project (after `run --demo`)')
    .action(async (id: string | undefined, flags: AdoptFlags, cmd: Command) =>
      (await import('./adopt-action.js')).doAdopt(id, flags, cmd),
    );
