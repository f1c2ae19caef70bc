/**
 * What the prompt classifier learns from this user's whole corpus: which words the agents write as
 * ordinary words (so a word in capitals is shouted, not an acronym). Computed once per mined project.
 */
import type { Episode } from '../episodes.js';
import { proseOf, type CorpusSignals } from './follow-ups.js';
/** A lower-case word between spaces or sentence punctuation: prose, not a name in code. */
const PROSE_WORD = /(?<=^|\s)(\p{Ll}{3,})(?=[\s,.;:!?)]|$)/gu;
const CAPITALS = /(?<![\p{L}\p{N}_])\p{Lu}{3,}(?![\p{L}\p{N}_])/gu;

export interface CorpusSession {
  episodes: readonly Episode[];
  request: number;
}

export function corpusSignals(
  sessions: readonly CorpusSession[],
  common: ReadonlySet<string>,
): CorpusSignals {
  const shouted = new Set<string>();
  const shouting: CorpusSession[] = [];
  for (const session of sessions) {
    let shouts = false;
    for (const episode of session.episodes.slice(Math.max(0, session.request + 1))) {
      for (const match of proseOf(episode.prompt).matchAll(CAPITALS)) {
        shouted.add(match[0].toLowerCase());
        shouts = true;
      }
    }
    if (shouts) shouting.push(session);
  }
  return { ordinaryWord: ordinaryWords(shouting, shouted), common };
}

/**
 * Of the words users wrote in capitals, those the agents also write in lower case in their prose (of
 * the sessions where the user shouted: the agent answers in the user's language): ordinary words,
 * shouted. An acronym (`API`, `VAT`) stays in capitals in prose.
 */
function ordinaryWords(
  sessions: readonly CorpusSession[],
  candidates: ReadonlySet<string>,
): (word: string) => boolean {
  if (candidates.size === 0) return () => false;
  const found = new Set<string>();
  const left = new Set(candidates);
  for (const { episodes } of sessions) {
    if (left.size === 0) break;
    for (const episode of episodes) {
      if (left.size === 0) break;
      for (const match of proseOf(episode.text).matchAll(PROSE_WORD)) {
        const word = match[1] ?? '';
        if (left.delete(word)) found.add(word);
      }
    }
  }
  return (word) => found.has(word);
}
