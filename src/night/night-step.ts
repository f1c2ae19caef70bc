/**
 * One training step of the shared trainer core, as a night runs it: replay train → reflect on failures →
 * bounded edits in the learned block → gate on val → accept or roll back. Edits that did not earn their
 * place (removing them does not lower the validation score) are pruned before acceptance, so a harmful
 * edit cannot ride along with a useful one. The held-out test tasks are scored with the starting skill
 * and with the final one, and nothing else: the gate and reflection never see them.
 */
import type { Backend, RejectedEditMemory } from '../backends/types.js';
import type { Usage } from '../core/usage.js';
import { zeroUsage } from '../core/usage.js';
import type { Check, Edit, EditTarget, TaskRecord } from '../core/task.js';
import { declaredTools } from '../core/tool-calls.js';
import { replayTasks, type ReplayDocs, type ReplayResult } from '../replay/replay.js';
import { separatesAnswers, type GateMetricConfig } from '../replay/score.js';
import { addTally, emptyTally, ReplayMemo, type ReplayTally } from '../replay/replay-memo.js';
import { batchScore } from '../trainer/gate.js';
import type { GateAction, GateTrial, RejectedEdit, ReplayPhase } from '../trainer/gate-records.js';
import { selectEdits, TIE_REASON } from '../trainer/select-edits.js';
import { learnedBlockEditor } from '../trainer/learned-block.js';
import type { DocEditor } from '../core/doc-editor.js';
import { proposeEdits } from '../trainer/propose.js';
import { screenEdits, type ScreenResult } from '../trainer/edit-screen.js';
import type { ForgottenLesson } from '../core/forgotten-lesson.js';
import { ruleChecks } from '../core/task.js';
import { waitsIn, WaitList } from '../core/waits.js';

export interface TrainerOptions {
  editBudget: number;
  /** Replays per train task (1 = one); reflection then sees each task's worst and best attempt. */
  rollouts?: number;
  /** Most model calls in flight at once. */
  workers?: number;
  metric: GateMetricConfig;
  noRegression: boolean;
  preferences: string;
}

export interface NightStepInput {
  tasks: TaskRecord[];
  skill: string;
  memory: string;
  /**
   * Which document this step trains (default 'skill'). For 'memory', `skill` holds the memory
   * document being trained and `memory` the skill, read-only; replays still show each in its place.
   */
  target?: EditTarget;
  backend: Backend;
  rejected: RejectedEditMemory[];
  /** Edits that tied on an earlier night, re-tested together with this night's new edits. */
  pending?: Edit[];
  options: TrainerOptions;
  /** Called after every replay batch (for the store and progress). */
  onReplay?: (phase: ReplayPhase, doc: string, results: ReplayResult[]) => void;
  /** The night's replays so far (shared by its passes): documents replayed before are not asked again. */
  memo?: ReplayMemo;
  /** How edits change the document (default: the managed skill's learned block). */
  editor?: DocEditor;
  /** Rules the user rejected or forgot: an edit that states one is never applied (`edit-screen.ts`). */
  forgotten?: readonly ForgottenLesson[];
}

/** What a step asked the backend, by purpose: each replay phase, and reflection. */
export interface StepRequests {
  replays: Partial<Record<ReplayPhase, ReplayTally>>;
  reflect: number;
}

export interface NightStepResult {
  accepted: boolean;
  gateAction: GateAction;
  noEditsReason: string;
  baseline: number;
  candidate: number;
  holdoutLeaked: boolean;
  skill: string;
  edits: Edit[];
  rejectedEdits: RejectedEdit[];
  unmatchedEdits: Edit[];
  trials: GateTrial[];
  /** Rejected only for a tie (no task regressed): worth re-testing with the next night's edits. */
  pendingEdits: Edit[];
  /** The held-out test's score with the skill the step started from (null without test tasks). */
  testBefore: number | null;
  /** The held-out test's score with the skill the step ended with (null without test tasks). */
  testScore: number | null;
  /**
   * The documents as the step's replays showed them, before and after, and the tasks a paired
   * comparison may use (its held-out test; its validation tasks, none when the holdout leaked).
   */
  pair?: { before: ReplayDocs; after: ReplayDocs; test: TaskRecord[]; val: TaskRecord[] };
  /** `unscored`: tasks left out of every phase because their judge cannot tell answers apart. */
  counts: { train: number; val: number; test: number; unscored: number };
  requests: StepRequests;
  usage: Usage;
  /** What the screen of edits did: patterns rewritten in the user's words, rules the user rejected dropped. */
  screened?: Pick<ScreenResult, 'rewritten' | 'forgottenDropped'> & { refused: number };
}

/** The requests of several steps (a night's passes) as one: each phase's tallies summed. */
export function joinRequests(all: readonly StepRequests[]): StepRequests {
  const joined: StepRequests = { replays: {}, reflect: 0 };
  for (const r of all) {
    joined.reflect += r.reflect;
    for (const [phase, tally] of Object.entries(r.replays) as Array<[ReplayPhase, ReplayTally]>)
      addTally((joined.replays[phase] ??= emptyTally()), tally);
  }
  return joined;
}

interface Partition {
  train: TaskRecord[];
  val: TaskRecord[];
  test: TaskRecord[];
  leaked: boolean;
}

/** Train drives reflection, val gates, test is never seen by either. An empty side borrows the other (leaked). */
export function partition(tasks: TaskRecord[]): Partition {
  const train = tasks.filter((t) => t.split === 'train');
  const val = tasks.filter((t) => t.split === 'val');
  const test = tasks.filter((t) => t.split === 'test');
  if (val.length === 0 && train.length > 0) return { train, val: train, test, leaked: true };
  if (train.length === 0 && val.length > 0) return { train: val, val, test, leaked: true };
  return { train, val, test, leaked: false };
}

/**
 * Replay the train split `k` times (sample ids 0..k-1) and keep, per task, the worst attempt (what to
 * fix) and the best one (what worked): contrastive material for reflection. The samples do not depend
 * on each other: a night that waits for answers queues them all at once.
 */
async function rolloutTrain(
  train: TaskRecord[],
  doc: string,
  k: number,
  replay: (
    phase: ReplayPhase,
    tasks: TaskRecord[],
    skill: string,
    sampleId?: number,
  ) => Promise<ReplayResult[]>,
): Promise<{ worst: ReplayResult[]; best: ReplayResult[] }> {
  const rounds: ReplayResult[][] = [];
  const waits = new WaitList();
  for (let sample = 0; sample < Math.max(1, k); sample++) {
    const round = await waits.pass(replay('train', train, doc, sample));
    if (round) rounds.push(round);
  }
  waits.rethrow();
  const pick = (better: (a: ReplayResult, b: ReplayResult) => boolean): ReplayResult[] =>
    train
      .map((_, i) => {
        let chosen = rounds[0]?.[i];
        for (const round of rounds) {
          const r = round[i];
          if (r && chosen && better(r, chosen)) chosen = r;
        }
        return chosen;
      })
      .filter((r): r is ReplayResult => r !== undefined);
  const score = (r: ReplayResult): number => r.hard + r.soft;
  return { worst: pick((a, b) => score(a) < score(b)), best: pick((a, b) => score(a) > score(b)) };
}

export async function runNightStep(input: NightStepInput): Promise<NightStepResult> {
  const { backend, options } = input;
  const usage = zeroUsage();
  const target = input.target ?? 'skill';
  // A task no answer can change (score constant: no check, no criterion) is never replayed.
  const scored = input.tasks.filter((t) => separatesAnswers(t, backend));
  const parts = partition(scored);
  // The tools the training judges check for, on every attempt (a held-out judge never adds one).
  const tools = declaredTools([...parts.train, ...parts.val]);
  const memo = input.memo ?? new ReplayMemo();
  const requests: StepRequests = { replays: {}, reflect: 0 };
  // The trained document in its place: the memory pass trains the memory, the skill stays read-only.
  const docsOf = (doc: string): ReplayDocs =>
    input.target === 'memory'
      ? { skill: input.memory, memory: doc, tools }
      : { skill: doc, memory: input.memory, tools };
  const replay = async (
    phase: ReplayPhase,
    tasks: TaskRecord[],
    skill: string,
    sampleId = 0,
  ): Promise<ReplayResult[]> => {
    const docs = docsOf(skill);
    const tally = emptyTally();
    try {
      const results = await replayTasks(tasks, docs, backend, usage, { sampleId, memo, tally }).catch(
        waitsIn(`${target} ${phase}`),
      );
      input.onReplay?.(phase, skill, results);
      return results;
    } finally {
      addTally((requests.replays[phase] ??= emptyTally()), tally);
    }
  };
  const result: NightStepResult = {
    accepted: false,
    gateAction: 'reject',
    noEditsReason: '',
    baseline: 0,
    candidate: 0,
    holdoutLeaked: parts.leaked,
    skill: input.skill,
    edits: [],
    rejectedEdits: [],
    unmatchedEdits: [],
    trials: [],
    pendingEdits: [],
    testBefore: null,
    testScore: null,
    counts: {
      train: parts.train.length,
      val: parts.val.length,
      test: parts.test.length,
      unscored: input.tasks.length - scored.length,
    },
    requests,
    usage,
  };
  const refusedByScreen: RejectedEdit[] = [];
  // The test's "before" asks nothing the gate waits for: it starts now, with the first requests (a
  // handoff night queues it in its first round), and is awaited at the end.
  const testBefore = parts.test.length > 0 ? replay('baseline_test', parts.test, input.skill) : null;
  testBefore?.catch(() => {}); // awaited in finish(); an early stop must not leave it unhandled
  const finish = async (): Promise<NightStepResult> => {
    result.rejectedEdits.push(...refusedByScreen);
    result.pair = {
      before: docsOf(input.skill),
      after: docsOf(result.skill),
      test: parts.test,
      val: parts.leaked ? [] : parts.val,
    };
    result.pendingEdits = result.accepted
      ? []
      : result.rejectedEdits
          .filter((e) => e.delta === 0 && e.reason === TIE_REASON)
          .map(({ target, op, content, anchor, rationale }) => ({ target, op, content, anchor, rationale }));
    if (testBefore) {
      const before = batchScore(await testBefore, options.metric);
      // An unchanged skill answers the test as it did: its score is the "after" too.
      const after =
        result.skill === input.skill
          ? before
          : batchScore(await replay('final_test', parts.test, result.skill), options.metric);
      result.testBefore = before;
      result.testScore = after;
    }
    return result;
  };

  if (parts.val.length === 0) {
    result.noEditsReason = 'no tasks to replay';
    return finish();
  }
  // Every edit is screened before it is applied: plain words, and never a rule the user rejected.
  const screen = (edits: readonly Edit[], checks: Check[]): Edit[] => {
    const screened = screenEdits(edits, { checks, forgotten: input.forgotten ?? [] });
    refusedByScreen.push(...screened.refused);
    const tally = (result.screened ??= { rewritten: 0, forgottenDropped: 0, refused: 0 });
    tally.rewritten += screened.rewritten;
    tally.forgottenDropped += screened.forgottenDropped;
    tally.refused += screened.refused.length;
    return screened.kept;
  };
  const taskChecks = (tasks: readonly TaskRecord[]): Check[] => tasks.flatMap((t) => ruleChecks(t));
  // Edits that tied on an earlier night are tried again on top of the live skill, so rules that only
  // help together can be learned one at a time (the reference stayed stuck at edit_budget 1).
  const editor = input.editor ?? learnedBlockEditor;
  const pending = editor.apply(input.skill, screen(input.pending ?? [], taskChecks(parts.train)));
  const workingDoc = pending.doc;
  // The baseline and the train replays do not depend on each other: a night that waits for answers
  // queues both in one round (an interactive night still replays one after the other).
  const waits = new WaitList();
  const baselineResults = await waits.pass(replay('baseline_val', parts.val, input.skill));
  const trainRollouts = await waits.pass(
    rolloutTrain(parts.train, workingDoc, options.rollouts ?? 1, replay),
  );
  waits.rethrow();
  if (!baselineResults || !trainRollouts) throw new Error('unreachable: replays without a wait have results');
  result.baseline = batchScore(baselineResults, options.metric);
  result.candidate = result.baseline;
  const trainResults = trainRollouts.worst;
  const failures = trainResults.filter((r) => r.hard < 1);
  let fresh: Edit[] = [];
  if (failures.length === 0) {
    result.noEditsReason = 'every train task already passes';
  } else if (options.editBudget === 0) {
    result.noEditsReason = 'edit_budget is 0';
  } else {
    // A night reflects once on all its failures (no minibatches) and keeps edit_budget edits.
    const proposal = await proposeEdits({
      backend,
      target,
      doc: workingDoc,
      otherDoc: input.memory,
      failures: failures.map((r) => ({
        task: r.task,
        response: r.response,
        score: r,
        toolsCalled: r.toolsCalled,
      })),
      successes: trainRollouts.best
        .filter((r) => r.hard >= 1)
        .map((r) => ({ task: r.task, response: r.response, score: r, toolsCalled: r.toolsCalled })),
      minibatchSize: 0,
      reflectSuccesses: false,
      reflectBudget: options.editBudget,
      select: options.editBudget,
      rejected: input.rejected,
      pending: input.pending ?? [],
      preferences: options.preferences,
      ...(editor.wholeDocument ? { wholeDocument: true } : {}),
      workers: options.workers ?? 1,
      seed: 0,
      usage,
    }).catch(waitsIn(`${target} reflect`));
    requests.reflect += proposal.reflectCalls;
    // edit_budget bounds the NEW edits of a night; pending ones are re-tests.
    const proposed = screen(proposal.selected, taskChecks(failures.map((r) => r.task)));
    const appliedNew = editor.apply(workingDoc, proposed);
    result.unmatchedEdits = appliedNew.unmatched;
    fresh = appliedNew.applied;
    if (fresh.length === 0) {
      result.noEditsReason =
        proposal.selected.length === 0
          ? 'the optimizer proposed no new edit'
          : proposed.length === 0
            ? 'every proposed edit was a pattern or a rule the user rejected'
            : 'no proposed edit changed the skill';
    }
  }
  const candidates = [...pending.applied, ...fresh];
  if (candidates.length === 0) return finish();

  const selection = await selectEdits({
    baseDoc: input.skill,
    edits: candidates,
    baselineResults,
    metric: options.metric,
    noRegression: options.noRegression,
    replay,
    // A leaked holdout accepts nothing: pruning would decide nothing.
    prune: !parts.leaked,
    editor,
  });
  result.trials = selection.trials.map((t) => ({ ...t, target }));
  result.rejectedEdits = selection.rejected;
  if (!selection.accepted) return finish();
  if (parts.leaked) {
    // No task was set aside for validation, so the gain is unverified: report the edits, accept nothing.
    result.gateAction = 'reject_unverified';
    result.rejectedEdits.push(
      ...selection.kept.map((e) => ({ ...e, delta: 0, reason: 'unverified: no validation tasks' })),
    );
    return finish();
  }
  result.accepted = true;
  result.gateAction = 'accept_new_best';
  result.edits = selection.kept;
  result.skill = selection.doc;
  result.candidate = selection.score;
  return finish();
}
