/**
 * `forget`: delete stored sessions and everything derived from them (turns, labels, mined tasks,
 * replays, cached model replies, refused and pending edits), then VACUUM so their bytes leave the store
 * file and its WAL. Tombstones keep a later harvest from storing them again (unless `--reharvest`).
 */
import { Command, InvalidArgumentError } from 'commander';
import { HARVEST_SOURCES as SOURCE_IDS } from '../../config/choices.js';
import type { ForgetFlags } from './forget-action.js';

const sourceArg = (value: string): string => {
  if (!(SOURCE_IDS as readonly string[]).includes(value))
    throw new InvalidArgumentError(`--source must be one of: ${SOURCE_IDS.join(', ')}`);
  return value;
};

// No default array: commander would print "(default: [])" in the help.
const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

export const forgetCommand = (): Command =>
  new Command('forget')
    .description(
      'Delete stored sessions and everything derived from them (turns, labels, mined tasks, replays, cached model replies, refused and pending edits, mining caches), then VACUUM the store so their text leaves the file. Filters combine with AND; forgotten sessions are not harvested again unless --reharvest.',
    )
    .option('--project <dir>', 'sessions whose working folder is this folder or below it')
    .option('--session <id>', 'a session id or key (<source>:<id>); repeatable', collect)
    .option('--source <name>', `sessions of one source: ${SOURCE_IDS.join(', ')}`, sourceArg)
    .option('--before <date>', 'sessions that ended before this UTC date or date-time (ISO 8601)')
    .option('--all', 'every stored session')
    .option(
      '--excluded',
      'sessions your exclusions now keep out (exclude_paths, include_paths, exclude_sources, .skillopt-sleep-ignore), stored before you set them',
    )
    .option('--dry-run', 'print what would be removed and change nothing')
    .option(
      '--reharvest',
      'let the next harvest read these sessions again (lifts their tombstones and file cursors)',
    )
    .option('--json', 'print one JSON object on stdout (logs stay on stderr)')
    .action(async (flags: ForgetFlags) => (await import('./forget-action.js')).doForget(flags));
