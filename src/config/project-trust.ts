/**
 * What a project's `.skillopt-sleep/config.json` may set. That file arrives with a `git clone` or a
 * `git pull`, so it is untrusted: it may choose what to mine, gate settings, budgets lower than the
 * user's and numbers up to a ceiling, but never where data goes, which key is sent, which program runs,
 * which files outside the project are read or written, or a looser limit. Those come only from the
 * user's own config or flags.
 */
import { realpathSync } from 'node:fs';
import path from 'node:path';
import type { Config, ConfigKey } from './schema.js';
import { errnoCode } from '../core/errors.js';

export type ProjectRule =
  /** Cannot move data or code across the project's boundary. */
  | { kind: 'any' }
  /**
   * A number that cannot move data either, but that a night's work grows with: at most `max` (or the
   * value the user's layers give, when higher), so a clone cannot make a night that never ends.
   */
  | { kind: 'upTo'; max: number }
  /** Only the user's config or flags; `why` completes "it ...". */
  | { kind: 'user'; why: string }
  /** A limit (null = none): the project may only lower the user's value. */
  | { kind: 'lower' }
  /** The project may set only `safe`, or the value the user's layers already give. */
  | { kind: 'tighten'; safe: unknown; why: string }
  /** A path, or paths, that must resolve inside the project (symlinks included). */
  | { kind: 'inside'; unset?: string };

const ANY = { kind: 'any' } as const;
const upTo = (max: number): ProjectRule => ({ kind: 'upTo', max });
const LOWER = { kind: 'lower' } as const;
const user = (why: string): ProjectRule => ({ kind: 'user', why });
const WHERE = user('chooses where your data is sent');
const PROGRAM = user('chooses which program runs');
const HARVEST = user(
  "decides what is read of every project's sessions (a repository opts out with .skillopt-sleep-ignore)",
);

/** Every key, so a new key cannot be added without deciding whether a project may set it. */
export const PROJECT_RULES: Readonly<Record<ConfigKey, ProjectRule>> = {
  backend: WHERE,
  optimizer_backend: WHERE,
  target_backend: WHERE,
  base_url: WHERE,
  optimizer_base_url: WHERE,
  target_base_url: WHERE,
  api_key_env: user('chooses which secret is sent'),
  azure_api_version: user('shapes the requests sent to your Azure endpoint'),
  // The model is billed to the user's account, and an unpriced one counts $0 against max_cost_usd.
  model: user('chooses what your account is billed for'),
  optimizer_model: user('chooses what your account is billed for'),
  target_model: user('chooses what your account is billed for'),
  prices: user('sets what max_cost_usd counts'),
  claude_path: PROGRAM,
  codex_path: PROGRAM,
  max_calls: LOWER,
  max_tokens: LOWER,
  max_cost_usd: LOWER,
  max_retries: LOWER,
  workers: LOWER,
  request_timeout_s: LOWER,
  cli_timeout_s: LOWER,
  confirm_spend: { kind: 'tighten', safe: true, why: 'spends without asking' },
  auto_adopt: { kind: 'tighten', safe: false, why: 'changes live files without your review' },
  // A batch night uploads its requests to the provider's batch storage and keeps the night open for
  // up to a day: how the user's data is sent and when nights finish is the user's choice.
  batch: { kind: 'tighten', safe: false, why: "stores the night's requests with your provider for a day" },
  adopt_commit: { kind: 'tighten', safe: false, why: 'makes adopt commit with git' },
  multi_skill_fanout: {
    kind: 'tighten',
    safe: false,
    why: 'makes skills outside the project (~/.claude/skills) targets',
  },
  scope: { kind: 'tighten', safe: 'invoked', why: "mines other folders' sessions into this project" },
  target_skill_path: { kind: 'inside', unset: '' },
  memory_target: { kind: 'inside', unset: 'auto' },
  skill_roots: { kind: 'inside' },
  skills: { kind: 'inside' },
  skill_token_budget: upTo(20000),
  skill_inline_reference_tokens: upTo(20000),
  // Harvesting is one pass over every project's sessions: a repository opts out of it with its own
  // `.skillopt-sleep-ignore` file, never through keys that reach other projects.
  exclude_paths: HARVEST,
  include_paths: HARVEST,
  exclude_sources: HARVEST,
  retention_days: user('deletes the stored sessions of every project'),
  redact_patterns: user('runs its regular expressions over every stored text'),
  // Every number a project may set has a ceiling: each of these multiplies a night's replays or reads.
  edit_budget: upTo(16),
  val_fraction: upTo(1),
  test_fraction: upTo(1),
  gate_metric: ANY,
  gate_mixed_weight: upTo(1),
  // On by default: a repository may not let its proposals make a task worse unseen.
  gate_no_regression: { kind: 'tighten', safe: true, why: 'lets a proposal make a task worse' },
  lift_samples: upTo(4),
  seed: upTo(2_147_483_647),
  max_tasks_per_night: upTo(400),
  max_sessions_per_night: upTo(20_000),
  lookback_hours: upTo(87_600),
  transcript_source: ANY,
  managed_skill_name: ANY,
  preferences: ANY,
  correction_patterns: ANY,
  llm_mine: ANY,
  llm_refine: ANY,
  llm_lessons: ANY,
  // More sessions sent costs the user: a project may only ask for fewer.
  llm_lessons_max_sessions: LOWER,
  dream_factor: upTo(8),
  recall_k: upTo(50),
  dream_rollouts: upTo(8),
  evolve_skill: ANY,
  evolve_memory: ANY,
};

export interface ProjectRefusal {
  key: ConfigKey;
  /** Why, as the end of "may not set "<key>" ...". */
  reason: string;
}

const limit = (v: unknown): number => (typeof v === 'number' ? v : Infinity);

/** True when `target` is strictly below `project`, as written and with symlinks resolved. */
export function resolvesInside(target: string, project: string): boolean {
  const below = (child: string, parent: string): boolean => {
    const rel = path.relative(parent, child);
    return rel !== '' && rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel);
  };
  if (!below(target, project)) return false;
  let realProject: string;
  try {
    realProject = realpathSync(project);
  } catch {
    return false;
  }
  // The nearest existing ancestor, resolved, with the missing tail appended: a symlink the
  // repository ships (`skills -> /home/me/.ssh`) is followed before anything is read through it.
  const missing: string[] = [];
  for (let current = target; ; current = path.dirname(current)) {
    try {
      return below(path.join(realpathSync(current), ...missing.reverse()), realProject);
    } catch (err) {
      const code = errnoCode(err);
      if ((code !== 'ENOENT' && code !== 'ENOTDIR') || path.dirname(current) === current) return false;
      missing.push(path.basename(current));
    }
  }
}

/**
 * The keys of a project layer (already type-checked) the project may not set, given `below`, the
 * config of the defaults and the user's own file. Nothing but the paths themselves is read.
 */
export function projectConfigRefusals(
  values: Readonly<Record<string, unknown>>,
  below: Config,
  project: string,
): ProjectRefusal[] {
  const refusals: ProjectRefusal[] = [];
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined || !(key in PROJECT_RULES)) continue;
    const k = key as ConfigKey;
    const rule = PROJECT_RULES[k];
    const mine = below[k];
    switch (rule.kind) {
      case 'any':
        break;
      case 'user':
        refusals.push({ key: k, reason: `(it ${rule.why})` });
        break;
      case 'upTo':
        // null (the built-in default) is always allowed; a user's own higher value is trusted.
        if (typeof value === 'number' && value > Math.max(rule.max, typeof mine === 'number' ? mine : 0))
          refusals.push({
            key: k,
            reason: `to ${JSON.stringify(value)} (a project may set at most ${rule.max.toLocaleString('en-US')})`,
          });
        break;
      case 'lower':
        if (limit(value) > limit(mine))
          refusals.push({
            key: k,
            reason: `to ${JSON.stringify(value)} (a project may only lower your limit, ${JSON.stringify(mine)})`,
          });
        break;
      case 'tighten':
        if (value !== rule.safe && value !== mine)
          refusals.push({ key: k, reason: `to ${JSON.stringify(value)} (it ${rule.why})` });
        break;
      case 'inside': {
        const paths: unknown[] = Array.isArray(value) ? value : [value];
        const outside = paths.find(
          (p) =>
            typeof p === 'string' && p !== rule.unset && !resolvesInside(path.resolve(project, p), project),
        );
        if (outside !== undefined)
          refusals.push({
            key: k,
            reason: `to ${JSON.stringify(outside)} (outside the project, or through a symlink that leads out)`,
          });
        break;
      }
    }
  }
  return refusals;
}

/** One line: which keys, why, and where to put them if the user trusts the project. */
export function projectRefusalMessage(
  file: string,
  refusals: readonly ProjectRefusal[],
  userConfig: string,
  flagFor: (key: ConfigKey) => string | undefined = () => undefined,
): string {
  const keys = refusals.map((r) => `"${r.key}" ${r.reason}`).join(', ');
  const flags = refusals.map((r) => flagFor(r.key)).filter((f): f is string => f !== undefined);
  const where = `your own config ${userConfig}${flags.length > 0 ? ` (or the option ${flags.join(', ')})` : ''}`;
  return `${file}: a project's config (it arrives with the repository) may not set ${keys}; nothing was run or sent. If you trust this project, put ${refusals.length === 1 ? 'it' : 'them'} in ${where}`;
}
