/**
 * What the target sees with a mined task besides its request: what else the user wrote before the
 * agent's first answer (a request typed over several prompts, or sent again while the agent was still
 * silent). Nothing after the first answer is shown: those follow-ups react to it (corrections,
 * thanks), and the skill must make them unnecessary; shown with the task, they would hand the target
 * the lesson and contaminate the held-out gate.
 */
import { renderAnswer, type Episode } from './episodes.js';
import { feedbackSignals } from './outcome.js';

const CONTEXT_HEADER = 'The user also wrote, before any answer:';
const MAX_PROMPT_CHARS = 500;
/** "continue", "go on", "?" and the like: a nudge, not a request. */
const NUDGE =
  /^(?:continue|go on|go ahead|proceed|keep going|carry on|please|ok(?:ay)?|yes|y|\?+|\.+)[.!?\s]*$/i;

/** The prompts after the request up to the first answer, without nudges and feedback, as one block. */
export function contextBeforeFirstAnswer(episodes: readonly Episode[], requestIndex: number): string {
  const asked: string[] = [];
  for (let k = requestIndex; k < episodes.length; k++) {
    const episode = episodes[k] as Episode;
    const prompt = episode.prompt.trim();
    if (k > requestIndex && prompt !== '' && !NUDGE.test(prompt) && feedbackSignals(prompt).length === 0)
      asked.push(`- ${[...prompt].slice(0, MAX_PROMPT_CHARS).join('')}`);
    if (renderAnswer(episode) !== '') return asked.length === 0 ? '' : [CONTEXT_HEADER, ...asked].join('\n');
  }
  // The agent never answered: there is no attempt to replay, and nothing to add.
  return '';
}
