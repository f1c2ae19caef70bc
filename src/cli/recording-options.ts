/** The options `--record` and `--replay FILE [--replay-match hash|order]` of `run` and `dry-run`. */
import { Option, type Command } from 'commander';
import { REPLAY_MATCHES, type ReplayMatch } from '../backends/recording/replay-match.js';

export interface RecordingFlags {
  record?: boolean;
  replay?: string;
  replayMatch?: ReplayMatch;
}

export function addRecordingOptions(cmd: Command): Command {
  return cmd
    .option(
      '--record',
      "write every model exchange of the night to a private JSONL file under the state home's recordings/",
    )
    .option('--replay <file>', 'answer the real-model roles from a recorded night (nothing is sent)')
    .addOption(
      new Option(
        '--replay-match <how>',
        'match replies by request hash (default) or strictly in order',
      ).choices([...REPLAY_MATCHES]),
    );
}
