/**
 * After the model pass changed a kind (its label, a merge, a check or a criterion), its instances are
 * rebuilt from it the way the offline miner builds them (`mine.ts` `toTask`): the judge holds the
 * kind's checks, a kind with only criteria is a rubric task, the tags name the kind. Instances of
 * kinds the pass did not change are returned as they were.
 */
import type { TaskRecord } from '../../core/task.js';
import type { Cluster } from '../types.js';
import { traceSessions } from '../mine.js';

export interface RefreshInput {
  instances: readonly TaskRecord[];
  clusters: readonly Cluster[];
  /** Ids of the kinds the pass changed. */
  changed: ReadonlySet<string>;
  /** Absorbed cluster id → the id it was merged into. */
  mergedInto: ReadonlyMap<string, string>;
  /** Per session: the answer the user accepted after a correction the model's check came from. */
  acceptedBySession: ReadonlyMap<string, string>;
}

export function refreshInstances(input: RefreshInput): TaskRecord[] {
  const byId = new Map(input.clusters.map((c) => [c.id, c]));
  return input.instances.map((task) => {
    const id = input.mergedInto.get(task.derived_from) ?? task.derived_from;
    const cluster = byId.get(id);
    if (cluster === undefined || !input.changed.has(id)) return task;
    return rebuilt(task, cluster, input.acceptedBySession.get(task.source_sessions[0] ?? ''));
  });
}

function rebuilt(task: TaskRecord, cluster: Cluster, acceptedAnswer: string | undefined): TaskRecord {
  const checks = cluster.checks.map((check) => ({ ...check }));
  const kind: TaskRecord['reference_kind'] =
    checks.length > 0 ? 'rule' : cluster.criteria.length > 0 ? 'rubric' : 'none';
  // A rule task keeps the accepted answer the offline miner chose; a session whose rule only the
  // model read takes the answer that followed that correction.
  const ruleReference = task.reference_kind === 'rule' ? task.reference : (acceptedAnswer ?? '');
  const { rubric_criteria: _old, ...rest } = task;
  return {
    ...rest,
    reference_kind: kind,
    reference: kind === 'rubric' ? cluster.criteria.join('\n') : kind === 'rule' ? ruleReference : '',
    judge: checks.length > 0 ? { kind: 'rule', checks } : {},
    ...(kind === 'rule' && cluster.criteria.length > 0 ? { rubric_criteria: [...cluster.criteria] } : {}),
    tags: task.tags.map((tag) =>
      tag.startsWith('cluster:')
        ? `cluster:${cluster.id}`
        : tag.startsWith('kind:')
          ? `kind:${cluster.label}`
          : tag,
    ),
    derived_from: cluster.id,
    ...traceSessions(task.source_sessions[0] ?? '', cluster, task.trace_sessions),
  };
}
