/** Flags shared by commands, and the mapping from typed flags to config keys (only typed flags override). */
import { InvalidArgumentError, Option, type Command } from 'commander';
import {
  BACKENDS,
  GATE_METRICS,
  MAX_LIFT_SAMPLES,
  SCOPES,
  SOURCE_ALIASES,
  TRANSCRIPT_SOURCES,
} from '../config/choices.js';
import type { Config } from '../config/schema.js';

/** A number typed as an option value; blank text is not 0 (Number('') is). */
const typedNumber = (value: string): number => (value.trim() === '' ? NaN : Number(value));

/** A whole number ≥ min written in digits (not '', '1e3' or beyond what is exactly representable). */
export const intArg =
  (name: string, min = 0) =>
  (value: string): number => {
    const n = /^\s*[+-]?\d+\s*$/.test(value) ? Number(value) : NaN;
    if (!Number.isInteger(n) || n < min)
      throw new InvalidArgumentError(`${name} must be a whole number ≥ ${min}`);
    if (!Number.isSafeInteger(n))
      throw new InvalidArgumentError(`${name} must be at most ${Number.MAX_SAFE_INTEGER}`);
    return n;
  };

/** `--samples <n>`: 1 to MAX_LIFT_SAMPLES (each sample replays every compared task twice). */
export const samplesArg = (value: string): number => {
  const n = intArg('--samples', 1)(value);
  if (n > MAX_LIFT_SAMPLES) throw new InvalidArgumentError(`--samples must be at most ${MAX_LIFT_SAMPLES}`);
  return n;
};

const fractionArg =
  (name: string) =>
  (value: string): number => {
    const n = typedNumber(value);
    if (!Number.isFinite(n) || n < 0 || n > 1)
      throw new InvalidArgumentError(`${name} must be a number from 0 to 1`);
    return n;
  };

/**
 * `--project` and `--json`, and `--backend`/`--progress` only for commands where a model runs or phases
 * are printed (the table of common flags in docs/commands.md is checked against these).
 */
export function addCommonOptions(cmd: Command, ...extra: Array<'backend' | 'progress'>): Command {
  cmd.option('--project <dir>', 'project folder (default: the current folder)');
  if (extra.includes('backend'))
    cmd.addOption(
      new Option('--backend <name>', "model backend (default: the config's backend, else mock)").choices([
        ...BACKENDS,
      ]),
    );
  cmd.option('--json', 'print one JSON object on stdout (logs stay on stderr)');
  if (extra.includes('progress')) cmd.option('--progress', 'print phase lines on stderr');
  return cmd;
}

/** Each night option: its flag, the config key it sets, and how to parse it. */
const choiceArg =
  (name: string, choices: readonly string[], aliases: Readonly<Record<string, string>> = {}) =>
  (value: string): string => {
    const v = aliases[value] ?? value;
    if (!choices.includes(v)) throw new InvalidArgumentError(`${name} must be one of: ${choices.join(', ')}`);
    return v;
  };

const NIGHT_OPTIONS: Array<{
  flags: string;
  key: keyof Config;
  help: string;
  parse?: (v: string, previous: unknown) => unknown;
  /** The values `--help` lists and shell completion offers (`parse` still checks, with its message). */
  choices?: readonly string[];
  /** The value a switch sets (default: true); `--allow-regression` sets its key false. */
  sets?: unknown;
  /** The attribute of an option it cannot be given with. */
  conflicts?: string;
}> = [
  {
    flags: '--source <name>',
    key: 'transcript_source',
    help: 'agents to harvest (default all)',
    parse: choiceArg('--source', TRANSCRIPT_SOURCES, SOURCE_ALIASES),
    choices: TRANSCRIPT_SOURCES,
  },
  {
    flags: '--scope <scope>',
    key: 'scope',
    help: 'sessions of this project folder and below (invoked, default) or of every folder (all)',
    parse: choiceArg('--scope', SCOPES),
    choices: SCOPES,
  },
  {
    flags: '--edit-budget <n>',
    key: 'edit_budget',
    help: 'most edits the night may apply (default 4)',
    parse: intArg('--edit-budget'),
  },
  {
    flags: '--target-skill-path <file>',
    key: 'target_skill_path',
    help: 'skill file to train (relative to the project)',
  },
  {
    flags: '--seed <n>',
    key: 'seed',
    help: 'seed of the train/val/test split (default 42)',
    parse: intArg('--seed'),
  },
  {
    flags: '--val-fraction <x>',
    key: 'val_fraction',
    help: 'share of tasks set aside for validation, where the gate scores edits (default 0.34)',
    parse: fractionArg('--val-fraction'),
  },
  {
    flags: '--test-fraction <x>',
    key: 'test_fraction',
    help: 'share held out for the test, scored before and after and never seen by the gate (default 0)',
    parse: fractionArg('--test-fraction'),
  },
  {
    flags: '--gate-mixed-weight <x>',
    key: 'gate_mixed_weight',
    help: 'soft-score weight of the mixed metric (default 0.5)',
    parse: fractionArg('--gate-mixed-weight'),
  },
  {
    flags: '--gate-no-regression',
    key: 'gate_no_regression',
    help: 'refuse edits that make any validation task worse (the default; for a config that turned it off)',
  },
  {
    flags: '--allow-regression',
    key: 'gate_no_regression',
    help: 'let the net validation score decide alone, even when a task gets worse (the report names it)',
    sets: false,
    conflicts: 'gateNoRegression',
  },
  {
    flags: '--samples <n>',
    key: 'lift_samples',
    help: `attempts per task and side in the night's paired comparison of the live skill and the candidate (default 1, at most ${MAX_LIFT_SAMPLES})`,
    parse: samplesArg,
  },
  {
    flags: '--max-tasks <n>',
    key: 'max_tasks_per_night',
    help: 'most recurring tasks per night (default 40)',
    parse: intArg('--max-tasks'),
  },
  {
    flags: '--max-sessions <n>',
    key: 'max_sessions_per_night',
    help: 'most sessions mined per night, newest first (default 5000)',
    parse: intArg('--max-sessions'),
  },
  {
    flags: '--lookback-hours <n>',
    key: 'lookback_hours',
    help: 'before the first adoption, only tasks active in the last N hours; 0 = all history (default 72)',
    parse: intArg('--lookback-hours'),
  },
  {
    flags: '--multi-skill-fanout',
    key: 'multi_skill_fanout',
    help: 'also train each skill the sessions used, against its own SKILL.md (per-skill proposals)',
  },
  {
    flags: '--skill-root <dir>',
    key: 'skill_roots',
    help: 'extra folder of <name>/SKILL.md skills for --multi-skill-fanout (repeatable)',
    parse: (v: string, previous: unknown): string[] => [
      ...(Array.isArray(previous) ? previous.filter((p): p is string => typeof p === 'string') : []),
      v,
    ],
  },
  {
    flags: '--skill <path>',
    key: 'skills',
    help: 'train your own skill whole: its SKILL.md (or folder) and references/ (repeatable; relative to the project)',
    parse: (v: string, previous: unknown): string[] => [
      ...(Array.isArray(previous) ? previous.filter((p): p is string => typeof p === 'string') : []),
      v,
    ],
  },
  { flags: '--preferences <text>', key: 'preferences', help: 'house rules shown to the optimizer' },
  { flags: '--model <name>', key: 'model', help: "model of both roles (default: the backend's)" },
  {
    flags: '--optimizer-backend <name>',
    key: 'optimizer_backend',
    help: 'backend that reflects and judges (default: --backend)',
    parse: choiceArg('--optimizer-backend', BACKENDS),
    choices: BACKENDS,
  },
  { flags: '--optimizer-model <name>', key: 'optimizer_model', help: 'model of the optimizer role' },
  {
    flags: '--target-backend <name>',
    key: 'target_backend',
    help: 'backend that attempts the tasks (default: --backend)',
    parse: choiceArg('--target-backend', BACKENDS),
    choices: BACKENDS,
  },
  { flags: '--target-model <name>', key: 'target_model', help: 'model of the target role' },
  {
    flags: '--base-url <url>',
    key: 'base_url',
    help: 'API base URL (OpenAI-compatible server, Anthropic proxy) or the azure-openai endpoint',
  },
  {
    flags: '--max-calls <n>',
    key: 'max_calls',
    help: 'hard limit of model requests this night, retries included (default 400)',
    parse: intArg('--max-calls'),
  },
  {
    flags: '--max-tokens <n>',
    key: 'max_tokens',
    help: 'hard limit of tokens this night (default 2000000)',
    parse: intArg('--max-tokens'),
  },
  {
    flags: '--max-cost-usd <x>',
    key: 'max_cost_usd',
    help: "hard limit of this night's model cost in USD (default 5)",
    parse: (v: string): number => {
      const n = typedNumber(v);
      if (!Number.isFinite(n) || n < 0) throw new InvalidArgumentError('--max-cost-usd must be a number ≥ 0');
      return n;
    },
  },
  {
    flags: '--batch',
    key: 'batch',
    help: 'openai/azure-openai/anthropic: each round as one batch at half price; `run` again until it finishes',
  },
  {
    flags: '--workers <n>',
    key: 'workers',
    help: 'most model requests in flight at once (default 4)',
    parse: intArg('--workers', 1),
  },
];

/** The night options of the commands that mine as a night would without training (`harvest`, `export`). */
export const MINING_KEYS = [
  'transcript_source',
  'scope',
  'seed',
  'val_fraction',
  'test_fraction',
  'max_tasks_per_night',
  'max_sessions_per_night',
  'lookback_hours',
] as const satisfies ReadonlyArray<keyof Config>;

/** What selects the sessions `lessons` mines (lessons do not depend on the split or the active window). */
export const LESSON_KEYS = [
  'transcript_source',
  'scope',
  'max_sessions_per_night',
] as const satisfies ReadonlyArray<keyof Config>;

/** Add the night options (all of them, or just `only`) to a command. */
export function addNightOptions(cmd: Command, only?: ReadonlyArray<keyof Config>): Command {
  for (const o of NIGHT_OPTIONS) {
    if (only && !only.includes(o.key)) continue;
    const opt = new Option(o.flags, o.help);
    // Choices first: `argParser` replaces the check they install, and keeps them for help and completion.
    if (o.choices) opt.choices(o.choices);
    if (o.parse) opt.argParser(o.parse);
    if (o.conflicts) opt.conflicts(o.conflicts);
    cmd.addOption(opt);
  }
  if (only) return cmd;
  cmd.addOption(
    new Option('--gate-metric <metric>', 'score the gate compares (default mixed)').choices([
      ...GATE_METRICS,
    ]),
  );
  return cmd;
}

const attributeName = (flags: string): string =>
  (flags.split(/[ ,]+/).find((f) => f.startsWith('--')) ?? '')
    .slice(2)
    .replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/** The options `typedNightArgs` renders, in its order. */
const NIGHT_ARGS = [
  { flags: '--backend <name>' },
  { flags: '--gate-metric <metric>' },
  ...NIGHT_OPTIONS,
  { flags: '--auto-adopt' },
];

/** The attribute names of the options `typedNightArgs` renders. */
export const nightArgAttributes = (): string[] => NIGHT_ARGS.map((o) => attributeName(o.flags));

/**
 * The night options typed on this command, as arguments for `run` (what `schedule` records so a
 * scheduled night is the night the user asked for).
 */
export function typedNightArgs(cmd: Command): string[] {
  const args: string[] = [];
  const opts = cmd.opts<Record<string, unknown>>();
  const typed = (attr: string): boolean => cmd.getOptionValueSource(attr) === 'cli';
  const flagOf = (flags: string): string => flags.split(/[ ,]+/).find((f) => f.startsWith('--')) ?? '';
  for (const o of NIGHT_ARGS) {
    const attr = attributeName(o.flags);
    if (!cmd.options.some((opt) => opt.attributeName() === attr) || !typed(attr)) continue;
    const value = opts[attr];
    if (value === true) args.push(flagOf(o.flags));
    else if (Array.isArray(value)) for (const v of value) args.push(flagOf(o.flags), String(v));
    else if (typeof value === 'string' || typeof value === 'number')
      args.push(flagOf(o.flags), String(value));
  }
  return args;
}

/** The option that sets a config key on `run`/`dry-run`, if there is one (for messages). */
export function flagForKey(key: keyof Config): string | undefined {
  const extra: Partial<Record<keyof Config, string>> = {
    backend: '--backend',
    gate_metric: '--gate-metric',
    auto_adopt: '--auto-adopt',
    // On by default: the option a message names is the one that turns it off.
    gate_no_regression: '--allow-regression',
  };
  const night = NIGHT_OPTIONS.find((o) => o.key === key);
  return extra[key] ?? (night ? night.flags.split(' ')[0] : undefined);
}

/** The config overrides the user actually typed on the command line. */
export function typedConfigFlags(cmd: Command): Partial<Config> {
  const out: Record<string, unknown> = {};
  const opts = cmd.opts<Record<string, unknown>>();
  const typed = (attr: string): boolean => cmd.getOptionValueSource(attr) === 'cli';
  if (typed('backend')) out.backend = opts.backend;
  if (typed('gateMetric')) out.gate_metric = opts.gateMetric;
  if (typed('autoAdopt')) out.auto_adopt = opts.autoAdopt === true;
  for (const o of NIGHT_OPTIONS) {
    const attr = attributeName(o.flags);
    if (cmd.options.some((opt) => opt.attributeName() === attr) && typed(attr))
      out[o.key] = o.sets !== undefined ? o.sets : opts[attr];
  }
  return out;
}
