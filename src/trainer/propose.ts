/**
 * From judged trajectories to the edits a step will try: reflect on minibatches (failures always,
 * successes optionally; they see the rejected-edit buffer) → drop edits that made validation worse before → aggregate similar edits (the
 * backend's optional `mergeEdits`, else a deterministic de-duplication) → rank by support → keep the
 * step's learning rate worth of edits.
 */
import type { Backend, RejectedEditMemory, SupportedEdit, Trajectory } from '../backends/types.js';
import type { Usage } from '../core/usage.js';
import { addUsage } from '../core/usage.js';
import { tasksSessions, type Edit } from '../core/task.js';
import { mapPool } from '../core/pool.js';
import { chunks, shuffled } from '../core/rng.js';
import { normalizeEditContent } from '../core/rejected-edit.js';
import { reflectionBuffer, withoutRefused } from './rejected-buffer.js';
import { learnedBlockState } from './learned-block.js';
import { isUnusableReply } from './unusable-reply.js';

export interface ProposeInput {
  backend: Backend;
  /** The document being trained (default 'skill'). */
  target?: Edit['target'];
  doc: string;
  otherDoc: string;
  failures: Trajectory[];
  successes: Trajectory[];
  /** Trajectories per reflection call; 0 puts everything (failures and successes) in one call. */
  minibatchSize: number;
  /** Also reflect on successful trajectories in their own minibatches (minibatchSize > 0 only). */
  reflectSuccesses: boolean;
  /** The most edits one reflection call may return. */
  reflectBudget: number;
  /** How many edits the step keeps after ranking (its learning rate). */
  select: number;
  /** Every edit the gate refused before; reflection sees the buffer of it (`rejected-buffer.ts`). */
  rejected: RejectedEditMemory[];
  /** Edits pending a re-test: not shown as refused. */
  pending?: Edit[];
  preferences: string;
  metaNote?: string;
  /** The document is a user's own skill, all of whose text may change (not a learned block). */
  wholeDocument?: boolean;
  workers: number;
  /** Seeds the minibatch composition. */
  seed: number;
  usage: Usage;
}

export interface Proposal {
  /** Every edit the reflection calls returned (before filtering). */
  proposed: Edit[];
  /** After removing refused edits and aggregating, ranked. */
  ranked: SupportedEdit[];
  selected: Edit[];
  /** 'backend' when the backend merged, 'fallback' when the deterministic de-duplication did. */
  merge: 'backend' | 'fallback' | 'none';
  reflectCalls: number;
}

const editKey = (e: Pick<Edit, 'op' | 'anchor' | 'content'>): string =>
  `${e.op}|${normalizeEditContent(e.anchor)}|${normalizeEditContent(e.content)}`;

/**
 * Deterministic aggregation: identical edits (same op, anchor and normalised content) become one with
 * their support summed; edits that replace or delete the same anchor keep only the best supported one.
 * Order is first appearance.
 */
export function dedupeEdits(edits: SupportedEdit[]): SupportedEdit[] {
  const byKey = new Map<string, SupportedEdit>();
  for (const e of edits) {
    const key = editKey(e);
    const seen = byKey.get(key);
    if (seen) {
      seen.support += e.support;
      if (e.source === 'failure') seen.source = 'failure';
    } else byKey.set(key, { ...e });
  }
  const out: SupportedEdit[] = [];
  const byAnchor = new Map<string, number>();
  for (const e of byKey.values()) {
    const anchor = e.op === 'add' ? '' : normalizeEditContent(e.anchor);
    const at = anchor === '' ? undefined : byAnchor.get(anchor);
    if (at === undefined) {
      if (anchor !== '') byAnchor.set(anchor, out.length);
      out.push(e);
    } else if ((out[at]?.support ?? 0) < e.support) out[at] = e;
  }
  return out;
}

/** Failure-driven edits first, then by support; ties keep their order (a stable sort). */
export function rankEdits(edits: SupportedEdit[]): SupportedEdit[] {
  return edits
    .map((e, i) => ({ e, i }))
    .sort(
      (a, b) =>
        Number(b.e.source === 'failure') - Number(a.e.source === 'failure') ||
        b.e.support - a.e.support ||
        a.i - b.i,
    )
    .map(({ e }) => e);
}

const OPS = new Set(['add', 'replace', 'delete']);

/**
 * A merge reply is usable when every item is an edit of a known op with string fields. Support is the
 * reply's own count, else that of the proposals it repeats unchanged, else 1: ranking by support must
 * survive a merge.
 */
function asEdits(reply: unknown[], inputs: SupportedEdit[]): SupportedEdit[] | null {
  const fallbackTarget = inputs[0]?.target ?? 'skill';
  const inputSupport = new Map<string, number>();
  for (const e of inputs) inputSupport.set(editKey(e), (inputSupport.get(editKey(e)) ?? 0) + e.support);
  const out: SupportedEdit[] = [];
  for (const item of reply) {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) return null;
    const r = item as Record<string, unknown>;
    if (typeof r.op !== 'string' || !OPS.has(r.op) || typeof r.content !== 'string') return null;
    if (r.anchor !== undefined && typeof r.anchor !== 'string') return null;
    const edit = {
      target: r.target === 'memory' || r.target === 'skill' ? r.target : fallbackTarget,
      op: r.op as Edit['op'],
      content: r.content,
      anchor: typeof r.anchor === 'string' ? r.anchor : '',
      rationale: typeof r.rationale === 'string' ? r.rationale : 'merged',
    };
    const support =
      typeof r.support === 'number' && r.support > 0 ? r.support : (inputSupport.get(editKey(edit)) ?? 1);
    out.push({ ...edit, support, source: r.source === 'success' ? 'success' : 'failure' });
  }
  return out.length > 0 ? out : null;
}

/** One reflection's edits are already distinct: the model merges only what several reflections proposed. */
async function aggregate(
  input: ProposeInput,
  edits: SupportedEdit[],
  reflections: number,
): Promise<{ edits: SupportedEdit[]; merge: Proposal['merge'] }> {
  const deduped = dedupeEdits(edits);
  if (deduped.length <= 1 || reflections <= 1 || !input.backend.mergeEdits)
    return { edits: deduped, merge: 'none' };
  try {
    const reply = await input.backend.mergeEdits({
      doc: input.doc,
      edits: deduped,
      ...(input.metaNote ? { metaNote: input.metaNote } : {}),
      sessions: tasksSessions([...input.failures, ...input.successes].map((t) => t.task)),
    });
    addUsage(input.usage, reply.usage);
    const merged = Array.isArray(reply.edits) ? asEdits(reply.edits, deduped) : null;
    // A merge may not bring back an edit the gate refused.
    if (merged) return { edits: dedupeEdits(withoutRefused(merged, input.rejected)), merge: 'backend' };
  } catch (err) {
    // Only an unusable reply falls back (budget, auth and handoff waits stop the night); the
    // deterministic de-duplication stands in, and the error is not shown (it may carry secrets).
    if (!isUnusableReply(err)) throw err;
  }
  return { edits: deduped, merge: 'fallback' };
}

export async function proposeEdits(input: ProposeInput): Promise<Proposal> {
  type Call = { failures: Trajectory[]; successes: Trajectory[]; source: SupportedEdit['source'] };
  const calls: Call[] = [];
  if (input.minibatchSize <= 0) {
    if (input.failures.length > 0)
      calls.push({ failures: input.failures, successes: input.successes, source: 'failure' });
  } else {
    for (const mb of chunks(shuffled(input.failures, input.seed), input.minibatchSize))
      calls.push({ failures: mb, successes: [], source: 'failure' });
    if (input.reflectSuccesses)
      for (const mb of chunks(shuffled(input.successes, input.seed + 1), input.minibatchSize))
        calls.push({ failures: [], successes: mb, source: 'success' });
  }
  const buffer = reflectionBuffer(input.rejected, input.pending);
  const learnedBlock = input.wholeDocument ? 'whole' : learnedBlockState(input.doc);
  const replies = await mapPool(calls, input.workers, (call) =>
    input.backend.reflect({
      target: input.target ?? 'skill',
      doc: input.doc,
      otherDoc: input.otherDoc,
      failures: call.failures,
      successes: call.successes,
      editBudget: input.reflectBudget,
      rejected: buffer,
      preferences: input.preferences,
      ...(input.metaNote ? { metaNote: input.metaNote } : {}),
      ...(learnedBlock ? { learnedBlock } : {}),
    }),
  );
  const proposed: Edit[] = [];
  const supported: SupportedEdit[] = [];
  replies.forEach((reply, i) => {
    addUsage(input.usage, reply.usage);
    const edits = reply.edits.slice(0, input.reflectBudget);
    proposed.push(...edits);
    for (const e of withoutRefused(edits, input.rejected))
      supported.push({ ...e, support: 1, source: calls[i]?.source ?? 'failure' });
  });
  const { edits, merge } = await aggregate(input, supported, calls.length);
  const ranked = rankEdits(edits);
  const selected = ranked
    .slice(0, Math.max(0, input.select))
    .map(({ target, op, content, anchor, rationale }) => ({ target, op, content, anchor, rationale }));
  return { proposed, ranked, selected, merge, reflectCalls: calls.length };
}
