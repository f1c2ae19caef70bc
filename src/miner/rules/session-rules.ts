/**
 * What each follow-up of one session did to the agent's work. A **correction** is a follow-up, after
 * the agent acted, that made it change what it had done: it undid something, touched the same files
 * or commands again, or rewrote its text answer, and the change can be read (see `literal.ts` and
 * `shape.ts`). Its checks compare the answer it reacted to with the answer that followed, and must
 * fail on the session's first attempt (the answer a replay starts from) and pass on the answer that
 * followed.
 */
import { agentActed, type Episode } from '../episodes.js';
import { revisits } from './evidence.js';
import { correctionAnswers } from './verdict.js';
import { literalChecks, type LiteralCheck } from './literal.js';
import { shapeChecks, type ShapeCheck } from './shape.js';

export const MAX_SENTENCE_CHARS = 300;
/**
 * What a finding's readers keep of an answer (a lesson's evidence, a correction report). A project's
 * findings are all held until its lessons are built, so an answer is kept whole only where it is read
 * whole: the accepted answer of a follow-up that gave checks (`kind-rules.ts` tests other sessions'
 * checks on it).
 */
export const MAX_ANSWER_EXCERPT = 1500;

export interface FollowUpFinding {
  /** Index of the follow-up's episode. */
  episode: number;
  /** The follow-up as the user wrote it (trimmed, capped): the rule's wording and provenance. */
  sentence: string;
  /** The agent went back over its own work in reply. */
  redo: boolean;
  /** ... and undid or replaced part of it (not only added to it). */
  replaced: boolean;
  /** The follow-up is a pasted log or spec (long, many lines): a report to act on, never a rule. */
  pasted: boolean;
  literal: LiteralCheck[];
  shapes: ShapeCheck[];
  /**
   * The answer the user reacted to, and the answer that followed, as replayed: their first
   * `MAX_ANSWER_EXCERPT` characters, except the accepted answer of a finding with checks, kept whole.
   */
  rejected: string;
  accepted: string;
}

/** One finding per follow-up after the request that the agent answered. */
export function followUpFindings(
  episodes: readonly Episode[],
  requestIndex: number,
  common: ReadonlySet<string>,
): FollowUpFinding[] {
  if (episodes[requestIndex] === undefined) return [];
  const findings: FollowUpFinding[] = [];
  for (let k = requestIndex + 1; k < episodes.length; k++) {
    const episode = episodes[k] as Episode;
    // A template run bare (its prompt reduced to '') says nothing in the user's words.
    if (!agentActed(episode) || episode.prompt === '') continue;
    const answers = correctionAnswers(episodes, requestIndex, k);
    const previous = answers === null ? undefined : episodes[answers.rejectedAt];
    if (answers === null || previous === undefined || !agentActed(previous)) continue;
    const { undone } = answers;
    // A pasted log or spec is a report to act on, not a rule in the user's words.
    const pasted = isPasted(episode.prompt);
    const literal = pasted ? [] : literalChecks(episode.prompt, common, answers);
    const shapes = pasted ? [] : shapeChecks(answers);
    findings.push({
      episode: k,
      sentence: episode.prompt.trim().slice(0, MAX_SENTENCE_CHARS),
      redo: undone.size > 0 || revisits(previous, episode) || literal.length > 0,
      replaced: undone.size > 0 || replacesWork(previous, episode),
      pasted,
      literal,
      shapes,
      rejected: excerpt(answers.rejected.full),
      accepted:
        literal.length > 0 || shapes.length > 0 ? answers.accepted.full : excerpt(answers.accepted.full),
    });
  }
  return findings;
}

/**
 * The answer's first characters as a string of their own: a plain `slice` would keep the whole
 * answer in memory behind it (the engine shares the parent's characters).
 */
function excerpt(answer: string): string {
  if (answer.length <= MAX_ANSWER_EXCERPT) return answer;
  return JSON.parse(JSON.stringify(answer.slice(0, MAX_ANSWER_EXCERPT))) as string;
}

const MAX_RULE_CHARS = 400;
const MAX_RULE_LINES = 4;

function isPasted(prompt: string): boolean {
  return prompt.length > MAX_RULE_CHARS || prompt.split('\n').length > MAX_RULE_LINES;
}

/** The later answer's edits take out text the earlier answer had put in. */
function replacesWork(previous: Episode, later: Episode): boolean {
  const put = previous.actions
    .filter((a) => a.kind === 'write' || a.kind === 'edit')
    .map((a) => a.added)
    .join('\n');
  if (put === '') return false;
  return later.actions.some(
    (a) =>
      a.kind === 'edit' &&
      a.removed
        .split('\n')
        .map((line) => line.trim())
        .some((line) => line.length >= 4 && put.includes(line)),
  );
}
