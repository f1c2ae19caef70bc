/** `train` and `eval`: the batch trainer on a labelled JSONL dataset, configured by YAML. */
// The command's action; its definition (options, help text) is `train.ts`, which imports this file
// only when the command runs, so `--help` and the other commands do not load what it needs.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createBackend } from '../../backends/factory.js';
import { loadConfig } from '../../config/load.js';
import { setRedactPatterns } from '../../core/redact-user.js';
import { templatesDir } from '../../config/paths.js';
import { configSchema } from '../../config/schema.js';
import { systemClock } from '../../core/clock.js';
import { BudgetExhaustedError, UsageError } from '../../core/errors.js';
import type { Split } from '../../core/task.js';
import { runEval, type EvalReport } from '../../trainer/batch/run-eval.js';
import { runTrain, type TrainSummary } from '../../trainer/batch/run-train.js';
import {
  loadTrainConfig,
  type LoadedTrainConfig,
  type TrainConfig,
} from '../../trainer/batch/train-config.js';
import { folderProblem } from '../../core/io/folder-problem.js';
import { resolveProject, statusLine, stderrLogger, usableStateHome } from '../context.js';
import type { Logger } from '../../core/logger.js';
import { printJson, say } from '../output.js';
import { cliIo, cliPath } from '../io.js';
import { seedDataset, seedRunName } from '../train-seed.js';
import type { PreparedDataset } from '../../trainer/batch/dataset.js';
import { environmentList } from '../../trainer/envs/index.js';

export interface TrainFlags {
  config?: string;
  demo?: boolean;
  backend?: string;
  optimizerModel?: string;
  targetModel?: string;
  out?: string;
  set?: string[];
  json?: boolean;
  progress?: boolean;
  /** A benchmark seed folder as the dataset and initial skill. */
  tasksFile?: string;
  /** Print the environments and where their data goes, and do nothing else. */
  listEnvs?: boolean;
}

export const demoTrainConfig = (): string => path.join(templatesDir(), 'train-demo', 'train.yaml');

function loadFromFlags(flags: TrainFlags, extra: string[] = []): LoadedTrainConfig {
  if (flags.demo && flags.config) throw new UsageError('give either --config or --demo, not both');
  if (flags.demo && flags.tasksFile) throw new UsageError('give either --tasks-file or --demo, not both');
  const file = flags.demo ? demoTrainConfig() : flags.config;
  if (!file && !flags.tasksFile)
    throw new UsageError(
      '--config <file> is required (or --demo for the bundled example, or --tasks-file <seed folder>)',
    );
  const overrides = [...(flags.set ?? []), ...extra];
  if (flags.backend) overrides.push(`backend=${flags.backend}`);
  const seed = flags.tasksFile ? cliPath(flags.tasksFile) : undefined;
  // The seed is the dataset and its SKILL.md the initial skill, whatever the config says.
  if (seed) overrides.push(`data.path=${JSON.stringify(seed)}`, 'skill.init=""');
  return loadTrainConfig(
    file ? cliPath(file) : undefined,
    overrides,
    cliIo().cwd,
    seed ? seedRunName(seed) : {},
  );
}

/** The seed folder's dataset, when `--tasks-file` names one (read once the config, and its seed, are known). */
const preparedOf = (flags: TrainFlags, c: TrainConfig, logger: Logger): PreparedDataset | undefined =>
  flags.tasksFile ? seedDataset(c.data?.path ?? '', { seed: c.seed, backend: c.backend, logger }) : undefined;

/** `train --list-envs`: one line per environment, with where its data goes. */
function listEnvs(flags: TrainFlags): void {
  const envs = environmentList();
  if (flags.json) printJson(envs);
  else for (const e of envs) say(`[sleep] ${e.name}: ${e.summary}. ${e.data}`);
}

/** Step lines with --progress; on a terminal, the latest as the status line (never with --json). */
const trainLogger = (flags: TrainFlags, first: string): Logger =>
  stderrLogger(flags.progress === true, statusLine(flags.json === true, first));

const fmt = (x: number): string => x.toFixed(3);

function renderTrain(s: TrainSummary): void {
  say(`[sleep] val ${fmt(s.initial_val)} -> best ${fmt(s.best_val)} (step ${s.best_step} of ${s.steps})`);
  if (s.test)
    say(
      `[sleep] test (held out): initial ${fmt(s.test.initial)}, best ${fmt(s.test.best)}, final ${fmt(s.test.final)}`,
    );
  if (s.resumed_from_step > 0) say(`[sleep] resumed after step ${s.resumed_from_step}`);
  if (s.early_stop)
    say(
      `[sleep] stopped early after epoch ${s.early_stop.after_epoch}: the skill did not change for ${s.early_stop.unchanged_epochs} epochs in a row (trainer.patience)`,
    );
  say(`[sleep] best skill: ${s.best_skill_path}`);
  say(`[sleep] history: ${s.history_path}`);
}

/**
 * The backend a train config names. Roles, models and workers come from the train config; everything
 * else a real backend needs (base URL, key variable, prices, hard budget, timeouts, CLI paths) from
 * the same config layers as a night: `<state home>/config.json`, then `./.skillopt-sleep/config.json`.
 */
function trainBackend(c: TrainConfig, logger: Logger) {
  const layered = loadConfig(usableStateHome(cliIo().env), resolveProject(undefined), {}).config;
  setRedactPatterns(layered.redact_patterns);
  const config = configSchema.parse({
    ...layered,
    backend: c.backend,
    optimizer_backend: '',
    target_backend: '',
    optimizer_model: c.optimizer_model,
    target_model: c.target_model,
    workers: c.trainer.workers,
  });
  return createBackend(config, {
    env: cliIo().env,
    clock: systemClock,
    logger,
    db: null,
  });
}

const describeEval = (r: EvalReport): string =>
  `${r.n} items, hard ${fmt(r.hard)}, soft ${fmt(r.soft)}, ${r.gate_metric} ${fmt(r.score)}`;

/** The skills of a finished (or interrupted) run: initial, best and final. */
const runSkills = (out: string): Array<[string, string]> => [
  ['initial', path.join(out, 'snapshots', 'step-0000.md')],
  ['best', path.join(out, 'best_skill.md')],
  ['final', path.join(out, 'final_skill.md')],
];

export async function doTrain(flags: TrainFlags): Promise<void> {
  if (flags.listEnvs) return listEnvs(flags);
  const extra: string[] = [];
  if (flags.optimizerModel) extra.push(`optimizer_model=${JSON.stringify(flags.optimizerModel)}`);
  if (flags.targetModel) extra.push(`target_model=${JSON.stringify(flags.targetModel)}`);
  const loaded = loadFromFlags(flags, extra);
  const out = cliPath(flags.out ?? path.join('skillopt-runs', loaded.config.name));
  const outProblem = folderProblem(out);
  if (outProblem)
    throw new UsageError(
      `--out ${out} cannot hold the run: ${outProblem}. Give a folder (it is created when missing)`,
    );
  const logger = trainLogger(flags, 'training');
  const prepared = preparedOf(flags, loaded.config, logger);
  let summary: TrainSummary;
  try {
    summary = await runTrain(loaded, out, {
      backend: trainBackend(loaded.config, logger),
      logger,
      ...(prepared ? { prepared } : {}),
    });
  } catch (err) {
    if (!(err instanceof BudgetExhaustedError)) throw err;
    // Every finished step is saved: the same command with a larger budget resumes after the last one.
    const stopped = { stopped: 'budget', limit: err.limit, message: err.message, out };
    if (flags.json) printJson(stopped);
    else
      say(
        `[sleep] stopped: ${err.message}. Finished steps are saved in ${out}; raise ${err.limit} (config.json) and run the same command again to resume.`,
      );
    return;
  }
  if (flags.json) printJson(summary);
  else renderTrain(summary);
}

export async function doEval(flags: TrainFlags & { skill?: string; split: Split }): Promise<void> {
  if (!flags.skill === !flags.out) throw new UsageError('give either --skill <file> or --out <run dir>');
  const { config } = loadFromFlags(flags);
  const logger = trainLogger(flags, 'scoring');
  const prepared = preparedOf(flags, config, logger)?.data;
  const backend = trainBackend(config, logger);
  if (flags.skill) {
    const report = await runEval(
      config,
      cliPath(flags.skill),
      flags.split,
      backend,
      prepared,
      undefined,
      logger,
    );
    if (flags.json) printJson(report);
    else say(`[sleep] ${report.split}: ${describeEval(report)}`);
    return;
  }
  const out = cliPath(flags.out ?? '');
  const reports: Record<string, EvalReport> = {};
  for (const [which, file] of runSkills(out)) {
    if (!existsSync(file)) {
      if (which === 'final') continue; // the run has not finished: there is no final skill yet
      throw new UsageError(`${out} is not a train output folder (no ${path.relative(out, file)})`);
    }
    reports[which] = await runEval(config, file, flags.split, backend, prepared, undefined, logger);
  }
  if (flags.json) printJson(reports);
  else
    for (const [which, r] of Object.entries(reports))
      say(`[sleep] ${which} skill on ${r.split}: ${describeEval(r)}`);
}
