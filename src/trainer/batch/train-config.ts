/**
 * The `train` / `eval` config: YAML files with `_base_` inheritance (a path relative to the file, chained,
 * cycles refused) and dotted overrides (`--set trainer.learning_rate=2`). Paths inside a file (`data.path`,
 * `skill.init`, `data_dir`, `split_dir`) are relative to the file that sets them. Unknown keys are errors
 * that name the key. `env` picks the environment (`src/trainer/envs/`): `jsonl` reads `data.path`, a
 * benchmark reads `data_dir` (and the reference's split manifest `split_dir`).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { BACKENDS, GATE_METRICS } from '../../config/schema.js';
import { closestName } from '../../core/closest-name.js';
import { ConfigError, errorMessage } from '../../core/errors.js';
import { sha256Hex } from '../../core/hash.js';
import { DEFAULT_ENV, ENVIRONMENTS, environmentNamed } from '../envs/index.js';
import { LR_SCHEDULES } from './lr-schedule.js';

export const UPDATE_MODES = ['patch', 'rewrite'] as const;
export type UpdateMode = (typeof UPDATE_MODES)[number];

const int = (min: number) => z.number().int().min(min);

export const trainConfigSchema = z
  .object({
    name: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'a single folder name of letters, digits, . _ -')
      .default('train')
      .describe('A label for the run (the default output folder is ./skillopt-runs/<name>).'),
    env: z
      .string()
      .default(DEFAULT_ENV)
      .describe('The environment: jsonl (data.path) or a benchmark (`train --list-envs`).'),
    data: z
      .object({
        path: z
          .string()
          .min(1)
          .describe('JSONL dataset: one {id, input, answer|checks|rubric, split} a line.'),
      })
      .strict()
      .optional(),
    data_dir: z
      .string()
      .default('')
      .describe("A benchmark environment's data: the folder of its files as downloaded."),
    split_dir: z
      .string()
      .default('')
      .describe(
        'The reference\'s split manifest folder (train/, val/, test/ of ids); "" = split by split_ratio.',
      ),
    split_ratio: z
      .tuple([z.number().positive(), z.number().positive(), z.number().positive()])
      .default([2, 1, 7])
      .describe('train:val:test shares of a benchmark without a manifest (seeded shuffle).'),
    limit: int(0).default(0).describe('At most this many items per split of a benchmark (0 = all).'),
    env_options: z
      .record(z.string(), z.unknown())
      .default({})
      .describe("The environment's own options (see docs/training.md)."),
    skill: z
      .object({ init: z.string().default('').describe('Initial skill file ("" = an empty skill).') })
      .strict()
      .prefault({}),
    backend: z.enum(BACKENDS).default('mock').describe('Model backend for target and optimizer.'),
    optimizer_model: z.string().default('').describe('Optimizer model ("" = the backend default).'),
    target_model: z.string().default('').describe('Target model ("" = the backend default).'),
    seed: z.number().int().default(42).describe('Seeds batch order and minibatches.'),
    trainer: z
      .object({
        epochs: int(1).default(2),
        patience: int(0)
          .default(2)
          .describe(
            'Stop after this many epochs in a row that left the skill unchanged (0 = never stop early).',
          ),
        batch_size: int(1).default(8),
        workers: int(1).default(4).describe('Concurrent model calls.'),
        learning_rate: int(0).default(4).describe('Peak edits per step.'),
        min_learning_rate: int(0).default(1),
        lr_schedule: z.enum(LR_SCHEDULES).default('cosine'),
        warmup_steps: int(0).default(0),
        update_mode: z.enum(UPDATE_MODES).default('patch'),
        minibatch_size: int(1).default(8).describe('Trajectories per reflection call.'),
        reflect_successes: z.boolean().default(false),
        slow_update: z.boolean().default(true),
        slow_update_samples: int(1).default(20),
        meta_skill: z.boolean().default(true),
      })
      .strict()
      .prefault({}),
    gate: z
      .object({
        metric: z.enum(GATE_METRICS).default('mixed'),
        mixed_weight: z.number().min(0).max(1).default(0.5),
        no_regression: z.boolean().default(false),
      })
      .strict()
      .prefault({}),
  })
  .strict()
  .superRefine((c, ctx) => {
    const known = ENVIRONMENTS.map((e) => e.name);
    if (!known.includes(c.env)) {
      const near = closestName(c.env, known);
      ctx.addIssue({
        code: 'custom',
        path: ['env'],
        message: `no environment "${c.env}"${near === undefined ? '' : ` (did you mean "${near}"?)`}; the environments: ${known.join(', ')}`,
      });
    } else if (c.env === DEFAULT_ENV && c.data === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['data'],
        message: 'required: data.path names the JSONL dataset (or set env: to a benchmark)',
      });
    } else if (
      c.env !== DEFAULT_ENV &&
      c.data_dir === '' &&
      environmentNamed(c.env).dataDirOptional !== true
    ) {
      ctx.addIssue({
        code: 'custom',
        path: ['data_dir'],
        message: `required by env ${c.env}: ${environmentNamed(c.env).dataHint}`,
      });
    }
  });

export type TrainConfig = z.infer<typeof trainConfigSchema>;

export interface LoadedTrainConfig {
  config: TrainConfig;
  /** The files read, base first. */
  files: string[];
  /** Hash of the resolved config: a resumed run must match it. */
  hash: string;
}

type Tree = Record<string, unknown>;
const isTree = (v: unknown): v is Tree => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Keys whose values are paths, resolved against the folder of the file (or cwd for overrides). */
const PATH_KEYS: Array<[string, string]> = [
  ['data', 'path'],
  ['skill', 'init'],
];
/** Top-level keys whose values are paths. */
const TOP_PATH_KEYS = ['data_dir', 'split_dir'];

function resolvePaths(tree: Tree, dir: string): void {
  for (const [section, key] of PATH_KEYS) {
    const s = tree[section];
    if (isTree(s) && typeof s[key] === 'string' && s[key] !== '') s[key] = path.resolve(dir, s[key]);
  }
  for (const key of TOP_PATH_KEYS) {
    const v = tree[key];
    if (typeof v === 'string' && v !== '') tree[key] = path.resolve(dir, v);
  }
}

/** Objects merge key by key; anything else (arrays too) is replaced by the later value. */
export function deepMerge(base: Tree, over: Tree): Tree {
  const out: Tree = { ...base };
  for (const [k, v] of Object.entries(over)) {
    const prev = out[k];
    out[k] = isTree(prev) && isTree(v) ? deepMerge(prev, v) : v;
  }
  return out;
}

function readYamlTree(file: string): Tree {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new ConfigError(`${file}: cannot read config file: ${errorMessage(err)}`);
  }
  let parsed: unknown;
  try {
    parsed = parseYaml(text);
  } catch (err) {
    throw new ConfigError(`${file}: invalid YAML: ${errorMessage(err)}`);
  }
  if (parsed === null || parsed === undefined) return {};
  if (!isTree(parsed)) throw new ConfigError(`${file}: expected a YAML mapping like "trainer: {epochs: 2}"`);
  return parsed;
}

function loadChain(file: string, stack: string[], files: string[]): Tree {
  const abs = path.resolve(file);
  if (stack.includes(abs)) {
    throw new ConfigError(`config inheritance cycle: ${[...stack, abs].join(' -> ')}`);
  }
  const tree = readYamlTree(abs);
  const base = tree._base_;
  delete tree._base_;
  resolvePaths(tree, path.dirname(abs));
  let merged: Tree = {};
  if (base !== undefined) {
    const bases = Array.isArray(base) ? base : [base];
    for (const b of bases) {
      if (typeof b !== 'string' || b === '')
        throw new ConfigError(`${abs}: _base_ must be a relative path (or a list of them)`);
      merged = deepMerge(merged, loadChain(path.resolve(path.dirname(abs), b), [...stack, abs], files));
    }
  }
  files.push(abs);
  return deepMerge(merged, tree);
}

/** `a.b.c=value`, the value read as YAML (so 2 is a number, true a boolean, "x" a string). */
export function parseOverride(spec: string): { keyPath: string[]; value: unknown } {
  const eq = spec.indexOf('=');
  const key = eq > 0 ? spec.slice(0, eq).trim() : '';
  if (key === '' || key.split('.').some((p) => p === ''))
    throw new ConfigError(`override "${spec}": expected key.path=value, e.g. trainer.learning_rate=2`);
  const raw = spec.slice(eq + 1);
  let value: unknown;
  try {
    value = raw.trim() === '' ? '' : parseYaml(raw);
  } catch {
    value = raw;
  }
  return { keyPath: key.split('.'), value };
}

export function applyOverride(tree: Tree, keyPath: string[], value: unknown): Tree {
  const [head, ...rest] = keyPath;
  if (head === undefined) return tree;
  if (rest.length === 0) return { ...tree, [head]: value };
  const child = tree[head];
  return { ...tree, [head]: applyOverride(isTree(child) ? child : {}, rest, value) };
}

/** The keys an object of the schema knows at a dotted path (for "did you mean"). */
function knownKeysAt(segments: PropertyKey[]): string[] {
  const shapeOf = (node: unknown): Record<string, unknown> | undefined => {
    let n = node;
    while (n instanceof z.ZodDefault || n instanceof z.ZodPrefault || n instanceof z.ZodOptional)
      n = n.unwrap();
    return n instanceof z.ZodObject ? n.shape : undefined;
  };
  let node: unknown = trainConfigSchema;
  for (const s of segments) node = shapeOf(node)?.[String(s)];
  return Object.keys(shapeOf(node) ?? {});
}

function explain(issue: z.core.$ZodIssue, source: string): string {
  const at = issue.path.map(String).join('.');
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.map((k) => (at ? `${at}.${k}` : k));
    const near =
      issue.keys.length === 1 ? closestName(issue.keys[0] ?? '', knownKeysAt(issue.path)) : undefined;
    const hint = near === undefined ? '' : ` (did you mean "${at ? `${at}.${near}` : near}"?)`;
    return `${source}: unknown key${keys.length > 1 ? 's' : ''} ${keys.map((k) => `"${k}"`).join(', ')}${hint}`;
  }
  return `${source}: key "${at}": ${issue.message}`;
}

/**
 * `cwd`: where relative paths in `overrides` resolve; the CLI passes its working folder, a caller
 * without one gets the config file's folder (as paths inside the file resolve). `file` may be absent
 * (`train --tasks-file SEED` alone: every key at its default; `cwd` is then required); `base` holds
 * values the file and the overrides may set otherwise.
 */
export function loadTrainConfig(
  file: string | undefined,
  overrides: string[] = [],
  cwd = file === undefined ? undefined : path.dirname(path.resolve(file)),
  base: Tree = {},
): LoadedTrainConfig {
  if (cwd === undefined) throw new Error('unreachable: a train config without a file needs a folder');
  const files: string[] = [];
  let tree = deepMerge(base, file === undefined ? {} : loadChain(file, [], files));
  for (const spec of overrides) {
    const { keyPath, value } = parseOverride(spec);
    const over = applyOverride({}, keyPath, value);
    resolvePaths(over, cwd);
    tree = deepMerge(tree, over);
  }
  const parsed = trainConfigSchema.safeParse(tree);
  if (!parsed.success) {
    const named = file === undefined ? 'the train config' : path.resolve(file);
    const source = overrides.length > 0 ? `${named} (with overrides)` : named;
    const issue = parsed.error.issues[0];
    throw new ConfigError(issue ? explain(issue, source) : `${source}: invalid config`);
  }
  return { config: parsed.data, files, hash: sha256Hex(JSON.stringify(hashed(parsed.data))).slice(0, 16) };
}

/**
 * What a run's hash covers: the config, without the environment keys while they are all at their
 * defaults, so a `jsonl` run started before environments existed still resumes.
 */
function hashed(config: TrainConfig): Partial<TrainConfig> {
  const { env, data_dir, split_dir, split_ratio, limit, env_options, ...rest } = config;
  const defaults =
    env === DEFAULT_ENV &&
    data_dir === '' &&
    split_dir === '' &&
    split_ratio.join(':') === '2:1:7' &&
    limit === 0 &&
    Object.keys(env_options).length === 0;
  return defaults ? rest : config;
}
