/** From stored sessions to split task instances for one project: what `harvest` previews and a night trains on. */
import type { Clock } from '../core/clock.js';
import type { TaskRecord } from '../core/task.js';
import type { Lesson } from '../core/lesson.js';
import type { Config } from '../config/schema.js';
import { mineSessions } from '../miner/mine.js';
import { type CorrectionPattern } from '../miner/correction-patterns.js';
import { compileUserPatterns } from '../miner/correction-user-patterns.js';
import { ConfigError, errorMessage } from '../core/errors.js';
import { assignSplitsWithinGroups } from '../miner/split.js';
import type { Cluster, MinedNight, MinerSession } from '../miner/types.js';
import { minerCodeDigest } from '../miner/code-digest.js';
import { minedProjectsStore } from '../store/mined-projects-repo.js';
import { forgottenLessons } from '../store/forgotten-lessons-repo.js';
import { type AnswerTexts, withAnswerTexts, withoutAnswerTexts } from './mined-answer-texts.js';
import { createHash } from 'node:crypto';
import type { Db } from '../store/db.js';
import { lastAdoptedNightStart } from '../store/nights-repo.js';
import { countQuerySessions, querySessions, sessionsWithTurns } from '../store/sessions-repo.js';
import { sessionFeaturesStore } from '../store/session-features-repo.js';
import { storedLabelsWithPrefix } from '../store/session-labels-repo.js';
import { READINGS_PREFIX } from '../miner/model/read-follow-ups.js';
import { sessionFeatures, type SessionFeatures } from '../miner/session-features.js';
import { dreamVariants, recallSimilar } from './dream.js';
import { selectedSources } from '../harvest/sources.js';
import { repositoryPartitions } from './partitions.js';
import { replayableTasks } from '../miner/no-request.js';
import { separatesAnswers } from '../replay/score.js';

/** When `max_sessions_per_night` is not set: enough history for any project, mined in about a second. */
export const DEFAULT_MAX_SESSIONS = 5000;

export interface ProjectTasks {
  tasks: TaskRecord[];
  clusters: Cluster[];
  /** What the user taught in the mined sessions (retired ones included, marked). */
  lessons: Lesson[];
  /** Mined tasks left out of a night because no judge can tell their answers apart. */
  unjudged: number;
  /** Mined tasks left out of a night because they are alone in their lesson or kind (`withoutOneOffs`). */
  oneOff: number;
  /** Sessions of the project mined (the stored history of the selected sources, newest first, capped). */
  nSessions: number;
  /** Older sessions the cap left out (0 when it left none out). */
  sessionsLeftOut: number;
  /** Tasks count as active when a session of theirs ended at or after this time (null = all). */
  activeSince: number | null;
  /** How many tasks each filter left, for an empty night's explanation. */
  funnel: MiningFunnel;
}

/** What narrowed the night's tasks: the active window (and where it came from), then the task cap. */
export interface MiningFunnel {
  /** Where `activeSince` came from: the last adopted night, the lookback window, or none (all history). */
  window: 'adopted_night' | 'lookback' | null;
  /** Tasks mined from the sessions, before any filter. */
  mined: number;
  /** Of those, tasks with a session in the active window (before `max_tasks_per_night`). */
  active: number;
}

/** Instances of one recurring task share its cluster id, so the split puts some in train and some in val. */
const clusterOf = (t: TaskRecord): string => t.derived_from || t.id;

/**
 * Which tasks count as new tonight. `lookback_hours: 0` means all of them, every night. Otherwise:
 * those with a session since the newest night whose proposal was adopted (what came before was
 * learned), or, before any adoption, within the last `lookback_hours`. A night that was rejected,
 * reverted or not yet adopted consumes nothing, so `run` after a `revert` rebuilds the proposal.
 */
export function activeSince(
  db: Db,
  project: string,
  config: Config,
  clock: Clock,
  ignoreLookback: boolean,
): number | null {
  return activeWindow(db, project, config, clock, ignoreLookback).since;
}

function activeWindow(
  db: Db,
  project: string,
  config: Config,
  clock: Clock,
  ignoreLookback: boolean,
): { since: number | null; window: MiningFunnel['window'] } {
  if (ignoreLookback || config.lookback_hours === 0) return { since: null, window: null };
  const adopted = lastAdoptedNightStart(db, project);
  if (adopted !== null) return { since: adopted, window: 'adopted_night' };
  return { since: clock.now() - config.lookback_hours * 3_600_000, window: 'lookback' };
}

/** The config's extra correction patterns, compiled; a bad one is a config error naming the key. */
function configPatterns(config: Config): CorrectionPattern[] {
  try {
    return compileUserPatterns(config.correction_patterns);
  } catch (err) {
    throw new ConfigError(`key "correction_patterns": ${errorMessage(err)}`);
  }
}

/** Phase one of mining: the project's recurring tasks and their heuristic instances, before any split. */
export interface MinedProject {
  clusters: Cluster[];
  lessons: Lesson[];
  /** Instances of the kept clusters (unsplit). */
  instances: TaskRecord[];
  /** Instances of older clusters, for recall. */
  archive: TaskRecord[];
  nSessions: number;
  sessionsLeftOut: number;
  activeSince: number | null;
  funnel: MiningFunnel;
  /** The sessions mined (with their partition), without their turns. */
  sessions: MinerSession[];
  /** The same sessions with their turns (loaded on the first call), for a model pass that reads them. */
  sessionsWithTurns: () => MinerSession[];
}

export function mineProjectClusters(
  db: Db,
  project: string,
  config: Config,
  clock: Clock,
  ignoreLookback = false,
  idSpace?: string,
): MinedProject {
  const { since, window } = activeWindow(db, project, config, clock, ignoreLookback);
  const limit = config.max_sessions_per_night ?? DEFAULT_MAX_SESSIONS;
  const sources = selectedSources(config);
  const query = { project, scope: config.scope, sinceMs: null, ...(sources ? { sources } : {}) };
  // Turns load only for sessions mined for the first time (or again), and when a model pass reads them.
  const sessions = querySessions(db, { ...query, limit, withTurns: false });
  const total = sessions.length < limit ? sessions.length : countQuerySessions(db, query);
  const partitions = repositoryPartitions(
    sessions.map((s) => s.projectRoot),
    { project, scope: config.scope },
  );
  const partitioned = sessions.map((s, i) => ({ ...s, partition: partitions[i] ?? '' }));
  const mined = minedOnce(db, project, partitioned, config, idSpace);
  const active = mined.clusters.filter((c) => since === null || (c.lastSeen ?? 0) >= since);
  const clusters = active.slice(0, config.max_tasks_per_night);
  const kept = new Set(clusters.map((c) => c.id));
  let withTurns: MinerSession[] | undefined;
  return {
    clusters,
    lessons: mined.lessons ?? [],
    instances: mined.tasks.filter((t) => kept.has(clusterOf(t))),
    archive: mined.tasks.filter((t) => !kept.has(clusterOf(t))),
    nSessions: sessions.length,
    sessionsLeftOut: Math.max(0, total - sessions.length),
    activeSince: since,
    funnel: { window, mined: mined.clusters.length, active: active.length },
    sessions: partitioned,
    sessionsWithTurns: () => (withTurns ??= sessionsWithTurns(db, partitioned)),
  };
}

/**
 * The offline miner over `sessions`, or what it returned last time for exactly these inputs (the
 * sessions as stored, their partitions, the options, the lessons the user forgot, the miner's code):
 * mining is deterministic, so a harvest or night with nothing new reuses it. Forgotten lessons are an
 * input, not a filter on the result: the tasks' judges come from the lessons kept, so a result cached
 * before a `lessons forget` is never read after it.
 */
function minedOnce(
  db: Db,
  project: string,
  sessions: readonly MinerSession[],
  config: Config,
  idSpace: string | undefined,
): MinedNight {
  // What a model read in these sessions' follow-ups on earlier nights is an input like the sessions.
  const readings = storedLabelsWithPrefix(
    db,
    sessions.map((s) => s.key),
    READINGS_PREFIX,
  );
  const forgotten = forgottenLessons(db);
  const options = {
    project,
    ...(idSpace === undefined ? {} : { idSpace }),
    maxTasks: Number.MAX_SAFE_INTEGER,
    correctionPatterns: configPatterns(config),
    readings,
    forgottenLessons: forgotten,
  };
  const hash = createHash('sha256').update(minerCodeDigest()).update('\0');
  hash.update(JSON.stringify([project, idSpace ?? null, config.correction_patterns, forgotten])).update('\0');
  hash.update(JSON.stringify([...readings].map(([key, rows]) => [key, [...rows]]))).update('\0');
  for (const s of sessions) hash.update(JSON.stringify(s)).update('\0');
  const digest = hash.digest('hex');
  const cache = minedProjectsStore<MinedNight, AnswerTexts>(db);
  const mine = (): MinedNight =>
    mineSessions(sessions, { ...options, features: storedFeatures(db, sessions) });
  const known = cache.load(project, digest);
  if (Array.isArray(known?.value.clusters) && Array.isArray(known.value.tasks))
    // Should the row change before the answers are read (another process stored a newer result),
    // mining the same sessions again gives the same answers.
    return withAnswerTexts(known.value, () => known.texts() ?? withoutAnswerTexts(mine()).texts);
  const mined = mine();
  const { head, texts } = withoutAnswerTexts(mined);
  cache.save(project, digest, head, texts);
  return mined;
}

/**
 * Sessions whose turns are read at once while their features are derived: the features are all the
 * miner keeps, so a first night over thousands of sessions holds one batch's turns, not all of them.
 */
const FEATURE_BATCH_SESSIONS = 200;

/**
 * Each session's features: stored ones where still valid, the others read from their turns (loaded
 * in batches, dropped once read) and stored for the next night.
 */
function storedFeatures(db: Db, sessions: readonly MinerSession[]): Map<string, SessionFeatures> {
  const store = sessionFeaturesStore<SessionFeatures>(db, minerCodeDigest());
  const found = store.load(sessions.map((s) => s.key));
  const missing = sessions.filter((s) => !found.has(s.key));
  for (let start = 0; start < missing.length; start += FEATURE_BATCH_SESSIONS) {
    const batch = missing.slice(start, start + FEATURE_BATCH_SESSIONS);
    const fresh = sessionsWithTurns(db, batch).map((s) => [s.key, sessionFeatures(s)] as const);
    store.save(fresh);
    for (const [key, features] of fresh) found.set(key, features);
  }
  return found;
}

/** The mined project without the kinds of sessions that asked for nothing (`no-request.ts`). */
export function replayableMined(mined: MinedProject): MinedProject {
  return {
    ...mined,
    clusters: mined.clusters.filter((c) => c.noRequest !== true),
    instances: replayableTasks(mined.instances),
    archive: replayableTasks(mined.archive),
  };
}

/** The lessons that judge a task (its `lesson:` tags), else its kind: the groups a split keeps apart. */
const splitGroups = (t: TaskRecord): string[] => {
  const lessons = t.tags.filter((tag) => tag.startsWith('lesson:'));
  return lessons.length > 0 ? lessons : [clusterOf(t)];
};

/**
 * Tasks alone in every group that judges them (their lessons, else their kind): a one-off. A split
 * puts it on one side only, so a rule learned from it cannot show on a held-out task, and a held-out
 * one no train task teaches: replaying it fills the reflect prompt and the gate's trials for nothing.
 * A kind's group counts all its tasks, whichever lessons judge them (a model-mined task of a
 * recurring kind is no one-off).
 */
export function withoutOneOffs(tasks: readonly TaskRecord[]): TaskRecord[] {
  const members = new Map<string, number>();
  const count = (group: string): void => void members.set(group, (members.get(group) ?? 0) + 1);
  for (const t of tasks) {
    if (t.origin !== 'real') continue;
    const groups = splitGroups(t);
    groups.forEach(count);
    if (!groups.includes(clusterOf(t))) count(clusterOf(t));
  }
  return tasks.filter((t) => t.origin !== 'real' || splitGroups(t).some((g) => (members.get(g) ?? 0) >= 2));
}

/**
 * Phase two: split the instances (plus any tasks a model mined for the same clusters), then the opt-in
 * dreaming extras. Each lesson's tasks get a train and a validation side (split by session: one task per
 * session), so a rule learned from some of its sessions shows on the others. `replayOnly` (a night)
 * keeps the tasks a judge can score on the night's backend (`offline`: no model judge) that are not
 * one-offs; a harvest lists them all.
 */
export function finishProjectTasks(
  mined: MinedProject,
  config: Config,
  extra: readonly TaskRecord[] = [],
  opts: { replayOnly?: boolean; offline?: boolean } = {},
): ProjectTasks {
  const split = { seed: config.seed, valFraction: config.val_fraction, testFraction: config.test_fraction };
  const all = [...mined.instances, ...extra];
  const judge = { offline: opts.offline === true };
  const scored = opts.replayOnly === true ? all.filter((t) => separatesAnswers(t, judge)) : all;
  const kept = opts.replayOnly === true ? withoutOneOffs(scored) : scored;
  const tasks = assignSplitsWithinGroups(kept, splitGroups, split);
  // Opt-in dreaming: recall older tasks of the project like tonight's, and wrap train tasks in variants.
  const recalled = recallSimilar(tasks, mined.archive, config.recall_k);
  const dreamt = dreamVariants([...tasks, ...recalled], config.dream_factor);
  return {
    tasks: [...tasks, ...recalled, ...dreamt],
    unjudged: all.length - scored.length,
    oneOff: scored.length - kept.length,
    clusters: mined.clusters,
    lessons: mined.lessons,
    nSessions: mined.nSessions,
    sessionsLeftOut: mined.sessionsLeftOut,
    activeSince: mined.activeSince,
    funnel: mined.funnel,
  };
}

export function mineProjectTasks(
  db: Db,
  project: string,
  config: Config,
  clock: Clock,
  ignoreLookback = false,
  idSpace?: string,
): ProjectTasks {
  return finishProjectTasks(mineProjectClusters(db, project, config, clock, ignoreLookback, idSpace), config);
}

/** The note a report carries when the session cap left history out. */
export function leftOutNote(leftOut: number, limit: number): string {
  return `${leftOut} older sessions were not mined (max_sessions_per_night is ${limit}); raise it with --max-sessions to mine them`;
}

/**
 * Why a night found no task, and the flag that changes it; null when it found some. Sessions, then
 * tasks mined, then the active window, then the task cap: the first filter that left nothing is named.
 */
export function emptyNightNote(
  mined: Pick<ProjectTasks, 'tasks' | 'nSessions' | 'sessionsLeftOut' | 'activeSince' | 'funnel'> &
    Partial<Pick<ProjectTasks, 'unjudged' | 'oneOff'>>,
  project: string,
  config: Config,
): string | null {
  if (mined.tasks.length > 0) return null;
  const { funnel } = mined;
  if (mined.nSessions === 0 && mined.sessionsLeftOut > 0) return null; // the session cap's note says it
  if (mined.nSessions === 0) {
    const agent = config.transcript_source === 'all' ? '' : ` of ${config.transcript_source}`;
    return `no sessions${agent} found for ${project} (sessions started in it or below count): --scope all mines every folder${agent ? ', --source all every agent' : ''}`;
  }
  if (funnel.mined === 0) {
    return `none of the ${mined.nSessions} sessions asked for a task that can be replayed (sessions without a request, and our own replays, are skipped)`;
  }
  const since = mined.activeSince === null ? '' : new Date(mined.activeSince).toISOString();
  const tasks = (n: number): string => `${n} task${n === 1 ? '' : 's'}`;
  const leftOut = (n: number): string => `${tasks(n)} ${n === 1 ? 'was' : 'were'} left out`;
  if (funnel.active === 0 && funnel.window === 'adopted_night') {
    return `nothing new since the last adopted night (${since}): no session of its ${tasks(funnel.mined)} came after it; --lookback-hours 0 replays every task of the whole history`;
  }
  if (funnel.active === 0) {
    return `no task had a session in the last ${config.lookback_hours} hours (lookback_hours, since ${since}), so ${leftOut(funnel.mined)}: --lookback-hours 0 replays all history, or give a larger --lookback-hours`;
  }
  if ((mined.oneOff ?? 0) > 0) {
    const unjudged =
      (mined.unjudged ?? 0) > 0 ? ` (and ${tasks(mined.unjudged ?? 0)} no judge can score)` : '';
    return `each of the ${tasks(mined.oneOff ?? 0)} a judge can score is alone in its lesson and kind${unjudged}: a rule learned from a one-off could not be checked on another task, so none is replayed`;
  }
  if ((mined.unjudged ?? 0) > 0) {
    return `no lesson judges any of the ${tasks(mined.unjudged ?? 0)} mined: nothing to learn tonight (a task without a check or a criterion scores the same whatever is answered, so it is not replayed)`;
  }
  return `max_tasks_per_night is ${config.max_tasks_per_night}, so ${leftOut(funnel.active)}: raise it with --max-tasks`;
}
