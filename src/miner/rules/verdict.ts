/**
 * How the miner decides that a check separates two answers: it must fail, cleanly, on the answer the
 * user corrected (a check that cannot be evaluated there proves nothing) and pass on the answer that
 * followed. The offline rules (`literal.ts`, `shape.ts`) and the model pass (`model/rules-from-triples.ts`)
 * both decide here, so a model's check is held to the same test as the miner's own.
 */
import { ACTION_OPS } from '../../core/action-checks.js';
import type { Check } from '../../core/task.js';
import { evaluateCheck } from '../../replay/judges/rule-checks.js';
import { evidenceOf, fencedBlocks, revisits, undoneIn, workText, type AnswerEvidence } from './evidence.js';
import type { Episode } from '../episodes.js';

export const passes = (check: Check, answer: string): boolean => evaluateCheck(check, answer, []).pass;

export const fails = (check: Check, answer: string): boolean => {
  const result = evaluateCheck(check, answer, []);
  return result.problem === undefined && !result.pass;
};

/** The answers one correction is judged on (see `session-rules.ts`). */
export interface CorrectionAnswers {
  /** The session's first attempt: the answer a replay starts from. */
  firstAttempt: AnswerEvidence;
  /** The answer the user reacted to. */
  rejected: AnswerEvidence;
  /** The answer that followed, and the same without the commands that only undid the rejected one. */
  accepted: AnswerEvidence;
  acceptedNet: AnswerEvidence;
  /** Index of the episode the user reacted to (see {@link reactedTo}). */
  rejectedAt: number;
  /** Indices of the accepted answer's actions that only undo the rejected one. */
  undone: ReadonlySet<number>;
}

/** The answers of the follow-up at `k` to the request at `requestIndex`. */
export function correctionAnswers(
  episodes: readonly Episode[],
  requestIndex: number,
  k: number,
): CorrectionAnswers | null {
  const first = episodes[requestIndex];
  const rejectedAt = reactedTo(episodes, requestIndex, k);
  const previous = episodes[rejectedAt];
  const episode = episodes[k];
  if (first === undefined || previous === undefined || episode === undefined) return null;
  const undone = undoneIn(episode, previous);
  const named = new Set(episode.prompt.toLowerCase().match(/[\p{L}\p{N}_+-]+/gu) ?? []);
  const accepted = evidenceOf(episode, new Set(), named);
  return {
    firstAttempt: plainEvidence(first),
    rejected: rejectedEvidence(previous, episode),
    accepted,
    acceptedNet: undone.size === 0 ? accepted : evidenceOf(episode, undone, named),
    rejectedAt,
    undone,
  };
}

/**
 * The answer a follow-up at `k` reacts to: the latest one since the request that the corrected answer
 * goes back over (the same files or commands, or undoes part of it), else the latest that did some
 * work (ran or wrote something, or gave a fenced block). "Great." after "never mind, it works" is not
 * what "no, the message needs a `Refs: #` line" corrects, nor is the test run in between what
 * "don't touch dist/" (and `git restore dist/`) corrects.
 */
export function reactedTo(episodes: readonly Episode[], requestIndex: number, k: number): number {
  const corrected = episodes[k];
  let worked = -1;
  for (let j = k - 1; j > requestIndex; j--) {
    const e = episodes[j] as Episode;
    if (e.actions.length === 0 && fencedBlocks(e.text).length === 0) continue;
    if (worked < 0) worked = j;
    if (corrected !== undefined && (revisits(e, corrected) || undoneIn(corrected, e).size > 0)) return j;
  }
  const request = episodes[requestIndex];
  const backToRequest =
    request !== undefined &&
    corrected !== undefined &&
    (revisits(request, corrected) || undoneIn(corrected, request).size > 0);
  return backToRequest || worked < 0 ? requestIndex : worked;
}

/**
 * The rejected answer, with the text the corrected answer's edits took out of its files: that text was
 * there when the user objected, even when an answer in between did other work ("run the tests").
 */
function rejectedEvidence(previous: Episode, corrected: Episode): AnswerEvidence {
  const replaced = corrected.actions.filter((a) => a.kind === 'edit' && a.removed !== '');
  if (replaced.length === 0) return plainEvidence(previous);
  const before = replaced.map((a) => ({ ...a, added: a.removed, removed: '' }));
  return evidenceOf({ ...previous, actions: [...previous.actions, ...before] });
}

const PLAIN = new WeakMap<Episode, AnswerEvidence>();

/** An episode's evidence as is: every follow-up of a session is judged against its first attempt. */
function plainEvidence(episode: Episode): AnswerEvidence {
  let evidence = PLAIN.get(episode);
  if (evidence === undefined) {
    evidence = evidenceOf(episode);
    PLAIN.set(episode, evidence);
  }
  return evidence;
}

/**
 * Why a check does not separate the correction's answers, or null when it does: it fails on the first
 * attempt and on the rejected answer, and passes on the accepted one (as replayed; or without the
 * commands that only undid the rejected one, rendered for the action checks and as its bare work for
 * the text checks, as the offline literal and shape checks are decided).
 */
export function separationProblem(check: Check, answers: CorrectionAnswers): string | null {
  if (!fails(check, answers.rejected.full)) return 'rejected answer passes it';
  if (!fails(check, answers.firstAttempt.full)) return "the session's first attempt passes it";
  const net = answers.acceptedNet;
  // The bare work has no action lines: an action check would pass it for doing nothing.
  const bare = ACTION_OPS.has(check.op) ? net.full : workText(net);
  const accepted = passes(check, answers.accepted.full) || passes(check, bare);
  return accepted ? null : 'accepted answer fails it';
}

/** The two rendered answers of a correction, when the session's episodes are not at hand. */
export interface AnswerPair {
  rejected: string;
  accepted: string;
}

/**
 * The checks a correction's own answers bear out, and why each other one was dropped: it must fail
 * the answer the user rejected and pass the one they accepted (`separationProblem` with the session's
 * episodes; with rendered answers only, those two tests), whatever its op.
 */
export function keepSeparating(
  checks: readonly Check[],
  answers: CorrectionAnswers | AnswerPair,
): { kept: Check[]; dropped: Array<{ check: Check; why: string }> } {
  const kept: Check[] = [];
  const dropped: Array<{ check: Check; why: string }> = [];
  for (const check of checks) {
    const why = 'firstAttempt' in answers ? separationProblem(check, answers) : pairProblem(check, answers);
    if (why === null) kept.push(check);
    else dropped.push({ check, why });
  }
  return { kept, dropped };
}

function pairProblem(check: Check, answers: AnswerPair): string | null {
  if (!fails(check, answers.rejected)) return 'rejected answer passes it';
  return passes(check, answers.accepted) ? null : 'accepted answer fails it';
}
