/**
 * Sessions that asked for nothing: every prompt was a greeting, a preamble or a placeholder ("hi",
 * "привет", "resume"; see `request.ts`). They are recognisable kinds of session, so each project
 * (partition) shows them as kinds, by what their prompts were (`NO_REQUEST_LABELS`), instead of as
 * one-offs. There is nothing in them to replay or learn from: their tasks carry
 * {@link NO_REQUEST_TAG}, and a night drops them (and their kinds) before any model pass or replay
 * (`replayableTasks`, `replayableMined`).
 */
import type { TaskRecord } from '../core/task.js';
import type { SkipReason } from './request.js';
import { renderAnswer, type Episode } from './episodes.js';
import { clusterId, instanceId, truncateIntent } from './task-ids.js';
import type { Cluster, LabeledOutcome, MinerSession } from './types.js';

export const NO_REQUEST_TAG = 'no-request';
/** A session that opened with a preamble (a "resume", "read the notes") asked for nothing else. */
export const NO_REQUEST_LABELS: Record<SkipReason, string> = {
  greeting: 'no request (greeting only)',
  preamble: 'no request (resume or preamble only)',
  placeholder: 'no request (placeholder only)',
  template: 'no request (template run without a request)',
  command: 'no request (shell commands only)',
};

export interface IdleSession {
  session: MinerSession;
  episodes: Episode[];
  outcome: LabeledOutcome;
  /** Why its prompts were skipped: a preamble among them makes it `preamble`. */
  reason: SkipReason;
}

/** What a session's skipped prompts were, as one reason. */
export function idleReason(skipped: ReadonlyArray<{ reason: SkipReason }>): SkipReason {
  const reasons = new Set(skipped.map((s) => s.reason));
  for (const reason of ['preamble', 'template', 'command', 'greeting'] as const)
    if (reasons.has(reason)) return reason;
  return 'placeholder';
}

/** Whether a night may replay (or train on, or send) a task. */
export function isReplayable(task: Pick<TaskRecord, 'tags'>): boolean {
  return !task.tags.includes(NO_REQUEST_TAG);
}

export function replayableTasks<T extends Pick<TaskRecord, 'tags'>>(tasks: readonly T[]): T[] {
  return tasks.filter(isReplayable);
}

/** Per partition and reason, a kind of the sessions that asked for nothing, with a (never replayed) task each. */
export function noRequestKinds(
  project: string,
  idle: readonly IdleSession[],
  idOf: (folder: string) => string = (folder) => folder,
): { clusters: Cluster[]; tasks: TaskRecord[] } {
  const byPartition = new Map<string, IdleSession[]>();
  for (const s of idle) {
    const key = `${s.reason}\u0000${idOf(s.session.partition ?? '')}`;
    byPartition.set(key, [...(byPartition.get(key) ?? []), s]);
  }
  const clusters: Cluster[] = [];
  const tasks: TaskRecord[] = [];
  const used = new Map<string, number>();
  for (const [key, members] of [...byPartition].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    members.sort((a, b) => start(a) - start(b) || (a.session.key < b.session.key ? -1 : 1));
    const base = NO_REQUEST_LABELS[members[0]?.reason ?? 'greeting'];
    const n = (used.get(base) ?? 0) + 1;
    used.set(base, n);
    const label = n === 1 ? base : `${base} (${n})`;
    // The id depends on the partition and the reason only: new greetings on later nights keep it.
    const cluster = emptyCluster(clusterId(idOf(project), `\u0000no request\u0000${key}`), label, members);
    clusters.push(cluster);
    for (const m of members) tasks.push(idleTask(project, cluster, m));
  }
  return { clusters, tasks };
}

function emptyCluster(id: string, label: string, members: readonly IdleSession[]): Cluster {
  const outcomes = { success: 0, fail: 0, mixed: 0, unknown: 0 };
  for (const m of members) outcomes[m.outcome.outcome] += 1;
  const starts = members.map((m) => m.session.startedAt ?? m.session.endedAt).filter(isTime);
  const ends = members.map((m) => m.session.endedAt ?? m.session.startedAt).filter(isTime);
  return {
    id,
    label,
    normalizedIntent: '',
    intent: members.at(-1)?.episodes[0]?.prompt ?? '',
    members: members.map((m) => m.session.key),
    occurrences: members.length,
    firstSeen: starts.length > 0 ? Math.min(...starts) : null,
    lastSeen: ends.length > 0 ? Math.max(...ends) : null,
    outcomes,
    checks: [],
    corrections: [],
    correctionReports: [],
    criteria: [],
    checkSources: [],
    noRequest: true,
  };
}

function idleTask(project: string, cluster: Cluster, member: IdleSession): TaskRecord {
  const first = member.episodes[0];
  return {
    id: instanceId(member.session.key),
    project,
    intent: truncateIntent(first?.prompt ?? ''),
    context_excerpt: '',
    system: '',
    attempted_solution: first ? renderAnswer(first) : '',
    outcome: member.outcome.outcome,
    reference_kind: 'none',
    reference: '',
    judge: {},
    tags: [`cluster:${cluster.id}`, `kind:${cluster.label}`, NO_REQUEST_TAG],
    source_sessions: [member.session.key],
    split: 'train',
    origin: 'real',
    derived_from: cluster.id,
    skill_hint: '',
  };
}

function start(s: IdleSession): number {
  return s.session.startedAt ?? s.session.endedAt ?? Number.NEGATIVE_INFINITY;
}

function isTime(t: number | null): t is number {
  return t !== null;
}
