/**
 * A benchmark environment for `train` and `eval`: where its items come from (a folder of the public
 * dataset's own files, as a user downloads them; nothing is downloaded at run time), how one item is
 * rolled out on the target (one conversation, or an episode the environment drives turn by turn), how
 * an answer is scored (as the benchmark's own scorer does), its options, default config and initial
 * skill. The registry is `index.ts`; the batch trainer reaches an environment only through this file.
 *
 * Stable: other environments build on it; change it only by adding.
 */
import type { z } from 'zod';
import type { ChatImage } from '../../core/chat-image.js';
import type { Logger } from '../../core/logger.js';
import type { Score } from '../../core/task.js';
import type { Dataset, DatasetItem } from '../batch/dataset.js';

/** One message of a conversation with the target; `images` only for targets that take them. */
export interface EnvMessage {
  role: 'user' | 'assistant';
  content: string;
  images?: ChatImage[];
}

/** What the target is sent: the system prompt (which carries the skill) and the turns so far. */
export interface EnvConversation {
  system: string;
  messages: EnvMessage[];
}

/** The target as an environment sees it: one reply to the conversation so far. */
export interface EnvTarget {
  reply(conversation: EnvConversation): Promise<string>;
}

/** What an episode (the multi-turn hook) ends with. */
export interface EnvEpisode {
  /** The transcript reflection reads (what the agent did and saw), and what the rollout cache keeps. */
  response: string;
  /** The score when the environment decides it (a simulator's "won"); else `score` reads `response`. */
  score?: Score;
}

/** What `open` is given: the config's `data_dir`, `split_dir`, `env_options` (unparsed), seed and limit. */
export interface EnvSetup {
  /** `data.path`: one dataset file (the `jsonl` environment's); "" when the config names none. */
  dataPath: string;
  /** The folder of the benchmark's files as downloaded (absolute; "" when the config names none). */
  dataDir: string;
  /** The reference's split manifest folder (`train/`, `val/`, `test/` each with a JSON list of ids); "" = none. */
  splitDir: string;
  /** `env_options` of the config: the environment's zod schema parses it (unknown keys are errors). */
  options: Record<string, unknown>;
  /** The run's seed (the ratio split without a manifest, per-item shuffles). */
  seed: number;
  /** `split_ratio` of the config: train:val:test shares used when there is no manifest. */
  splitRatio: readonly [number, number, number];
  /** Keep at most this many items per split (0 = all). */
  limit: number;
  logger: Logger;
}

/** The items of an environment, split, and a digest of what was read (a resumed run must be of the same data). */
export interface LoadedEnv {
  data: Dataset;
  digest: string;
}

/**
 * An environment opened on a data folder with parsed options. It rolls an item out with `prompt`
 * (single turn) or `episode` (multi-turn); with neither, the item goes through the generic attempt and
 * judges (`Backend.attempt`, exact/F1, rules, rubric: the `jsonl` environment).
 */
export interface EnvInstance {
  /** Read and split the items (a clear `InputError` naming the file and field on bad data). */
  load(): Promise<LoadedEnv>;
  /**
   * Single-turn rollout: the conversation an item starts with; the target answers it once. It may be
   * a promise (an image read from its file when the item is rolled out).
   */
  prompt?(item: DatasetItem, skill: string): EnvConversation | Promise<EnvConversation>;
  /** Multi-turn hook: the environment drives the target itself (ALFWorld); used instead of `prompt`. */
  episode?(item: DatasetItem, skill: string, target: EnvTarget): Promise<EnvEpisode>;
  /** The benchmark's own scoring of a final answer: hard (the headline metric) and soft. Required with `prompt`. */
  score?(item: DatasetItem, response: string): Score;
  /** Output tokens one target reply may use. */
  readonly maxTokens: number;
  /** True when its prompts carry images: only a target that takes images can run it. */
  readonly needsImages: boolean;
  /** A key of whatever changes a rollout besides the item and the skill (options): salts the rollout cache. */
  readonly rolloutKey: string;
}

export interface Environment {
  /** The `env:` value that selects it. */
  readonly name: string;
  /** One line: the benchmark and what the target does. */
  readonly summary: string;
  /** One line: which files `data_dir` holds and where to get them (`train --list-envs`). */
  readonly dataHint: string;
  /** True when a run can go without `data_dir` (ALFWorld: a manifest names the games, the server has them). */
  readonly dataDirOptional?: boolean;
  /** The skill a run starts from when the config's `skill.init` is empty. */
  readonly initialSkill: string;
  /** `env_options` it takes, with defaults (a strict object: an unknown key is an error). */
  readonly optionsSchema: z.ZodType<Record<string, unknown>>;
  open(setup: EnvSetup): EnvInstance;
}
