/**
 * Order-aware outcome labels. The reference marks any session with a negative phrase as failed,
 * so "no, that's wrong ... ok works now, thanks" counted as a failure; here the last signal wins.
 */
import type { HarvestedSession } from '../core/session.js';
import type { Outcome } from '../core/task.js';
import { stripInterruptMarker, userPrompts } from './normalize-intent.js';
import type { LabeledOutcome } from './types.js';

/** The reference's negative phrases plus a few corrections it missed. */
// prettier-ignore
const NEGATIVE_PHRASES: readonly string[] = [
  'still broken', 'still not', 'still wrong', "doesn't work", 'does not work', 'not working',
  "that's wrong", 'thats wrong', 'incorrect', 'wrong', 'no,', 'nope', 'fix it', "didn't", 'did not',
  'broken', 'error again', 'still failing', 'still fails', 'not fixed', 'revert', 'undo',
  'not what i asked', "that's not right",
];

/** The reference's positive phrases plus short confirmations users type after a fix. */
// prettier-ignore
const POSITIVE_PHRASES: readonly string[] = [
  'thanks', 'thank you', 'perfect', 'great', 'works now', 'fixed', 'that works', 'lgtm',
  'looks good', 'nice', 'awesome', 'correct', 'ok works', 'that did it',
];

/** "use pnpm instead" is a correction even without the word "wrong". */
const USE_INSTEAD = /\buse\s+\S+\s+instead\b/g;
/** A positive word right after a negation ("not correct", "isn't great") is negative. */
const NEGATED_BEFORE = /\b(?:not|never|isn't|isnt|aren't|wasn't|no longer)\s+(?:\w+\s+)?$/;

interface PhraseMatch {
  start: number;
  end: number;
  signal: string;
}

/**
 * Feedback phrases in one user prompt, in text order, as `neg:<phrase>` / `pos:<phrase>`. Matches
 * are word-bounded and the longest wins where they overlap, so "not fixed" is not also "fixed" and
 * "incorrect" is not "correct".
 */
export function feedbackSignals(text: string): string[] {
  const lower = text.toLowerCase().replace(/[‘’]/g, "'");
  const matches: PhraseMatch[] = [
    ...phraseMatches(lower, NEGATIVE, 'neg'),
    ...phraseMatches(lower, POSITIVE, 'pos'),
    ...[...lower.matchAll(USE_INSTEAD)].map((m) => ({
      start: m.index,
      end: m.index + m[0].length,
      signal: 'neg:use instead',
    })),
  ];
  return keepLongestNonOverlapping(matches).map((m) => negatePositiveAfterNot(lower, m));
}

interface Phrase {
  text: string;
  /** Its first word: a cheap `includes` before the regex (spaces may match ", "). */
  first: string;
  pattern: RegExp;
}

/** Compiled once: mining 20,000 sessions spent seconds rebuilding these. */
const phrasesOf = (list: readonly string[]): Phrase[] =>
  list.map((text) => ({ text, first: text.split(' ')[0] ?? text, pattern: buildPhrasePattern(text) }));
const NEGATIVE = phrasesOf(NEGATIVE_PHRASES);
const POSITIVE = phrasesOf(POSITIVE_PHRASES);

function phraseMatches(lower: string, phrases: readonly Phrase[], polarity: 'neg' | 'pos'): PhraseMatch[] {
  const found: PhraseMatch[] = [];
  for (const phrase of phrases) {
    if (!lower.includes(phrase.first)) continue;
    phrase.pattern.lastIndex = 0;
    for (const m of lower.matchAll(phrase.pattern))
      found.push({ start: m.index, end: m.index + m[0].length, signal: `${polarity}:${phrase.text}` });
  }
  return found;
}

/** Word-bounded where the phrase starts/ends with a word character; spaces also match ", ". */
function buildPhrasePattern(phrase: string): RegExp {
  const body = phrase
    .split(' ')
    .map((word) => word.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&'))
    .join('\\W+');
  const before = /^\w/.test(phrase) ? '\\b' : '';
  const after = /\w$/.test(phrase) ? '\\b' : '';
  return new RegExp(`${before}${body}${after}`, 'g');
}

function keepLongestNonOverlapping(matches: PhraseMatch[]): PhraseMatch[] {
  const byStartThenLength = [...matches].sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: PhraseMatch[] = [];
  for (const match of byStartThenLength) {
    const last = kept.at(-1);
    if (last !== undefined && match.start < last.end) {
      if (match.end - match.start > last.end - last.start) kept[kept.length - 1] = match;
      continue;
    }
    kept.push(match);
  }
  return kept;
}

function negatePositiveAfterNot(lower: string, match: PhraseMatch): string {
  if (!match.signal.startsWith('pos:')) return match.signal;
  const before = lower.slice(Math.max(0, match.start - 24), match.start);
  return NEGATED_BEFORE.test(before) ? `neg:not ${match.signal.slice(4)}` : match.signal;
}

/**
 * Labels a session by the evidence that follows the first prompt. The last phrase signal decides;
 * tool errors and interrupts are negative evidence too, but only when no positive phrase follows
 * them (an error the user later said was fixed does not make the session a failure).
 */
export function labelOutcome(session: HarvestedSession): LabeledOutcome {
  const prompts = userPrompts(session.turns);
  const first = prompts[0];
  if (first === undefined) return { outcome: 'unknown', signals: [] };

  const signals: string[] = [];
  for (const turn of session.turns.slice(first.index + 1)) {
    if (turn.role !== 'user') continue;
    if (turn.toolErrors > 0) signals.push('tool_error');
    const { interrupted, rest } = stripInterruptMarker(turn.text);
    if (turn.interrupted || interrupted) signals.push('interrupt');
    signals.push(...feedbackSignals(rest));
  }
  return { outcome: decideOutcome(signals, prompts.length), signals };
}

function decideOutcome(signals: readonly string[], promptCount: number): Outcome {
  const last = signals.at(-1);
  if (last === undefined) return promptCount >= 3 ? 'mixed' : 'unknown';
  return last.startsWith('pos:') ? 'success' : 'fail';
}
