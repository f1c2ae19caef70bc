/**
 * Rolling a skill out on dataset items: the target answers each item (at most `workers` calls at once)
 * and the answer is scored (exact match + token F1 for answers; rule or rubric judges otherwise).
 * Results are cached by (backend, target model, skill hash, item id): a resumed run reuses a saved rollout
 * only when it was produced with the very same skill. The cache is persisted per skill under `rollouts/`.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Backend } from '../../backends/types.js';
import type { Usage } from '../../core/usage.js';
import { addUsage } from '../../core/usage.js';
import { sha256Hex } from '../../core/hash.js';
import { DEFAULT_FILE_MODE, writeFileAtomicSync } from '../../core/io/atomic-file.js';
import { mapPool } from '../../core/pool.js';
import type { Score } from '../../core/task.js';
import type { ToolSpec } from '../../core/tool-calls.js';
import { qaJudge } from '../../replay/judges/qa-match.js';
import type { ReplayResult } from '../../replay/replay.js';
import { scoreAnswer } from '../../replay/score.js';
import type { DatasetItem } from './dataset.js';
import type { EnvInstance } from '../envs/index.js';
import { envRollout, rollsOut } from './env-rollout.js';

interface Saved {
  response: string;
  /** The declared tools the answer called (absent in rollouts saved before tools existed: none). */
  toolsCalled?: string[];
  hard: number;
  soft: number;
  rationale: string;
  tokens: number;
}

export async function scoreItem(
  item: DatasetItem,
  response: string,
  backend: Backend,
  usage: Usage,
  toolsCalled: string[] = [],
): Promise<Score> {
  if (item.answers.length > 0) return qaJudge(item.answers, response);
  const s = await scoreAnswer(item.task, response, toolsCalled, backend);
  addUsage(usage, s.usage);
  return { hard: s.hard, soft: s.soft, rationale: s.rationale };
}

export class Rollouts {
  private readonly bySkill = new Map<string, Map<string, Saved>>();
  private readonly salt: string;

  private readonly backend: Backend;
  private readonly workers: number;
  readonly usage: Usage;
  /** Where rollouts are persisted (null = memory only, as `eval` does). */
  private readonly dir: string | null;
  /** The tools the target may call (the train and val judges', see `declaredTools`). */
  private readonly tools: readonly ToolSpec[];
  /** The environment, when it rolls items out itself (else the generic attempt and judges). */
  private readonly env: EnvInstance | undefined;

  constructor(
    backend: Backend,
    workers: number,
    usage: Usage,
    targetModel: string,
    dir: string | null,
    tools: readonly ToolSpec[] = [],
    env?: EnvInstance,
  ) {
    this.backend = backend;
    this.env = rollsOut(env) ? env : undefined;
    this.workers = workers;
    this.usage = usage;
    this.dir = dir;
    this.tools = tools;
    // Tools change what a target can answer: rollouts with them are kept apart.
    const toolKey = tools.length === 0 ? '' : `${tools.map((t) => t.name).join(',')}|`;
    // An environment's options change its prompts: its key keeps those rollouts apart too.
    const envKey = this.env ? `env:${this.env.rolloutKey}|` : '';
    this.salt = `${backend.name}|${targetModel}|${toolKey}${envKey}`;
    if (dir && existsSync(dir)) {
      for (const name of readdirSync(dir)) {
        if (!name.endsWith('.json')) continue;
        try {
          const entries = JSON.parse(readFileSync(path.join(dir, name), 'utf8')) as Record<string, Saved>;
          this.bySkill.set(name.slice(0, -'.json'.length), new Map(Object.entries(entries)));
        } catch {
          // A damaged cache file only costs a re-run of those rollouts.
        }
      }
    }
  }

  skillKey(skill: string): string {
    return sha256Hex(this.salt + skill).slice(0, 16);
  }

  async run(items: DatasetItem[], skill: string): Promise<ReplayResult[]> {
    const key = this.skillKey(skill);
    const saved = this.bySkill.get(key) ?? new Map<string, Saved>();
    this.bySkill.set(key, saved);
    let fresh = 0;
    const results = await mapPool(items, this.workers, async (item) => {
      let s = saved.get(item.task.id);
      if (!s && this.env) {
        const r = await envRollout(this.env, this.backend, item, skill, this.usage);
        s = { response: r.response, ...r.score, tokens: r.tokens };
        saved.set(item.task.id, s);
        fresh++;
      }
      if (!s) {
        const attempt = await this.backend.attempt({
          task: item.task,
          skill,
          memory: '',
          sampleId: 0,
          ...(this.tools.length > 0 ? { tools: this.tools } : {}),
        });
        addUsage(this.usage, attempt.usage);
        const score = await scoreItem(item, attempt.response, this.backend, this.usage, attempt.toolsCalled);
        s = {
          response: attempt.response,
          ...(attempt.toolsCalled.length > 0 ? { toolsCalled: attempt.toolsCalled } : {}),
          ...score,
          tokens: attempt.usage.inputTokens + attempt.usage.outputTokens,
        };
        saved.set(item.task.id, s);
        fresh++;
      }
      return s;
    });
    if (fresh > 0 && this.dir) {
      const sorted = Object.fromEntries([...saved.entries()].sort(([a], [b]) => a.localeCompare(b)));
      writeFileAtomicSync(
        path.join(this.dir, `${key}.json`),
        `${JSON.stringify(sorted)}\n`,
        DEFAULT_FILE_MODE,
      );
    }
    return results.map((s, i) => ({
      task: (items[i] as DatasetItem).task,
      response: s.response,
      toolsCalled: s.toolsCalled ?? [],
      hard: s.hard,
      soft: s.soft,
      rationale: s.rationale,
      latencyMs: 0,
      tokens: s.tokens,
    }));
  }
}
