/**
 * `train --tasks-file SEED` and `eval --tasks-file SEED`: a benchmark seed folder read as a night reads
 * it (`src/miner/seed-folder.ts`), as the batch trainer's dataset: benchmark tasks split into train and
 * val, held-out tasks the test split, SKILL.md the initial skill.
 */
import { InputError, UsageError } from '../core/errors.js';
import { sha256Hex } from '../core/hash.js';
import type { Logger } from '../core/logger.js';
import { isFolder, loadSeedFolder, SEED_REVIEWED_FILE } from '../miner/seed-folder.js';
import { datasetOfTasks, type PreparedDataset } from '../trainer/batch/dataset.js';

/** The share of a seed's benchmark tasks kept for validation: a night's default `val_fraction`. */
const SEED_VAL_FRACTION = 0.34;

/** A run's default name (its output folder) after the seed folder, when the name is one the config takes. */
export function seedRunName(dir: string): Record<string, string> {
  const name =
    dir
      .replace(/[\\/]+$/, '')
      .split(/[\\/]/)
      .at(-1) ?? '';
  return /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name) ? { name } : {};
}

export function seedDataset(
  dir: string,
  opts: { seed: number; backend: string; logger: Logger },
): PreparedDataset {
  if (!isFolder(dir))
    throw new UsageError(
      `--tasks-file ${dir}: train and eval take a seed folder (SKILL.md, benchmark.jsonl, held-out.jsonl)`,
    );
  const seed = loadSeedFolder(dir, {
    seed: opts.seed,
    valFraction: SEED_VAL_FRACTION,
    warn: (m) => opts.logger.warn(m),
  });
  // As on a night: a backend that sends data off the machine sends no task a person has not reviewed.
  if (opts.backend !== 'mock' && !seed.reviewed)
    throw new InputError(
      `refusing to send tasks from the seed folder ${dir} to the ${opts.backend} backend: it is not marked reviewed. Inspect its tasks, then add an empty ${SEED_REVIEWED_FILE} file to it`,
      'unreviewed_tasks_file',
    );
  return {
    data: datasetOfTasks(dir, seed.tasks),
    skill: seed.skill,
    digest: sha256Hex(JSON.stringify({ skill: seed.skill, tasks: seed.tasks })),
  };
}
