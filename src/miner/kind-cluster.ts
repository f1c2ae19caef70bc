/**
 * A mined kind as the store and the reports see it (`Cluster`): built from its sessions and its
 * rules, with an id that stays the same on later nights and is unique among the night's kinds.
 */
import type { Outcome } from '../core/task.js';
import type { Episode } from './episodes.js';
import { normalizeIntent } from './normalize-intent.js';
import type { KindRules } from './rules/kind-rules.js';
import { clusterId } from './task-ids.js';
import type { Cluster, LabeledOutcome, MinerSession } from './types.js';

/** A session of the kind: its episodes, which is its request, its outcome. */
export interface KindMember {
  session: MinerSession;
  episodes: Episode[];
  request: number;
  outcome: LabeledOutcome;
}

export function compareByStart(a: KindMember, b: KindMember): number {
  const timeA = sessionStart(a.session) ?? Number.NEGATIVE_INFINITY;
  const timeB = sessionStart(b.session) ?? Number.NEGATIVE_INFINITY;
  return timeA - timeB || compareText(a.session.key, b.session.key);
}

/**
 * The id and normal form come from the earliest member, so sessions added on later nights keep the
 * id; the shown intent is the most recent member's request. `members` are in start order.
 */
export function buildCluster(
  project: string,
  label: string,
  members: readonly KindMember[],
  rules: KindRules,
): Cluster {
  const first = members[0];
  const normalized = first ? normalizeIntentOrFallback(requestPrompt(first)) : '';
  const outcomes: Record<Outcome, number> = { success: 0, fail: 0, mixed: 0, unknown: 0 };
  let firstSeen: number | null = null;
  let lastSeen: number | null = null;
  for (const member of members) {
    outcomes[member.outcome.outcome] += 1;
    const start = sessionStart(member.session);
    const end = member.session.endedAt ?? member.session.startedAt;
    if (start != null && (firstSeen == null || start < firstSeen)) firstSeen = start;
    if (end != null && (lastSeen == null || end > lastSeen)) lastSeen = end;
  }
  const last = members.at(-1);
  return {
    id: clusterId(project, normalized),
    label,
    normalizedIntent: normalized,
    intent: last ? requestPrompt(last) : '',
    members: members.map((m) => m.session.key),
    occurrences: members.length,
    firstSeen,
    lastSeen,
    outcomes,
    checks: rules.checks.map((check) => ({ ...check })),
    corrections: [...new Set(rules.sources.map((s) => s.sentence).filter((s) => s !== ''))],
    correctionReports: rules.corrections,
    criteria: rules.criteria,
    checkSources: rules.sources.map((s) => ({
      check: { ...s.check },
      sessionKey: s.sessionKey,
      sentence: s.sentence,
    })),
  };
}

/**
 * Two kinds whose earliest requests have one normal form (a request in a script without spaces
 * around a path is all `<path>`) would share an id, and so their tasks: the kind with the earliest
 * first member keeps it, the others take their first member's session key into theirs (stable, as
 * the earliest member never changes).
 */
export function uniqueIds(
  project: string,
  built: ReadonlyArray<{ cluster: Cluster; members: readonly KindMember[] }>,
): void {
  const byId = new Map<string, Array<{ cluster: Cluster; members: readonly KindMember[] }>>();
  for (const b of built) byId.set(b.cluster.id, [...(byId.get(b.cluster.id) ?? []), b]);
  const first = (b: { members: readonly KindMember[] }): KindMember => b.members[0] as KindMember;
  for (const same of byId.values()) {
    if (same.length < 2) continue;
    same.sort((a, b) => compareByStart(first(a), first(b)));
    for (const b of same.slice(1))
      b.cluster.id = clusterId(project, `${b.cluster.normalizedIntent}\u0000${first(b).session.key}`);
  }
}

function normalizeIntentOrFallback(intent: string): string {
  const normalized = normalizeIntent(intent);
  return normalized !== '' ? normalized : intent.toLowerCase().replace(/\s+/g, ' ');
}

function requestPrompt(member: KindMember): string {
  return member.episodes[member.request]?.prompt ?? '';
}

function sessionStart(session: MinerSession): number | null {
  return session.startedAt ?? session.endedAt;
}

/** Code-unit order, independent of the locale the process runs in. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
