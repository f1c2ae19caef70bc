/**
 * What a night trains on: the project's recurring tasks, harvested and mined (with the LLM miner on a
 * real backend), a reviewed tasks file, or the union of a team's exported tasks files.
 */
import type { NightDeps, NightRequest } from './run-night.js';
import { BudgetExhaustedError } from '../core/errors.js';
import { waitsIn } from '../core/waits.js';
import type { TaskRecord } from '../core/task.js';
import { selectedSources } from '../harvest/sources.js';
import { privacyOptions } from '../harvest/harvest-rules.js';
import type { upsertTasks } from '../store/learning-repo.js';
import { harvest, type HarvestSummary } from '../harvest/harvest.js';
import { logHarvestEnd } from '../harvest/harvest-end.js';
import {
  DEFAULT_MAX_SESSIONS,
  emptyNightNote,
  finishProjectTasks,
  leftOutNote,
  mineProjectClusters,
  replayableMined,
  type MinedProject,
} from './mine-project.js';
import type { Cluster } from '../miner/types.js';
import { canMineWithModel, mineWithModel, worthAsking, type LlmMinerStats } from '../miner/llm-miner.js';
import type { LessonReport, NightReport, RecurringTaskReport } from './night-report.js';
import { reportLessons } from './lesson-report.js';
import { refineWithModel, type RefineStats } from './model-refine.js';
import { readLessonsWithModel } from './lessons-pass.js';
import type { ReadStats } from '../miner/model/read-follow-ups.js';
import { explainMining } from './explain-mining.js';
import type { KindSends } from './explain-sends.js';
import { sqliteSessionLabels } from '../store/session-labels-repo.js';
import { loadFromTasksFile, loadFromTeamDirs } from './file-tasks.js';

export interface TaskSet {
  tasks: TaskRecord[];
  nSessions: number;
  sessionsLeftOut: number;
  nClusters: number;
  nRecurring: number;
  harvest: HarvestSummary | null;
  reviewed?: boolean;
  notes: string[];
  clusters: Parameters<typeof upsertTasks>[1];
  /** Mined tasks with where each check came from (session and sentence), for the report. */
  taskSummaries: RecurringTaskReport[];
  /** What the user taught in the mined sessions, for the report (absent when a tasks file was read). */
  lessons?: LessonReport[];
  llmMiner: LlmMinerStats | null;
  /** The labelling and rules-from-triples pass (`llm_refine`); null when it did not run. */
  llmRefine: RefineStats | null;
  /** A plan's list of what the model passes of mining would send (`explain-mining.ts`), by kind. */
  miningSends?: KindSends[];
  /** The lessons model pass (`llm_lessons`); null when it did not run. */
  llmLessons?: ReadStats | null;
  /** Mined instances a judge cannot score, left out of the replays. */
  unjudged?: number;
  /** Mined instances alone in their lesson and kind (one-offs), left out of the replays. */
  oneOff?: number;
  /** A benchmark seed folder's SKILL.md: the skill the night starts from (`seed-folder.ts`). */
  seedSkill?: string;
}

export { selectedSources };

/** The night's tasks: saved by an earlier invocation of a waiting night, from a tasks file, or mined. */
export async function nightTasks(req: NightRequest, deps: NightDeps, started: number): Promise<TaskSet> {
  const saved = req.waiting?.state;
  if (saved) {
    if (saved.spend) deps.backend.restoreSpend?.(saved.spend);
    return saved.tasks;
  }
  const set = req.tasksFile
    ? loadFromTasksFile(req, deps, req.tasksFile)
    : req.tasksFrom
      ? loadFromTeamDirs(req, deps, req.tasksFrom)
      : await harvestAndMine(req, deps);
  const state = {
    project: req.project,
    started_at: started,
    config: req.config,
    tasks: set,
    spend: deps.backend.spendSummary?.() ?? null,
  };
  req.waiting?.saveState(state);
  return set;
}

export async function harvestAndMine(req: NightRequest, deps: NightDeps): Promise<TaskSet> {
  const { config } = req;
  const summary = await harvest({
    db: deps.db,
    ctx: req.harvestCtx ?? { home: deps.userHome, env: deps.env, projectFolders: () => [req.project] },
    clock: deps.clock,
    logger: deps.logger,
    ...(selectedSources(config) ? { sources: selectedSources(config) } : {}),
    ...(req.mapCwd ? { mapCwd: req.mapCwd } : {}),
    ...privacyOptions(config, deps.userHome),
    // The demo harvests only its bundled transcripts: the log of real ended sessions stays for real
    // ones, and retention (the demo's transcripts are old) is for the user's own store.
    ...(req.harvestCtx ? {} : { stateHome: deps.home, retentionDays: config.retention_days }),
  });
  logHarvestEnd(summary, deps.logger);
  const mined0 = mineProjectClusters(
    deps.db,
    req.project,
    config,
    deps.clock,
    req.ignoreLookback,
    req.idSpace,
  );
  const read = await readLessonsWithModel(mined0, req, deps);
  // Sessions that asked for nothing are shown by `harvest`, never sent to a model nor replayed.
  const offline = replayableMined(read.mined);
  const refined = await refineWithModel(offline, req, deps);
  const phase1 = refined.mined;
  const llm = await mineClustersWithModel(phase1, req, deps);
  const mined = finishProjectTasks(phase1, config, llm?.tasks ?? [], {
    replayOnly: true,
    offline: deps.backend.offline,
  });
  const notReplayed = [
    ...(mined.unjudged > 0 ? [`${mined.unjudged} tasks no judge can score`] : []),
    ...(mined.oneOff > 0 ? [`${mined.oneOff} one-offs (alone in their lesson and kind)`] : []),
  ];
  if (notReplayed.length > 0 && mined.tasks.length > 0) {
    deps.logger.progress(`mine: ${notReplayed.join(' and ')} are not replayed`);
  }
  const notes: string[] = [];
  if (req.planOnly && modelMiningWanted(phase1, req, deps)) {
    notes.push(
      `plan: the model miner (llm_mine) did not run; with --yes it first asks about ${phase1.clusters.filter(worthAsking).length} tasks (requests not in this estimate)`,
    );
  }
  if (mined.sessionsLeftOut > 0) {
    notes.push(leftOutNote(mined.sessionsLeftOut, config.max_sessions_per_night ?? DEFAULT_MAX_SESSIONS));
  }
  const empty = emptyNightNote(mined, req.project, config);
  if (empty) notes.push(empty);
  const lessons = reportLessons(mined.lessons);
  if (lessons.note) notes.push(lessons.note);
  // A plan sends nothing: what the model passes would send is listed instead (`run --explain-sends`).
  const miningSends =
    req.planOnly && config.llm_mine
      ? explainMining({
          mined: phase1,
          project: req.project,
          config,
          labels: sqliteSessionLabels(deps.db, () => deps.clock.now()),
        })
      : null;
  return {
    ...(miningSends ? { miningSends } : {}),
    llmMiner: llm?.stats ?? null,
    llmRefine: refined.stats,
    llmLessons: read.stats,
    unjudged: mined.unjudged,
    oneOff: mined.oneOff,
    tasks: mined.tasks,
    nSessions: mined.nSessions,
    sessionsLeftOut: mined.sessionsLeftOut,
    nClusters: mined.clusters.length,
    nRecurring: mined.clusters.filter(isRecurring).length,
    harvest: summary,
    notes,
    clusters: mined.clusters.map((c) => ({ ...c, project: req.project })),
    taskSummaries: mined.clusters.map(recurringTaskReport),
    lessons: lessons.lessons,
  };
}

/** A task recurs when two or more sessions asked for it; the others are one-offs. */
export const isRecurring = (c: { occurrences: number }): boolean => c.occurrences >= 2;

/** What a reviewer needs to trust a mined kind: its sessions, its checks and where each came from. */
export function recurringTaskReport(c: Cluster): RecurringTaskReport {
  return {
    id: c.id,
    label: c.label,
    intent: c.intent,
    occurrences: c.occurrences,
    sessions: c.members,
    checks: c.checkSources.map((src) => ({
      ...src.check,
      session: src.sessionKey,
      sentence: src.sentence,
      ...(src.by ? { by: src.by } : {}),
    })),
    criteria: c.criteria,
    corrections: c.correctionReports.map((r) => ({
      session: r.sessionKey,
      sentence: r.sentence,
      result: r.result,
      reason: r.reason,
    })),
  };
}

const modelMiningWanted = (mined: MinedProject, req: NightRequest, deps: NightDeps): boolean =>
  req.config.llm_mine && canMineWithModel(deps.backend) && mined.clusters.length > 0;

/** The LLM miner, when the backend is a real model and `llm_mine` is on; null when it did not run. */
export async function mineClustersWithModel(
  mined: MinedProject,
  req: NightRequest,
  deps: NightDeps,
): Promise<Awaited<ReturnType<typeof mineWithModel>> | null> {
  // A plan sends nothing: not even the miner's requests.
  if (req.planOnly || !modelMiningWanted(mined, req, deps)) return null;
  const result = await mineWithModel({
    project: req.project,
    ...(req.idSpace === undefined ? {} : { idSpace: req.idSpace }),
    clusters: mined.clusters,
    instances: mined.instances,
    sessions: new Map(mined.sessionsWithTurns().map((s) => [s.key, s])),
    backend: deps.backend,
    stopsMining: (err) => err instanceof BudgetExhaustedError,
  }).catch(waitsIn('mine llm_miner'));
  const dropped = Object.values(result.stats.dropped).reduce((a, b) => a + b, 0);
  deps.logger.progress(
    `llm miner: ${result.stats.accepted} checkable tasks from ${result.stats.clusters} tasks (${dropped} dropped; ${result.stats.skipped_one_off} uncorrected one-offs not sent)${result.stats.stopped ? '; stopped by the budget' : ''}`,
  );
  return result;
}

/** The refine pass in the report (usage left out, as for the LLM miner). */
export function llmRefineReport(stats: RefineStats): Pick<NightReport, 'llm_labels' | 'llm_rules'> {
  const { usage: _l, ...labels } = stats.labels;
  const { usage: _r, ...rules } = stats.rules;
  return { llm_labels: labels, llm_rules: rules };
}

/** The report leaves usage out: the miner's calls and tokens are counted in the night's totals. */
export function llmMinerReport({ usage: _usage, ...rest }: LlmMinerStats): NightReport['llm_miner'] {
  return rest;
}
