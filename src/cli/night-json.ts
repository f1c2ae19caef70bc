/**
 * A night of the store as `status --json` prints it (documented in docs/status-json.md): booleans for
 * flags and null for "none", not the database's 0/1 and empty strings.
 */
import type { NightRow } from '../store/nights-repo.js';

const orNull = (s: string | null | undefined): string | null => (s ? s : null);

export function nightJson(n: NightRow) {
  return {
    id: n.id,
    project: n.project,
    started_at: n.started_at,
    finished_at: n.finished_at,
    status: n.status,
    backend: n.backend,
    n_sessions: n.n_sessions,
    n_tasks: n.n_tasks,
    baseline: n.baseline,
    candidate: n.candidate,
    accepted: n.accepted === 1,
    gate_action: orNull(n.gate_action),
    stopped: orNull(n.stopped),
    calls: n.calls,
    tokens: n.tokens,
    input_tokens: n.input_tokens,
    output_tokens: n.output_tokens,
    cost_usd: n.cost_usd,
    cache_hits: n.cache_hits,
    proposal_id: orNull(n.proposal_id),
    error: orNull(n.error),
  };
}
