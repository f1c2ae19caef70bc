/**
 * The one source of truth for configuration keys, their types, defaults and help text.
 * Key names follow the reference (microsoft/SkillOpt's SkillOpt-Sleep) where they mean the same thing.
 */
import { z } from 'zod';

import {
  BACKENDS,
  GATE_METRICS,
  HARVEST_SOURCES,
  MAX_LIFT_SAMPLES,
  SCOPES,
  SOURCE_ALIASES,
  TRANSCRIPT_SOURCES,
} from './choices.js';

export {
  BACKENDS,
  GATE_METRICS,
  HARVEST_SOURCES,
  SCOPES,
  TRANSCRIPT_SOURCES,
  type BackendName,
  type GateMetric,
  type TranscriptSource,
} from './choices.js';

/** The reference's spellings of source names (`copilot_cli`, `cursor`, `auto`). */
const sourceAlias = (v: unknown): unknown => (typeof v === 'string' ? (SOURCE_ALIASES[v] ?? v) : v);

/**
 * A user's redaction pattern: a regular expression (JavaScript syntax), alone or named; the name is the
 * kind the redaction report counts it under. Checked when the config is read: it must compile and must
 * not match the empty string (it would mark every position of every text).
 */
const redactPatternSchema = z
  .union([
    z.string().min(1),
    z
      .object({
        name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'a short name of letters, digits, . _ -'),
        regex: z.string().min(1),
      })
      .strict(),
  ])
  .superRefine((value, ctx) => {
    const source = typeof value === 'string' ? value : value.regex;
    const problem = regexProblem(source);
    if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
  });

/** Why `source` cannot be a redaction pattern, or null. */
export function regexProblem(source: string): string | null {
  let re: RegExp;
  try {
    re = new RegExp(source, 'g');
  } catch (err) {
    return `not a valid regular expression: ${err instanceof Error ? err.message : String(err)}`;
  }
  if (re.test('')) return `the regular expression ${JSON.stringify(source)} matches the empty string`;
  return null;
}

const fraction = z.number().min(0).max(1);
const count = z.number().int().min(0);
/** '' = use `backend` / `model`. */
const roleBackend = z.enum(['', ...BACKENDS]);
const priceSchema = z
  .object({ input_per_mtok: z.number().min(0), output_per_mtok: z.number().min(0) })
  .strict();

export const configSchema = z
  .object({
    backend: z.enum(BACKENDS).default('mock').describe('Model backend for replay and reflection.'),
    model: z.string().default('').describe('Model name for the backend ("" = its default).'),
    optimizer_backend: roleBackend.default('').describe('Backend that reflects and judges ("" = backend).'),
    optimizer_model: z.string().default('').describe('Model of the optimizer role ("" = model).'),
    target_backend: roleBackend.default('').describe('Backend that attempts the tasks ("" = backend).'),
    target_model: z.string().default('').describe('Model of the target role ("" = model).'),
    base_url: z
      .string()
      .default('')
      .describe(
        'API base URL for openai/anthropic (OpenAI-compatible servers); the endpoint for azure-openai.',
      ),
    optimizer_base_url: z.string().default('').describe('Base URL of the optimizer role ("" = base_url).'),
    target_base_url: z.string().default('').describe('Base URL of the target role ("" = base_url).'),
    api_key_env: z
      .string()
      .regex(/^$|^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name')
      .default('')
      .describe('Environment variable holding the API key ("" = OPENAI_API_KEY, ANTHROPIC_API_KEY, ...).'),
    azure_api_version: z.string().default('2024-10-21').describe('API version for azure-openai.'),
    claude_path: z.string().min(1).default('claude').describe('Claude Code executable for claude-code.'),
    codex_path: z.string().min(1).default('codex').describe('Codex executable for codex.'),
    request_timeout_s: z.number().positive().default(120).describe('Timeout of one API request, seconds.'),
    cli_timeout_s: z.number().positive().default(300).describe('Timeout of one agent CLI run, seconds.'),
    max_retries: count.default(4).describe('Retries of a request after 429, 5xx or a network error.'),
    max_calls: count
      .nullable()
      .default(400)
      .describe('Hard limit of model requests a night sends, retries included (null = none).'),
    max_tokens: count
      .nullable()
      .default(2_000_000)
      .describe('Hard limit of tokens (input + output) a night may use (null = none).'),
    max_cost_usd: z
      .number()
      .min(0)
      .nullable()
      .default(5)
      .describe("Hard limit of a night's model cost in USD, from the price table (null = none)."),
    prices: z
      .record(z.string(), priceSchema)
      .default({})
      .describe(
        'USD per million tokens by model, overriding the built-in table: {model: {input_per_mtok, output_per_mtok}}.',
      ),
    confirm_spend: z
      .boolean()
      .default(true)
      .describe('dry-run with a real backend only prints its plan unless --yes is given.'),
    edit_budget: count.default(4).describe('Most edits a night may apply to the skill.'),
    val_fraction: fraction
      .default(0.34)
      .describe('Share of tasks set aside for validation: the gate scores edits on them.'),
    test_fraction: fraction
      .default(0)
      .describe(
        'Share of tasks held out for the test: scored before and after, never seen by reflection or the gate.',
      ),
    gate_metric: z
      .enum(GATE_METRICS)
      .default('mixed')
      .describe('Score the gate compares: hard, soft or mixed.'),
    gate_mixed_weight: fraction.default(0.5).describe('Weight of the soft score in the mixed metric.'),
    gate_no_regression: z
      .boolean()
      .default(true)
      .describe('Refuse edits that make any validation task worse (false = the net score decides alone).'),
    lift_samples: z
      .number()
      .int()
      .min(1)
      .max(MAX_LIFT_SAMPLES)
      .default(1)
      .describe(
        "Attempts per task and side in the night's paired comparison of the live skill and the candidate (a deterministic backend takes 1).",
      ),
    seed: z.number().int().default(42).describe('Seed of the stable train/val/test hash split.'),
    max_tasks_per_night: count.default(40).describe('Most recurring tasks replayed per night.'),
    max_sessions_per_night: count
      .nullable()
      .default(null)
      .describe('Most sessions mined per night, newest first (null = 5000).'),
    lookback_hours: count
      .default(72)
      .describe(
        'Before the first adopted proposal, only tasks active within this many hours count as new (0 = all history, every night).',
      ),
    transcript_source: z
      .preprocess(sourceAlias, z.enum(TRANSCRIPT_SOURCES))
      .default('all')
      .describe(
        'Which agents to harvest: all, claude, codex, copilot, copilot-cli, gemini, pi, cline, roo, cursor-cli, aider, opencode, goose or cursor-ide.',
      ),
    scope: z
      .enum(SCOPES)
      .default('invoked')
      .describe('Sessions of the project folder and below (invoked) or of every folder (all).'),
    target_skill_path: z
      .string()
      .default('')
      .describe('Skill file to train ("" = .claude/skills/<managed_skill_name>/SKILL.md).'),
    managed_skill_name: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'a single folder name of letters, digits, . _ -')
      .default('skillopt-sleep-learned')
      .describe('Name of the skill the tool manages.'),
    preferences: z.string().default('').describe('House rules shown to the optimizer when it reflects.'),
    correction_patterns: z
      .array(
        z
          .object({
            name: z.string().min(1),
            regex: z.string().min(1),
            checks: z
              .array(z.object({ op: z.string(), arg: z.union([z.string(), z.number()]).optional() }))
              .min(1),
          })
          .strict(),
      )
      .default([])
      .describe(
        'Extra phrases that turn a correction into checks: {name, regex, checks: [{op, arg with $1..}]}.',
      ),
    llm_mine: z
      .boolean()
      .default(true)
      .describe(
        'With a real model backend, also ask the optimizer for 0-3 checkable statements per recurring task.',
      ),
    llm_refine: z
      .boolean()
      .default(false)
      .describe(
        "With a real model backend and llm_mine on: label each session's task kind once (stored; kinds take the labels and may merge), and read checks or a rubric from corrections the offline miner could not check.",
      ),
    llm_lessons: z
      .boolean()
      .default(true)
      .describe(
        "With a real model backend: the model reads each session's follow-ups once (stored with the session) and says which are corrections or standing preferences, in the user's words: the night's lessons.",
      ),
    llm_lessons_max_sessions: count
      .default(100)
      .describe(
        'Most sessions a night sends to the lessons pass (newest first; sessions read before cost nothing).',
      ),
    dream_factor: count
      .default(0)
      .describe('Synthetic variants per real train task (train split only; 0 = off).'),
    recall_k: count
      .default(0)
      .describe("Older tasks of the project most similar to tonight's, added to train (0 = off)."),
    batch: z
      .boolean()
      .default(false)
      .describe(
        "openai, azure-openai and anthropic: send each round of a night as one batch to the provider's batch engine (half price, answers within hours); the night spans several `run`s.",
      ),
    auto_adopt: z
      .boolean()
      .default(false)
      .describe("After `run`, adopt the night's proposal at once when the gate accepted it."),
    workers: z
      .number()
      .int()
      .min(1)
      .default(4)
      .describe('Most model requests in flight at once (replays, reflection; real backends enforce it).'),
    dream_rollouts: z
      .number()
      .int()
      .min(1)
      .default(1)
      .describe('Replays per train task; reflection contrasts the best and worst attempt (1 = off).'),
    evolve_skill: z.boolean().default(true).describe('A night trains the skill document.'),
    evolve_memory: z
      .boolean()
      .default(false)
      .describe('A night also trains the memory document (CLAUDE.md, AGENTS.md...); opt-in.'),
    memory_target: z
      .string()
      .min(1)
      .default('auto')
      .describe(
        'Memory document: "auto" (each lesson to the file of the agent whose sessions taught it: CLAUDE.md for Claude Code, AGENTS.md for Codex, .github/copilot-instructions.md for Copilot, GEMINI.md, Cursor\'s .cursor/rules/*.mdc...; AGENTS.md when several agents taught it) or one path relative to the project (a .cursor/rules/*.mdc or .github/instructions/*.instructions.md keeps its frontmatter).',
      ),
    multi_skill_fanout: z
      .boolean()
      .default(false)
      .describe(
        'Also train each skill the sessions used against its own SKILL.md and stage per-skill proposals (opt-in).',
      ),
    skill_roots: z
      .array(z.string().min(1))
      .default([])
      .describe(
        'Extra folders holding <name>/SKILL.md skills for multi_skill_fanout (relative to the project).',
      ),
    skills: z
      .array(z.string().min(1))
      .default([])
      .describe(
        "Your own skills to train, whole: each a SKILL.md or its folder (relative to the project; inside it or a skill root). Replaces the managed skill's learned block as the night's skill target.",
      ),
    skill_token_budget: z
      .number()
      .int()
      .min(1)
      .default(5000)
      .describe(
        "Most tokens (estimated: a CJK character 1, four other characters 1) a named skill's SKILL.md body may reach; an edit that would cross it must delete or merge first.",
      ),
    skill_inline_reference_tokens: z
      .number()
      .int()
      .min(0)
      .default(2000)
      .describe(
        "A named skill's references/*.md of at most this many tokens are shown to the target and trained; larger ones are only named.",
      ),
    exclude_paths: z
      .array(z.string().min(1))
      .default([])
      .describe(
        'Globs over session working folders never harvested (a folder and everything below it; ~ is your home), e.g. "~/work/client-*".',
      ),
    include_paths: z
      .array(z.string().min(1))
      .default([])
      .describe('When set, only sessions whose working folder matches one of these globs are harvested.'),
    exclude_sources: z
      .array(z.preprocess(sourceAlias, z.enum(HARVEST_SOURCES)))
      .default([])
      .describe(
        'Sources never harvested: claude, codex, copilot, copilot-cli, gemini, pi, cline, roo, cursor-cli, aider, opencode, goose, cursor-ide.',
      ),
    retention_days: z
      .number()
      .int()
      .min(1)
      .nullable()
      .default(null)
      .describe(
        'Stored sessions that ended more than this many days ago are forgotten at each harvest (null = keep).',
      ),
    redact_patterns: z
      .array(redactPatternSchema)
      .default([])
      .describe(
        'Your own regular expressions redacted from every stored text, after the built-in redactor: "regex" or {name, regex}.',
      ),
    adopt_commit: z
      .boolean()
      .default(false)
      .describe('adopt commits exactly the files it changed with git (like adopt --commit).'),
  })
  .strict();

export type Config = z.infer<typeof configSchema>;
export type ConfigKey = keyof Config;

export const CONFIG_KEYS = Object.keys(configSchema.shape) as ConfigKey[];

export function defaultConfig(): Config {
  return configSchema.parse({});
}

/** Check cross-key rules the per-key schema cannot express. Returns problems as [the keys involved, message]. */
export function crossKeyProblems(config: Config): Array<[ConfigKey[], string]> {
  const problems: Array<[ConfigKey[], string]> = [];
  if (config.val_fraction + config.test_fraction >= 1) {
    problems.push([['test_fraction', 'val_fraction'], 'val_fraction + test_fraction must be below 1']);
  }
  return problems;
}
