/** `daemon`: harvest as transcripts change and run the nights scheduled with `schedule --daemon`. */
import { Command } from 'commander';

export const daemonCommand = (): Command =>
  new Command('daemon')
    .description(
      'Stay running: harvest transcripts into the store as they change, and run the nights of projects scheduled with `schedule --daemon` (one at a time per project). One daemon per state home; SIGINT/SIGTERM stop it cleanly.',
    )
    .option('--quiet', 'no progress lines on stderr (warnings still appear)')
    .action(async (flags: { quiet?: boolean }) => (await import('./daemon-action.js')).doDaemon(flags));
