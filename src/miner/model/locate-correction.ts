/**
 * Finds a correction report's place in its session again, so a model's check is judged on the same
 * full answers the offline miner judged its own on (a report keeps them only cut short, for the
 * prompt). The request is the episode whose prompt the session's task states; the correction is the
 * follow-up after it whose sentence the report holds, where the agent acted before and after.
 */
import { agentActed, sessionEpisodes } from '../episodes.js';
import { requestIndexOf } from '../mine.js';
import { statesPrompt } from '../templates.js';
import { MAX_SENTENCE_CHARS } from '../rules/session-rules.js';
import { correctionAnswers, type CorrectionAnswers } from '../rules/verdict.js';
import type { MinerSession } from '../types.js';

/**
 * `intent`: the session's task intent (its chosen request, as the miner cut it); `nth`: which report
 * of this session with this sentence (0 for the first), for a correction the user repeated.
 */
export function locateCorrection(
  session: MinerSession,
  intent: string,
  sentence: string,
  nth = 0,
): CorrectionAnswers | null {
  const episodes = sessionEpisodes(session);
  const request = requestIndexOf(episodes, intent);
  if (request < 0) return null;
  let seen = 0;
  for (let k = request + 1; k < episodes.length; k++) {
    const previous = episodes[k - 1];
    const episode = episodes[k];
    if (previous === undefined || episode === undefined) continue;
    if (!agentActed(previous) || !agentActed(episode)) continue;
    const said = episode.prompt.trim();
    if (said.slice(0, MAX_SENTENCE_CHARS) !== sentence && !statesPrompt(said, sentence)) continue;
    if (seen === nth) return correctionAnswers(episodes, request, k);
    seen += 1;
  }
  return null;
}
