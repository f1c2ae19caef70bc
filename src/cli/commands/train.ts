/** `train` and `eval`: the batch trainer on a labelled JSONL dataset (or a seed folder), configured by YAML. */
import { Command, InvalidArgumentError, Option } from 'commander';
import { BACKENDS } from '../../config/choices.js';
import type { Split } from '../../core/task.js';
import type { TrainFlags } from './train-action.js';
import { MAX_LIFT_SAMPLES } from '../../config/choices.js';
import { UsageError } from '../../core/errors.js';
import { samplesArg } from '../options.js';

export interface EvalFlags extends TrainFlags {
  skill?: string;
  split: Split;
  proposal?: string;
  samples?: number;
  project?: string;
}

// No default value: commander would print "(default: [])" in the help; the action reads `?? []`.
const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

/** A handoff night waits between runs of `run`; the batch trainer has no such round trip. */
const TRAIN_BACKENDS = BACKENDS.filter((b) => b !== 'handoff');
const trainBackend = (value: string): string => {
  if (value === 'handoff')
    throw new InvalidArgumentError(
      'the handoff backend pauses a night until its requests are answered, which only `skillopt-sleep run --backend handoff` does',
    );
  if (!(TRAIN_BACKENDS as string[]).includes(value))
    throw new InvalidArgumentError(`--backend must be one of: ${TRAIN_BACKENDS.join(', ')}`);
  return value;
};

function addConfigOptions(cmd: Command): Command {
  return cmd
    .option('--config <file>', 'YAML config (may inherit others with `_base_: other.yaml`)')
    .option('--demo', 'use the bundled demo dataset and config (templates/train-demo)')
    .option(
      '--tasks-file <dir>',
      'a benchmark seed folder (SKILL.md, benchmark.jsonl, held-out.jsonl) as the dataset and initial skill: benchmark tasks split into train and val, held-out tasks the test split (with --config for the other keys, or alone)',
    )
    .addOption(
      new Option('--backend <name>', "model backend (default: the config's backend, else mock)")
        // Listed for help and completion; trainBackend checks, and says why handoff is not one.
        .choices(TRAIN_BACKENDS)
        .argParser(trainBackend),
    )
    .option(
      '--set <key=value>',
      'override a config key with a dotted path, e.g. trainer.learning_rate=2 (repeatable)',
      collect,
    )
    .option('--json', 'print one JSON object on stdout (logs stay on stderr)')
    .option('--progress', 'print a line per step on stderr');
}

export const trainCommand = (): Command =>
  addConfigOptions(
    new Command('train').description(
      'Train a skill on a labelled JSONL dataset or a benchmark environment (--list-envs): epochs of batches, a learning-rate schedule, every step gated on the val split. Resumes from the last finished step when --out already holds the same run.',
    ),
  )
    .option('--optimizer-model <model>', 'optimizer model (sets optimizer_model)')
    .option('--target-model <model>', 'target model (sets target_model)')
    .option('--out <dir>', 'output folder (default ./skillopt-runs/<name>)')
    .option(
      '--list-envs',
      'print the environments (the `env:` of a config), one per line, with where their data goes',
    )
    .action(async (flags: TrainFlags) => (await import('./train-action.js')).doTrain(flags));

const SPLITS: Split[] = ['train', 'val', 'test'];

export const evalCommand = (): Command =>
  addConfigOptions(
    new Command('eval').description(
      "Score a skill on a split of the config's dataset; or, with --proposal, compare a proposal's candidate with the live skill again on its night's tasks (paired: the lift, its interval and p-value).",
    ),
  )
    .option('--skill <file>', 'the skill to score, e.g. <out>/best_skill.md')
    .option('--out <dir>', 'instead of --skill: score the initial, best and final skill of a train run')
    .addOption(new Option('--split <split>', 'which split to score').choices(SPLITS).default('val'))
    .option(
      '--proposal <id>',
      "replay a staged proposal's paired comparison (its night's held-out or validation tasks, as stored) instead",
    )
    .option(
      '--samples <n>',
      `with --proposal: attempts per task and side (default: the night's; at most ${MAX_LIFT_SAMPLES})`,
      samplesArg,
    )
    .option('--project <dir>', 'with --proposal: the project folder (default: the current folder)')
    .action(async (flags: EvalFlags, cmd: Command) => {
      if (flags.proposal !== undefined)
        return (await import('./eval-proposal-action.js')).doEvalProposal(flags.proposal, flags, cmd);
      if (flags.samples !== undefined || flags.project !== undefined)
        throw new UsageError('--samples and --project go with --proposal');
      return (await import('./train-action.js')).doEval(flags);
    });
