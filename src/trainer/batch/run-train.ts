/**
 * The batch trainer: epochs over the train split in batches of `batch_size`, one gated step per batch,
 * an epoch boundary after each epoch, the learning rate from the schedule. Every output is written
 * atomically and a run killed at any point resumes from its last finished step:
 *
 *   out/best_skill.md           the best skill on val so far
 *   out/final_skill.md          the current skill when the run ended
 *   out/snapshots/step-NNNN.md  the current skill after each step (step-0000 is the initial skill)
 *   out/history.jsonl           one StepRecord a step (rewritten whole, atomically)
 *   out/state.json              the resume pointer, written last
 *   out/rollouts/<hash>.json    saved rollouts per (backend, target model, skill)
 *   out/summary.json            the final scores
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Backend } from '../../backends/types.js';
import { zeroUsage } from '../../core/usage.js';
import { declaredTools } from '../../core/tool-calls.js';
import { InputError, UsageError, errorMessage } from '../../core/errors.js';
import { sha256Hex } from '../../core/hash.js';
import { DEFAULT_FILE_MODE, writeFileAtomicSync } from '../../core/io/atomic-file.js';
import type { Logger } from '../../core/logger.js';
import { chunks, shuffled } from '../../core/rng.js';
import { batchScore } from '../gate.js';
import { learningRateAt } from './lr-schedule.js';
import type { StepRecord } from '../step-record.js';
import type { Dataset, PreparedDataset } from './dataset.js';
import type { EnvInstance } from '../envs/index.js';
import { checkTargetFits, openEnvironment } from './env-data.js';
import { epochBoundary } from './epoch-boundary.js';
import { Rollouts } from './rollout.js';
import { metricOf, trainStep, type StepContext } from './train-step.js';
import type { LoadedTrainConfig, TrainConfig } from './train-config.js';
import type { TrainState } from './train-state.js';

export interface TrainDeps {
  backend: Backend;
  logger: Logger;
  /**
   * The dataset and initial skill when the CLI read them (a seed folder, or the config's environment
   * opened by the caller, then with `env`); else the config's environment is opened here.
   */
  prepared?: PreparedDataset;
  /** The environment `prepared` came from, when it rolls items out itself. */
  env?: EnvInstance;
  /**
   * Called after each record (a step or an epoch boundary) is persisted, with how many history.jsonl
   * holds: the seam the resume tests stop a run at, as a kill between two steps would.
   */
  onStep?: (records: number) => void;
}

export interface TrainSummary {
  initial_val: number;
  best_val: number;
  final_val: number;
  best_step: number;
  best_skill_path: string;
  steps: number;
  epochs: number;
  resumed_from_step: number;
  /**
   * The test split (a seed's held-out tasks): `before` is the initial skill's score (= `initial`),
   * `after` the best skill's (= `best`, the run's product); null without test items.
   */
  test: { initial: number; best: number; final: number; before: number; after: number } | null;
  out_dir: string;
  history_path: string;
  calls: number;
  /** Set when the run stopped before its last epoch because the skill stopped changing. */
  early_stop: { after_epoch: number; unchanged_epochs: number } | null;
}

const snapshotName = (step: number, suffix = ''): string =>
  path.join('snapshots', `step-${String(step).padStart(4, '0')}${suffix}.md`);

export { readSkill } from './skill-file.js';

/** Batches of an epoch: the train split shuffled with a seed of the epoch (so a resume sees the same plan). */
export function epochPlan(data: Dataset, config: TrainConfig, epoch: number) {
  return chunks(shuffled(data.train, config.seed + 1000 * epoch), config.trainer.batch_size);
}

function loadState(out: string, hash: string): { state: TrainState; history: StepRecord[] } | null {
  const file = path.join(out, 'state.json');
  if (!existsSync(file)) return null;
  let state: TrainState;
  try {
    state = JSON.parse(readFileSync(file, 'utf8')) as TrainState;
  } catch (err) {
    throw new InputError(`${file}: cannot read the run state: ${errorMessage(err)}`);
  }
  if (state.version !== 1 || state.config_hash !== hash) {
    throw new UsageError(
      `${out} holds a run of a different config, dataset or initial skill (state ${state.config_hash}, now ${hash}); use another --out or delete it`,
    );
  }
  const historyFile = path.join(out, 'history.jsonl');
  const lines = existsSync(historyFile) ? readFileSync(historyFile, 'utf8').split('\n').filter(Boolean) : [];
  state.stale_epochs ??= 0;
  // Lines past history_count belong to a step that did not finish: it runs again.
  const history = lines.slice(0, state.history_count).map((l) => JSON.parse(l) as StepRecord);
  return { state, history };
}

/** The test split's scores of the initial, best and final skill; before and after as the run's product. */
async function testScores(
  state: TrainState,
  testOf: (doc: string) => Promise<number>,
): Promise<NonNullable<TrainSummary['test']>> {
  const initial = await testOf(state.initial_skill);
  const best = await testOf(state.best_skill);
  const final = await testOf(state.current_skill);
  return { initial, best, final, before: initial, after: best };
}

export async function runTrain(
  loaded: LoadedTrainConfig,
  out: string,
  deps: TrainDeps,
): Promise<TrainSummary> {
  const { config } = loaded;
  const opened = deps.prepared
    ? { prepared: deps.prepared, instance: deps.env }
    : await openEnvironment(config, deps.logger);
  const { data } = opened.prepared;
  checkTargetFits(opened.instance, deps.backend, config.env);
  if (data.train.length === 0) throw new InputError(`${data.file}: no train items (split "train")`);
  if (data.val.length === 0)
    throw new InputError(`${data.file}: no val items (split "val"): nothing could gate an edit`);
  const usage = zeroUsage();
  const rollouts = new Rollouts(
    deps.backend,
    config.trainer.workers,
    usage,
    config.target_model,
    path.join(out, 'rollouts'),
    // The tools the train and val judges check for; a test judge never adds one.
    declaredTools([...data.train, ...data.val].map((item) => item.task)),
    opened.instance,
  );
  const ctx: StepContext = { config, backend: deps.backend, rollouts, data, usage };
  const metric = metricOf(config);
  const write = (rel: string, text: string): void =>
    writeFileAtomicSync(path.join(out, rel), text, DEFAULT_FILE_MODE);

  // A resume must continue the very same run: same resolved config, dataset bytes and initial skill.
  const initialSkill = opened.prepared.skill;
  const dataDigest = opened.prepared.digest;
  const runHash = sha256Hex([loaded.hash, dataDigest, sha256Hex(initialSkill)].join('|')).slice(0, 16);
  const resumed = loadState(out, runHash);
  let state: TrainState;
  let history: StepRecord[];
  if (resumed) {
    ({ state, history } = resumed);
    deps.logger.progress(`resuming after step ${state.step}`);
  } else {
    const initial = initialSkill;
    const initialVal = batchScore(await rollouts.run(data.val, initial), metric);
    state = {
      version: 1,
      config_hash: runHash,
      step: 0,
      boundary_epoch: 0,
      current_skill: initial,
      current_score: initialVal,
      best_skill: initial,
      best_score: initialVal,
      best_step: 0,
      initial_skill: initial,
      initial_val: initialVal,
      epoch_start_skill: initial,
      rejected: [],
      pending: [],
      stale_epochs: 0,
      meta_note: '',
      history_count: 0,
      calls: 0,
    };
    history = [];
    write(snapshotName(0), initial);
    write('best_skill.md', initial);
    write('history.jsonl', '');
    write('state.json', `${JSON.stringify(state, null, 2)}\n`);
  }
  const resumedFrom = state.step;
  const stepsPerEpoch = Math.ceil(data.train.length / config.trainer.batch_size);
  const totalSteps = stepsPerEpoch * config.trainer.epochs;
  const schedule = {
    schedule: config.trainer.lr_schedule,
    max: config.trainer.learning_rate,
    min: config.trainer.min_learning_rate,
    warmupSteps: config.trainer.warmup_steps,
    totalSteps,
  };
  const persist = (record: StepRecord, snapshot: string): void => {
    history.push(record);
    state.history_count = history.length;
    state.calls += usage.calls;
    usage.calls = 0;
    write(snapshot, state.current_skill);
    write('best_skill.md', state.best_skill);
    write('history.jsonl', history.map((h) => `${JSON.stringify(h)}\n`).join(''));
    write('state.json', `${JSON.stringify(state, null, 2)}\n`);
    deps.logger.progress(
      `${record.kind} ${record.step} (epoch ${record.epoch}, lr ${record.lr}): ${record.gate}, val ${state.current_score.toFixed(3)}`,
    );
    deps.onStep?.(history.length);
  };

  const patience = config.trainer.patience;
  let epochsRun = 0;
  let earlyStop: TrainSummary['early_stop'] = null;
  for (let epoch = 1; epoch <= config.trainer.epochs; epoch++) {
    // A skill that went unchanged for `patience` epochs is where the trainer rests: more epochs only
    // repeat the same gated no-ops (and write a snapshot each).
    if (epoch > state.boundary_epoch && patience > 0 && state.stale_epochs >= patience) {
      earlyStop = { after_epoch: epoch - 1, unchanged_epochs: state.stale_epochs };
      break;
    }
    epochsRun = epoch;
    const batches = epochPlan(data, config, epoch);
    for (const [b, batch] of batches.entries()) {
      const step = (epoch - 1) * stepsPerEpoch + b + 1;
      if (step <= state.step) continue;
      const record = await trainStep(ctx, state, batch, step, epoch, learningRateAt(schedule, step));
      state.step = step;
      persist(record, snapshotName(step));
    }
    if (state.boundary_epoch < epoch) {
      const step = epoch * stepsPerEpoch;
      const startSkill = state.epoch_start_skill;
      const record = await epochBoundary(ctx, state, epoch, step, learningRateAt(schedule, step));
      state.boundary_epoch = epoch;
      state.stale_epochs = state.current_skill === startSkill ? state.stale_epochs + 1 : 0;
      persist(record, snapshotName(step, '-slow'));
    }
  }

  const valOf = async (doc: string): Promise<number> => batchScore(await rollouts.run(data.val, doc), metric);
  const testOf = async (doc: string): Promise<number> =>
    batchScore(await rollouts.run(data.test, doc), metric);
  const summary: TrainSummary = {
    initial_val: state.initial_val,
    best_val: state.best_score,
    final_val: await valOf(state.current_skill),
    best_step: state.best_step,
    best_skill_path: path.join(out, 'best_skill.md'),
    steps: epochsRun * stepsPerEpoch,
    epochs: epochsRun,
    resumed_from_step: resumedFrom,
    test: data.test.length > 0 ? await testScores(state, testOf) : null,
    out_dir: out,
    history_path: path.join(out, 'history.jsonl'),
    calls: state.calls + usage.calls,
    early_stop: earlyStop,
  };
  write('final_skill.md', state.current_skill);
  write('summary.json', `${JSON.stringify(summary, null, 2)}\n`);
  return summary;
}
