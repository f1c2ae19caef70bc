/**
 * What the model's session labels change in the offline kinds. Sessions stay in their offline kind;
 * a kind takes its sessions' majority label; two kinds of one project and one repository are merged
 * when most sessions of each carry the same label and their checks do not contradict each other.
 * The merged kind keeps the id of the kind holding the earliest session (ids stay stable across
 * nights, as the offline miner's do). Nothing changes for a kind none of whose sessions has a label.
 */
import { avoidedTerm, usedTerm } from '../../core/action-checks.js';
import { checkKey, type Check } from '../../core/task.js';
import type { Cluster } from '../types.js';

export interface SessionInfo {
  start: number | null;
  partition: string;
}

export interface LabelledKinds {
  clusters: Cluster[];
  /** Absorbed cluster id → the id it was merged into. */
  mergedInto: Map<string, string>;
  /** Kinds whose label changed. */
  relabelled: number;
}

/** The most common label of the members; a tie goes to the label of the earliest member. */
export function majorityLabel(
  members: readonly string[],
  labels: ReadonlyMap<string, string>,
): { label: string; count: number } | null {
  const counts = new Map<string, number>();
  for (const key of members) {
    const label = labels.get(key);
    if (label !== undefined) counts.set(label, (counts.get(label) ?? 0) + 1);
  }
  let best: { label: string; count: number } | null = null;
  // Map order is first-seen order, i.e. member order: the earliest wins a tie.
  for (const [label, count] of counts) if (best === null || count > best.count) best = { label, count };
  return best;
}

export function applyLabels(
  clusters: readonly Cluster[],
  labels: ReadonlyMap<string, string>,
  info: ReadonlyMap<string, SessionInfo>,
): LabelledKinds {
  const majorities = clusters.map((c) => majorityLabel(c.members, labels));
  const groups = new Map<string, number[]>();
  clusters.forEach((c, i) => {
    const m = majorities[i];
    // Only a kind most of whose sessions carry the label may merge on it.
    if (m === null || m === undefined || m.count * 2 <= c.members.length) return;
    const key = `${info.get(c.members[0] ?? '')?.partition ?? ''}\u0000${m.label}`;
    groups.set(key, [...(groups.get(key) ?? []), i]);
  });
  const mergedInto = new Map<string, string>();
  const absorbed = new Set<number>();
  const replaced = new Map<number, Cluster>();
  for (const indices of groups.values()) {
    const pending = [...indices];
    while (pending.length > 1) {
      const head = pending.shift() as number;
      let merged = clusters[head] as Cluster;
      const parts = [head];
      for (const j of [...pending]) {
        const other = clusters[j] as Cluster;
        if (contradicts([...merged.checks, ...other.checks])) continue;
        merged = mergeClusters(merged, other, info);
        parts.push(j);
        pending.splice(pending.indexOf(j), 1);
      }
      if (parts.length === 1) continue;
      const owner = parts.find((p) => clusters[p]?.id === merged.id) as number;
      for (const p of parts) {
        if (p === owner) continue;
        absorbed.add(p);
        mergedInto.set((clusters[p] as Cluster).id, merged.id);
      }
      replaced.set(owner, merged);
    }
  }
  let relabelled = 0;
  const out: Cluster[] = [];
  clusters.forEach((c, i) => {
    if (absorbed.has(i)) return;
    const cluster = replaced.get(i) ?? c;
    const label = majorityLabel(cluster.members, labels)?.label ?? c.label;
    if (label !== c.label) relabelled += 1;
    out.push(label === cluster.label ? cluster : { ...cluster, label });
  });
  out.sort(compareClusters);
  return { clusters: uniqueLabels(out), mergedInto, relabelled };
}

/** One kind of two: members in start order, rules united, id of the kind of the earliest session. */
export function mergeClusters(a: Cluster, b: Cluster, info: ReadonlyMap<string, SessionInfo>): Cluster {
  const startOf = (key: string): number => info.get(key)?.start ?? Number.NEGATIVE_INFINITY;
  const members = [...a.members, ...b.members].sort(
    (x, y) => startOf(x) - startOf(y) || (x < y ? -1 : x > y ? 1 : 0),
  );
  const owner = b.members.includes(members[0] ?? '') ? b : a;
  const latest = b.members.includes(members.at(-1) ?? '') ? b : a;
  const rank = new Map(members.map((key, i) => [key, i]));
  const checks = uniqueBy([...a.checks, ...b.checks], checkKey);
  return {
    ...owner,
    intent: latest.intent,
    members,
    occurrences: a.occurrences + b.occurrences,
    firstSeen: minOf(a.firstSeen, b.firstSeen),
    lastSeen: maxOf(a.lastSeen, b.lastSeen),
    outcomes: {
      success: a.outcomes.success + b.outcomes.success,
      fail: a.outcomes.fail + b.outcomes.fail,
      mixed: a.outcomes.mixed + b.outcomes.mixed,
      unknown: a.outcomes.unknown + b.outcomes.unknown,
    },
    checks,
    corrections: [...new Set([...a.corrections, ...b.corrections])],
    correctionReports: [...a.correctionReports, ...b.correctionReports].sort(
      (x, y) => (rank.get(x.sessionKey) ?? 0) - (rank.get(y.sessionKey) ?? 0),
    ),
    criteria: [...new Set([...a.criteria, ...b.criteria])],
    checkSources: uniqueBy(
      [...a.checkSources, ...b.checkSources],
      (s) => `${checkKey(s.check)}\u0000${s.sessionKey}`,
    ),
  };
}

/** "use X" and "avoid X" in one kind, said or done: such kinds are not merged (the offline miner drops both). */
export function contradicts(checks: readonly Check[]): boolean {
  const used = new Set(
    checks.flatMap((c) => {
      const term = c.op === 'mentions' ? null : usedTerm(c);
      return term === null ? [] : [term.toLowerCase()];
    }),
  );
  return checks.some((c) => {
    const term = c.op === 'not_contains' ? String(c.arg) : avoidedTerm(c);
    return term !== null && used.has(term.toLowerCase());
  });
}

/** As the offline miner ranks kinds: most recurrent, then most recent, then by id. */
function compareClusters(a: Cluster, b: Cluster): number {
  const lastA = a.lastSeen ?? Number.NEGATIVE_INFINITY;
  const lastB = b.lastSeen ?? Number.NEGATIVE_INFINITY;
  return b.occurrences - a.occurrences || lastB - lastA || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** Labels stay unique in a project: a second kind of one name is "name (2)", as offline. */
function uniqueLabels(clusters: readonly Cluster[]): Cluster[] {
  const used = new Map<string, number>();
  return clusters.map((c) => {
    const n = (used.get(c.label) ?? 0) + 1;
    used.set(c.label, n);
    return n === 1 ? c : { ...c, label: `${c.label} (${n})` };
  });
}

function uniqueBy<T>(items: readonly T[], key: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const k = key(item);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

function minOf(a: number | null, b: number | null): number | null {
  return a === null ? b : b === null ? a : Math.min(a, b);
}

function maxOf(a: number | null, b: number | null): number | null {
  return a === null ? b : b === null ? a : Math.max(a, b);
}
