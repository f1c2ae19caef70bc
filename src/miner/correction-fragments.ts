/**
 * Regex fragments and token helpers shared by the correction patterns (`correction-patterns.ts`,
 * `correction-shape-patterns.ts`): quoted spans, clause starts, negations, and how a literal is read.
 */
import type { MatchContext } from './correction-patterns.js';

// Shared fragments

/** A quoted or backticked span; a single quote only counts away from letters (not "it's"). */
export const QUOTED = String.raw`(?:\x60[^\x60\n]+\x60|"[^"\n]+"|(?<!\w)'[^'\n]+'(?!\w)|“[^”\n]+”|‘[^’\n]+’)`;
/** A quoted span or one bare token; quoted forms come first so they win. */
export const SPAN = String.raw`(?:${QUOTED}|[^\s,;]+)`;
export const QUOTED_SPAN = new RegExp(QUOTED);
const QUOTED_SPANS = new RegExp(QUOTED, 'g');

/** What may precede an imperative "always" / "never" / "don't" (not "I have never seen ..."). */
export const CLAUSE_START = String.raw`(?:^|[,;:—–-]\s*|\b(?:and|but|also|please|so|you|we|should|must|to|just|ok|okay)\s+)`;
/** A negated imperative: "never", "don't (ever)", "must not", "shouldn't". */
export const NEGATION = String.raw`(?:never(?:\s+ever)?|don['’]?t(?:\s+ever)?|do\s+not(?:\s+ever)?|must\s+not|mustn['’]?t|should\s+not|shouldn['’]?t)`;

/** Bare tokens too vague to check ("use it instead of that"). */
// prettier-ignore
export const VAGUE_TOKENS: ReadonlySet<string> = new Set([
  'it', 'this', 'that', 'these', 'those', 'them', 'one', 'the', 'a', 'an', 'something', 'anything',
  'what', 'which', 'there', 'here', 'me', 'you', 'we',
]);

/** Words that make "X not Y" a statement ("that's not right", "tests not passing"), not a swap. */
// prettier-ignore
export const STATEMENT_WORDS: ReadonlySet<string> = new Set([
  'is', 'was', 'are', 'were', 'right', 'correct', 'good', 'bad', 'done', 'true', 'false', 'ok',
  'okay', 'sure', 'yet', 'really', 'quite', 'enough', 'great', 'needed', 'allowed', 'possible',
  'again', 'anymore', 'now', 'here', 'there', 'so', 'why', 'but', 'and', 'or', 'maybe', 'probably',
]);

/** Bare words that cannot be the thing not to say ("don't mention anything", "never say you're done"). */
// prettier-ignore
export const UNSAYABLE_WORDS: ReadonlySet<string> = new Set([
  ...VAGUE_TOKENS, 'i', 'your', 'they', 'he', 'she', 'my', 'our', 'their', 'his', 'her', 'everything',
  'nothing', 'any', 'all', 'so', 'too', 'how', 'why', 'when', 'where', 'who', 'whether', 'if', 'to',
  'about', 'of', 'in', 'on', 'for', 'with', 'no', 'not', 'more', 'less', 'again', 'anymore', 'stuff',
  'things', 'much', 'such',
]);

/** Adjectives that are not part of a section's name ("add a separate Testing section"). */
// prettier-ignore
export const SECTION_ADJECTIVES: ReadonlySet<string> = new Set([
  'new', 'separate', 'short', 'small', 'brief', 'proper', 'dedicated', 'extra', 'final', 'another',
  'second', 'first', 'last', 'own', 'clear', 'whole', 'full', 'big', 'little', 'real', 'actual',
  'additional', 'specific', 'explicit', 'quick', 'single', 'more', 'some', 'any', 'that', 'this',
]);

/** Strips wrapping brackets and quotes; leading dots and dashes stay (`./x`, `--force`). */
export function trimToken(raw: string): string {
  return stripTrailingPunctuation(raw.replace(/^[([{<"'“‘\x60]+/, ''));
}

function stripTrailingPunctuation(token: string): string {
  return token.replace(/[.,;:!?)\]}>"'”’\x60]+$/, '');
}

export const isFlag = (token: string): boolean => /^--?[A-Za-z][\w-]*$/.test(token);

export function isPathOrFlag(token: string): boolean {
  if (isFlag(token)) return true;
  if (token.includes('/') && /\w/.test(token)) return true;
  return /^[\w.-]*\w\.[A-Za-z0-9]{1,8}$/.test(token) && !/^(?:[a-z]\.)+[a-z]?$/i.test(token);
}

/** Strips quotes and trailing punctuation; returns null for empty or vague bare tokens. */
export function cleanSpan(raw: string): string | null {
  const quoted = /^([\x60"'“‘])([\s\S]*)([\x60"'”’])$/.exec(raw);
  if (quoted != null) {
    const inner = (quoted[2] ?? '').trim();
    return inner === '' ? null : inner;
  }
  const token = trimToken(raw);
  if (token.length < 2 || !/[\p{L}\p{N}]/u.test(token)) return null;
  return VAGUE_TOKENS.has(token.toLowerCase()) ? null : token;
}

interface Literal {
  value: string;
  /** Where the literal starts in the text it was read from. */
  index: number;
}

/**
 * Every literal in `text`, in order: quoted spans, and bare path-, file- or flag-like tokens outside
 * them. A quoted span that is empty inside gives a null value (it stops `firstLiteral`).
 */
export function literalsIn(text: string): Array<{ value: string | null; index: number }> {
  const quoted = [...text.matchAll(QUOTED_SPANS)].map((m) => ({
    value: cleanSpan(m[0]),
    index: m.index,
    end: m.index + m[0].length,
  }));
  const inQuote = (index: number): boolean => quoted.some((q) => index >= q.index && index < q.end);
  const bare = [...text.matchAll(/\S+/g)]
    .filter((m) => !inQuote(m.index) && isPathOrFlag(trimToken(m[0])))
    .map((m) => ({ value: trimToken(m[0]), index: m.index }));
  return [...quoted, ...bare].sort((a, b) => a.index - b.index);
}

/** The earliest literal in `text`, or null when there is none (or it is empty). */
function firstLiteral(text: string): Literal | null {
  const first = literalsIn(text)[0];
  return first?.value == null ? null : { value: first.value, index: first.index };
}

/** The first literal of a generic pattern's tail (`m[1]`, which runs to the end of the sentence). */
export function unclaimedLiteral(m: RegExpMatchArray, context: MatchContext): string | null {
  const rest = m[1] ?? '';
  const restStart = (m.index ?? 0) + m[0].length - rest.length;
  const literal = firstLiteral(rest);
  if (literal == null || context.isClaimed(restStart + literal.index)) return null;
  return literal.value;
}

/** True when the words just before `index` negate what follows ("don't add a ... section"). */
export function negatedBefore(sentence: string, index: number): boolean {
  return /\b(?:don['’]?t|do\s+not|never|not|no\s+need\s+to|without|doesn['’]?t|didn['’]?t|shouldn['’]?t|won['’]?t|stop|avoid)\s+(?:\S+\s+){0,2}$/i.test(
    sentence.slice(0, index),
  );
}
