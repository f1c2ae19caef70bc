/**
 * What the miner reads from one session alone (its screening, its episodes, its outcome): stored with
 * the session so a night with nothing new mines no session twice. The cross-session steps (preambles,
 * kinds, rules) run on these every time; they depend on the whole corpus. Stored features are valid
 * under the miner's code digest (`code-digest.ts`), which covers this module and what it imports.
 */
import { sessionEpisodes, type Episode } from './episodes.js';
import { isReplayPrompt, userPrompts } from './normalize-intent.js';
import { labelOutcome } from './outcome.js';
import type { DroppedCounts, LabeledOutcome, MinerSession } from './types.js';

export interface SessionFeatures {
  /** Why the session is not mined (null: it is). */
  dropped: keyof DroppedCounts | null;
  /** Empty when dropped. */
  episodes: Episode[];
  /** null when dropped. */
  outcome: LabeledOutcome | null;
}

export function sessionFeatures(session: MinerSession): SessionFeatures {
  const dropped = screen(session);
  if (dropped !== null) return { dropped, episodes: [], outcome: null };
  return { dropped: null, episodes: sessionEpisodes(session), outcome: labelOutcome(session) };
}

/** Drops our own replays first (they may also look short or meta), then prompt-less ones. */
function screen(session: MinerSession): keyof DroppedCounts | null {
  const firstUserText = session.turns.find((turn) => turn.role === 'user' && turn.text.trim() !== '')?.text;
  const prompt = userPrompts(session.turns)[0];
  if ([firstUserText, prompt?.text].some((text) => text !== undefined && isReplayPrompt(text)))
    return 'replay';
  return prompt === undefined ? 'meta' : null;
}
