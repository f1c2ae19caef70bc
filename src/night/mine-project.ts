/** From stored sessions to split task instances for one project: what `harvest` previews and a night trains on. */
import type { Clock } from '../core/clock.js';
import type { TaskRecord } from '../core/task.js';
import type { Config } from '../config/schema.js';
import { mineSessions } from '../miner/mine.js';
import { assignSplitsWithinGroups } from '../miner/split.js';
import type { MinedNight } from '../miner/types.js';
import type { Db } from '../store/db.js';
import { sessionsForProject } from '../store/sessions-repo.js';

export interface ProjectTasks {
  tasks: TaskRecord[];
  mined: MinedNight;
  nSessions: number;
  /** Start of the lookback window (epoch ms), or null when every stored session counts. */
  since: number | null;
}

/** Instances of one recurring task share its cluster id, so the split puts some in train and some in val. */
const clusterOf = (t: TaskRecord): string => t.derived_from || t.id;

export function mineProjectTasks(
  db: Db,
  project: string,
  config: Config,
  clock: Clock,
  ignoreLookback = false,
): ProjectTasks {
  const since =
    ignoreLookback || config.lookback_hours === 0 ? null : clock.now() - config.lookback_hours * 3_600_000;
  const limit = config.max_sessions_per_night ?? config.max_tasks_per_night * 3;
  const sessions = sessionsForProject(db, project, since, limit);
  const mined = mineSessions(sessions, { project, maxTasks: config.max_tasks_per_night });
  const tasks = assignSplitsWithinGroups(mined.tasks, clusterOf, {
    seed: config.seed,
    valFraction: config.val_fraction,
    testFraction: config.test_fraction,
  });
  return { tasks, mined, nSessions: sessions.length, since };
}
