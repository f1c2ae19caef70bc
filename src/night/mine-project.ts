/** From stored sessions to split task instances for one project: what `harvest` previews and a night trains on. */
import type { Clock } from '../core/clock.js';
import type { TaskRecord } from '../core/task.js';
import type { Config } from '../config/schema.js';
import { mineSessions } from '../miner/mine.js';
import { compileUserPatterns, type CorrectionPattern } from '../miner/correction-patterns.js';
import { ConfigError } from '../core/errors.js';
import { assignSplitsWithinGroups } from '../miner/split.js';
import type { Cluster } from '../miner/types.js';
import type { Db } from '../store/db.js';
import { nightsForProject } from '../store/nights-repo.js';
import { querySessions } from '../store/sessions-repo.js';
import { dreamVariants, recallSimilar } from '../trainer/dream.js';

export interface ProjectTasks {
  tasks: TaskRecord[];
  clusters: Cluster[];
  /** Sessions of the project considered (the whole stored history, newest first, capped). */
  nSessions: number;
  /** Tasks count as active when a session of theirs ended at or after this time (null = all). */
  activeSince: number | null;
}

/** Instances of one recurring task share its cluster id, so the split puts some in train and some in val. */
const clusterOf = (t: TaskRecord): string => t.derived_from || t.id;

/**
 * New activity: since the previous completed night of the project, or within `lookback_hours` on its
 * first night. Recurring tasks still draw their instances from the whole stored history.
 */
export function activeSince(
  db: Db,
  project: string,
  config: Config,
  clock: Clock,
  ignoreLookback: boolean,
): number | null {
  if (ignoreLookback) return null;
  const previous = nightsForProject(db, project, 20).find((n) => n.status === 'completed');
  if (previous) return previous.started_at;
  return config.lookback_hours === 0 ? null : clock.now() - config.lookback_hours * 3_600_000;
}

/** The config's extra correction patterns, compiled; a bad one is a config error naming the key. */
function configPatterns(config: Config): CorrectionPattern[] {
  try {
    return compileUserPatterns(config.correction_patterns);
  } catch (err) {
    throw new ConfigError(`key "correction_patterns": ${(err as Error).message}`);
  }
}

/** Phase one of mining: the project's recurring tasks and their heuristic instances, before any split. */
export interface MinedProject {
  clusters: Cluster[];
  /** Instances of the kept clusters (unsplit). */
  instances: TaskRecord[];
  /** Instances of older clusters, for recall. */
  archive: TaskRecord[];
  nSessions: number;
  activeSince: number | null;
}

export function mineProjectClusters(
  db: Db,
  project: string,
  config: Config,
  clock: Clock,
  ignoreLookback = false,
): MinedProject {
  const since = activeSince(db, project, config, clock, ignoreLookback);
  const limit = config.max_sessions_per_night ?? config.max_tasks_per_night * 3;
  const sessions = querySessions(db, { project, scope: config.scope, sinceMs: null, limit });
  const mined = mineSessions(sessions, {
    project,
    maxTasks: Number.MAX_SAFE_INTEGER,
    correctionPatterns: configPatterns(config),
  });
  const clusters = mined.clusters
    .filter((c) => since === null || (c.lastSeen ?? 0) >= since)
    .slice(0, config.max_tasks_per_night);
  const kept = new Set(clusters.map((c) => c.id));
  return {
    clusters,
    instances: mined.tasks.filter((t) => kept.has(clusterOf(t))),
    archive: mined.tasks.filter((t) => !kept.has(clusterOf(t))),
    nSessions: sessions.length,
    activeSince: since,
  };
}

/**
 * Phase two: split the instances (plus any tasks a model mined for the same clusters) within their
 * clusters, then the opt-in dreaming extras.
 */
export function finishProjectTasks(
  mined: MinedProject,
  config: Config,
  extra: readonly TaskRecord[] = [],
): ProjectTasks {
  const split = { seed: config.seed, valFraction: config.val_fraction, testFraction: config.test_fraction };
  const tasks = assignSplitsWithinGroups([...mined.instances, ...extra], clusterOf, split);
  // Opt-in dreaming: recall older tasks of the project like tonight's, and wrap train tasks in variants.
  const recalled = recallSimilar(tasks, mined.archive, config.recall_k);
  const dreamt = dreamVariants([...tasks, ...recalled], config.dream_factor);
  return {
    tasks: [...tasks, ...recalled, ...dreamt],
    clusters: mined.clusters,
    nSessions: mined.nSessions,
    activeSince: mined.activeSince,
  };
}

export function mineProjectTasks(
  db: Db,
  project: string,
  config: Config,
  clock: Clock,
  ignoreLookback = false,
): ProjectTasks {
  return finishProjectTasks(mineProjectClusters(db, project, config, clock, ignoreLookback), config);
}
