/** `--record` and `--replay FILE [--replay-match hash|order]` of `run` and `dry-run`. */
import { Option, type Command } from 'commander';
import path from 'node:path';
import { isOfflineConfig, type BackendDeps } from '../backends/factory.js';
import { ExchangeWriter, readExchanges } from '../backends/recording/exchange-log.js';
import { REPLAY_MATCHES, ReplaySource, type ReplayMatch } from '../backends/recording/replay-provider.js';
import { recordingsDir } from '../config/paths.js';
import { cliPath } from './io.js';
import type { Config } from '../config/schema.js';
import { sha256Hex } from '../core/hash.js';
import type { Logger } from '../core/logger.js';
import { UsageError } from '../core/errors.js';

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

/** The recording and replay the flags ask for; both need a real backend for some role. */
export function recordingDeps(
  flags: RecordingFlags,
  config: Config,
  at: { home: string; project: string; now: number; logger: Logger },
): Pick<BackendDeps, 'record' | 'replay'> {
  if (!flags.record && !flags.replay) {
    if (flags.replayMatch) throw new UsageError('--replay-match needs --replay FILE');
    return {};
  }
  if (isOfflineConfig(config)) {
    throw new UsageError(
      '--record and --replay work on the exchanges with a real model, and this night runs every role on the mock: pass the --backend of the recorded night',
    );
  }
  const out: Pick<BackendDeps, 'record' | 'replay'> = {};
  if (flags.replay) {
    out.replay = new ReplaySource(readExchanges(cliPath(flags.replay)), flags.replayMatch ?? 'hash');
  }
  if (flags.record) {
    const stamp = new Date(at.now).toISOString().replace(/[:.]/g, '-');
    const file = path.join(recordingsDir(at.home), `${stamp}-${sha256Hex(at.project).slice(0, 8)}.jsonl`);
    out.record = new ExchangeWriter(file);
    at.logger.progress(`recording the night's model exchanges to ${file}`);
  }
  return out;
}
