/**
 * The optional model pass over a night's offline kinds (`llm_refine`, with `llm_mine`, real backends
 * only): label each session's task kind once (stored in `session_labels`), let the labels name and
 * merge kinds, then read checks or rubrics from the corrections the offline miner could not check.
 * Off, or on the mock, the mined project is returned untouched.
 */
import { BudgetExhaustedError } from '../core/errors.js';
import { waitsIn } from '../core/waits.js';
import type { Cluster } from '../miner/types.js';
import { applyLabels, type SessionInfo } from '../miner/model/apply-labels.js';
import { canAskJson, labelSessions, type LabelStats } from '../miner/model/label-sessions.js';
import { refreshInstances } from '../miner/model/refresh-instances.js';
import { rulesFromTriples, type TripleStats } from '../miner/model/rules-from-triples.js';
import { sqliteSessionLabels } from '../store/session-labels-repo.js';
import { type SessionLabelStore } from '../core/session-labels.js';
import type { MinedProject } from './mine-project.js';
import type { NightDeps, NightRequest } from './run-night.js';

export interface RefineStats {
  labels: LabelStats & { relabelled: number; merged: number };
  rules: TripleStats;
}

export interface RefinedProject {
  mined: MinedProject;
  /** null when the pass did not run. */
  stats: RefineStats | null;
}

export function refineEnabled(req: NightRequest, deps: NightDeps): boolean {
  // A plan sends nothing, so the labelling requests wait for --yes too.
  return !req.planOnly && req.config.llm_mine && req.config.llm_refine && canAskJson(deps.backend);
}

export async function refineWithModel(
  mined: MinedProject,
  req: NightRequest,
  deps: NightDeps,
  store: SessionLabelStore = sqliteSessionLabels(deps.db, () => deps.clock.now()),
): Promise<RefinedProject> {
  const backend = deps.backend;
  if (!refineEnabled(req, deps) || !canAskJson(backend) || mined.clusters.length === 0) {
    return { mined, stats: null };
  }
  const stopsOn = (err: unknown): boolean => err instanceof BudgetExhaustedError;
  // Each instance is one session: its intent is the request the miner chose for it.
  const intents = new Map<string, string>();
  for (const t of mined.instances) {
    const key = t.source_sessions[0];
    if (key !== undefined && !intents.has(key)) intents.set(key, t.intent);
  }
  const members = mined.clusters.flatMap((c) => c.members);
  const labelled = await labelSessions({
    sessions: members.flatMap((key) => {
      const request = intents.get(key);
      return request === undefined ? [] : [{ sessionKey: key, request }];
    }),
    backend,
    store,
    stopsOn,
  }).catch(waitsIn('mine llm_labels'));
  const info = new Map<string, SessionInfo>(
    mined.sessions.map((s) => [s.key, { start: s.startedAt ?? s.endedAt, partition: s.partition ?? '' }]),
  );
  const kinds = applyLabels(mined.clusters.map(cloneCluster), labelled.labels, info);
  const triples = await rulesFromTriples({
    clusters: kinds.clusters,
    sessions: new Map(mined.sessionsWithTurns().map((s) => [s.key, s])),
    intents,
    backend,
    stopsOn,
  }).catch(waitsIn('mine llm_rules'));
  const before = new Map(mined.clusters.map((c) => [c.id, c]));
  const changed = new Set(triples.changed);
  for (const c of kinds.clusters) {
    const old = before.get(c.id);
    if (old === undefined || old.label !== c.label || old.members.length !== c.members.length)
      changed.add(c.id);
  }
  const instances = refreshInstances({
    instances: mined.instances,
    clusters: kinds.clusters,
    changed,
    mergedInto: kinds.mergedInto,
    acceptedBySession: triples.acceptedBySession,
  });
  const stats: RefineStats = {
    labels: { ...labelled.stats, relabelled: kinds.relabelled, merged: kinds.mergedInto.size },
    rules: triples.stats,
  };
  deps.logger.progress(
    `llm labels: ${stats.labels.labelled} sessions labelled, ${stats.labels.reused} reused, ${stats.labels.merged} kinds merged; llm rules: ${stats.rules.checks_validated} checks and ${stats.rules.rubrics} rubrics from ${stats.rules.sent} corrections${stats.labels.stopped || stats.rules.stopped ? '; stopped by the budget' : ''}`,
  );
  return { mined: { ...mined, clusters: kinds.clusters, instances }, stats };
}

/** The pass changes kinds in place; the offline result stays as it was mined. */
function cloneCluster(c: Cluster): Cluster {
  return {
    ...c,
    members: [...c.members],
    outcomes: { ...c.outcomes },
    checks: c.checks.map((check) => ({ ...check })),
    corrections: [...c.corrections],
    correctionReports: c.correctionReports.map((r) => ({ ...r, checks: [...r.checks] })),
    criteria: [...c.criteria],
    checkSources: c.checkSources.map((s) => ({ ...s, check: { ...s.check } })),
  };
}
