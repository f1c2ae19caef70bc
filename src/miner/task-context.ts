/**
 * What the target sees with a mined task besides its request: what else the user wrote before the
 * agent's first answer (a request typed over several prompts, or sent again while the agent was still
 * silent), and later prompts that are new requests rather than reactions to an answer, labelled so.
 * Corrections, feedback and nudges are never shown: the skill must make them unnecessary, and shown
 * with the task they would hand the target the lesson and contaminate the validation gate.
 */
import type { ToolAction } from '../core/session.js';
import { renderAnswer, type Episode } from './episodes.js';
import { feedbackSignals } from './outcome.js';

const CONTEXT_HEADER = 'The user also wrote, before any answer:';
const LATER_HEADER = 'Later in the same session the user asked, as new requests:';
const MAX_PROMPT_CHARS = 500;
const MAX_LATER_REQUESTS = 3;
/** "continue", "go on", "?" and the like: a nudge, not a request. */
const NUDGE =
  /^(?:continue|go on|go ahead|proceed|keep going|carry on|please|ok(?:ay)?|yes|y|\?+|\.+)[.!?\s]*$/i;

const clip = (prompt: string): string => `- ${[...prompt].slice(0, MAX_PROMPT_CHARS).join('')}`;
const isRequestLike = (prompt: string): boolean =>
  prompt !== '' && !NUDGE.test(prompt) && feedbackSignals(prompt).length === 0;

/** The prompts after the request up to the first answer, without nudges and feedback, as one block. */
export function contextBeforeFirstAnswer(episodes: readonly Episode[], requestIndex: number): string {
  const asked: string[] = [];
  for (let k = requestIndex; k < episodes.length; k++) {
    const episode = episodes[k] as Episode;
    const prompt = episode.prompt.trim();
    if (k > requestIndex && isRequestLike(prompt)) asked.push(clip(prompt));
    if (renderAnswer(episode) !== '') return asked.length === 0 ? '' : [CONTEXT_HEADER, ...asked].join('\n');
  }
  // The agent never answered: there is no attempt to replay, and nothing to add.
  return '';
}

/** Words of three letters or more, lower-cased (letters and digits of any script). */
function words(text: string): Set<string> {
  return new Set(text.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}_-]{2,}/gu) ?? []);
}

/** What a changing action works on: a file, or a command's first two words. Reads change nothing. */
function changeKey(a: ToolAction): string {
  if (a.kind === 'run') return `run:${a.target.trim().split(/\s+/).slice(0, 2).join(' ')}`;
  if (a.kind === 'edit' || a.kind === 'write' || a.kind === 'delete') return `file:${a.target}`;
  return '';
}

/**
 * Later prompts that are new requests, judged by structure alone: the agent answered with changes to
 * files or commands it had not touched before in the session (a correction makes it redo its work),
 * and the prompt picks up no word the agent's earlier answers brought in that the user's request did
 * not have (a reaction quotes what it reacts to: "npm", "watch mode"). Prompts the miner read a
 * correction from (`corrections`) never count. When in doubt a prompt is left out: missing context
 * costs a little, a correction shown to the target costs the gate.
 */
export function laterRequests(
  episodes: readonly Episode[],
  requestIndex: number,
  corrections: readonly string[] = [],
): string {
  let k = requestIndex;
  while (k < episodes.length && renderAnswer(episodes[k] as Episode) === '') k++;
  const asked = words(
    episodes
      .slice(requestIndex, k + 1)
      .map((e) => e.prompt)
      .join('\n'),
  );
  // The words answers brought in are read only for a prompt that passed every other test: answers
  // wait in `unread` until then (rendering and splitting every answer was most of this function's cost).
  const brought = new Set<string>();
  const unread: Episode[] = [];
  const broughtWords = (): Set<string> => {
    for (const e of unread) for (const w of words(renderAnswer(e))) if (!asked.has(w)) brought.add(w);
    unread.length = 0;
    return brought;
  };
  const touched = new Set<string>();
  const remember = (e: Episode): void => {
    unread.push(e);
    for (const a of e.actions) touched.add(changeKey(a));
  };
  if (k < episodes.length) remember(episodes[k] as Episode);
  const later: string[] = [];
  for (let j = k + 1; j < episodes.length && later.length < MAX_LATER_REQUESTS; j++) {
    const episode = episodes[j] as Episode;
    const prompt = episode.prompt.trim();
    const changes = episode.actions.map(changeKey).filter((key) => key !== '');
    const fresh =
      isRequestLike(prompt) &&
      !corrections.some((s) => s !== '' && prompt.includes(s)) &&
      changes.length > 0 &&
      changes.every((key) => !touched.has(key)) &&
      ![...words(prompt)].some((w) => broughtWords().has(w));
    if (fresh) later.push(clip(prompt));
    remember(episode);
  }
  return later.length === 0 ? '' : [LATER_HEADER, ...later].join('\n');
}

/** The task's context: the early prompts, then the later new requests, each block labelled. */
export function taskContext(
  episodes: readonly Episode[],
  requestIndex: number,
  corrections: readonly string[] = [],
): string {
  return [
    contextBeforeFirstAnswer(episodes, requestIndex),
    laterRequests(episodes, requestIndex, corrections),
  ]
    .filter((block) => block !== '')
    .join('\n\n');
}
