/**
 * Turns what the user told the agent ("use pnpm instead of npm", "never edit `dist/`") into rule
 * checks, so a replayed answer can be judged offline without a reference answer.
 *
 * Negative checks are the word-bounded negative form (`negativeWordCheck` in core): the `regex` op
 * with a negative lookahead over the whole answer, `(?i)^(?![\s\S]*\bnpm\b)`, instead of
 * `not_contains`, which would also reject "pnpm". `\b` goes only on a side where the term has a
 * word character, so `dist/` and `--force` work. The judge accepts a leading `(?i)` flag.
 */
import { negativeWordCheck } from '../core/negative-check.js';
import type { Check } from '../core/task.js';
import type { CorrectionChecks } from './types.js';

/** A quoted or backticked span; a single quote only counts away from letters (not "it's"). */
const QUOTED = String.raw`(?:\x60[^\x60\n]+\x60|"[^"\n]+"|(?<!\w)'[^'\n]+'(?!\w)|“[^”\n]+”|‘[^’\n]+’)`;
/** A quoted span or one bare token; quoted forms come first so they win. */
const SPAN = String.raw`(?:${QUOTED}|[^\s,;]+)`;
const QUOTED_SPAN = new RegExp(QUOTED);

/** What may precede an imperative "always" / "never" / "don't" (not "I have never seen ..."). */
const CLAUSE_START = String.raw`(?:^|[,;:—–-]\s*|\b(?:and|but|also|please|so|you|we|should|must|to|just|ok|okay)\s+)`;

/** A swap correction: the answer should say `use`, and must not say `avoid`. */
interface Swap {
  use: string;
  avoid?: string;
}

type SwapReader = (sentence: string) => Swap[];

const SWAP_READERS: readonly SwapReader[] = [
  // "use X instead of Y"
  pairs(String.raw`\buse\s+(${SPAN})\s+instead\s+of\s+(${SPAN})`, 'use-avoid'),
  // "instead of Y, use X"
  pairs(String.raw`\binstead\s+of\s+(${SPAN})\s*,?\s+use\s+(${SPAN})`, 'avoid-use'),
  // "use X, not Y" / "use X not Y"
  pairs(String.raw`\buse\s+(${SPAN})\s*,?\s+(?:and\s+)?not\s+(${SPAN})`, 'use-avoid'),
  // "don't use Y, use X"
  pairs(
    String.raw`\b(?:don['’]?t|do\s+not|never)\s+use\s+(${SPAN})\s*[,;:.—–-]*\s*(?:(?:just|instead|but|and)\s+)?use\s+(${SPAN})`,
    'avoid-use',
  ),
  // "prefer X over Y" / "prefer X to Y"
  pairs(String.raw`\bprefer\s+(${SPAN})\s+(?:over|to)\s+(${SPAN})`, 'use-avoid'),
  // "pnpm, not npm" as the whole sentence (optionally after "no,"), but not "it's not working"
  pairs(
    String.raw`^(?:(?:no|nope)\b[,!.]?\s*)?(${SPAN})\s*,?\s+not\s+(${SPAN})\s*[.!]*$`,
    'use-avoid',
    isPlausibleBareSwap,
  ),
  // "`pnpm` not `npm`" anywhere, when both sides are quoted
  pairs(String.raw`(${QUOTED})\s*,?\s+not\s+(${QUOTED})`, 'use-avoid'),
  // "use X instead" (no "of Y")
  (sentence) =>
    [...sentence.matchAll(new RegExp(String.raw`\buse\s+(${SPAN})\s+instead\b(?!\s+of\b)`, 'gi'))].map(
      (m) => ({ use: m[1] ?? '' }),
    ),
];

function pairs(
  source: string,
  order: 'use-avoid' | 'avoid-use',
  accept: (swap: Swap) => boolean = () => true,
): SwapReader {
  return (sentence) =>
    [...sentence.matchAll(new RegExp(source, 'gi'))]
      .map((m): Swap => {
        const [first, second] = [m[1] ?? '', m[2] ?? ''];
        return order === 'use-avoid' ? { use: first, avoid: second } : { use: second, avoid: first };
      })
      .filter(accept);
}

/** Words that make "X not Y" a statement ("that's not right", "tests not passing"), not a swap. */
// prettier-ignore
const STATEMENT_WORDS: ReadonlySet<string> = new Set([
  'is', 'was', 'are', 'were', 'right', 'correct', 'good', 'bad', 'done', 'true', 'false', 'ok',
  'okay', 'sure', 'yet', 'really', 'quite', 'enough', 'great', 'needed', 'allowed', 'possible',
  'again', 'anymore', 'now', 'here', 'there', 'so', 'why', 'but', 'and', 'or', 'maybe', 'probably',
]);

function isPlausibleBareSwap(swap: Swap): boolean {
  return [swap.use, swap.avoid ?? ''].every((raw) => {
    if (QUOTED_SPAN.test(raw)) return true;
    const word = raw.toLowerCase().replace(/[.!?,]+$/, '');
    if (/['’]/.test(word) || STATEMENT_WORDS.has(word) || VAGUE_TOKENS.has(word)) return false;
    return !/(?:ing|ed)$/.test(word);
  });
}

/** "always X", and the ways of saying it with a negation ("don't forget to X"). */
const ALWAYS = new RegExp(
  String.raw`${CLAUSE_START}(?:always|remember\s+to|(?:don['’]?t|do\s+not|never)\s+forget(?:\s+to)?)\s+(.+)$`,
  'i',
);
/** "never X" / "don't X", except "don't forget" (an always) and "don't worry" (no rule at all). */
const NEVER = new RegExp(
  String.raw`${CLAUSE_START}(?:never|don['’]?t\s+ever|do\s+not\s+ever|do\s+not|don['’]?t)\s+(?!(?:forget|worry|bother|mind)\b)(.+)$`,
  'i',
);

/** Bare tokens too vague to check ("use it instead of that"). */
// prettier-ignore
const VAGUE_TOKENS: ReadonlySet<string> = new Set([
  'it', 'this', 'that', 'these', 'those', 'them', 'one', 'the', 'a', 'an', 'something', 'anything',
  'what', 'which', 'there', 'here', 'me', 'you', 'we',
]);

/** Reads every correction in a user message and returns the checks they imply (deduplicated). */
export function correctionsToChecks(userText: string): CorrectionChecks {
  const checks: Check[] = [];
  const corrections: string[] = [];
  const unparsed: string[] = [];
  for (const sentence of splitSentences(userText)) {
    const found = [...swapChecks(sentence), ...alwaysChecks(sentence), ...neverChecks(sentence)];
    if (found.length > 0) {
      checks.push(...found);
      corrections.push(sentence);
    } else if (ALWAYS.test(sentence)) {
      unparsed.push(sentence);
    }
  }
  return { checks: dedupeChecks(checks), corrections, unparsed };
}

/**
 * Sentences of a message, with fenced code removed first: pasted logs say things like "use X
 * instead" (npm deprecation warnings) that the user never said.
 */
export function splitSentences(text: string): string[] {
  return text
    .replace(/```[\s\S]*?(?:```|$)/g, ' ')
    .split(/(?<=[.!?])\s+|\n+/)
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence !== '');
}

function swapChecks(sentence: string): Check[] {
  return SWAP_READERS.flatMap((read) => read(sentence)).flatMap(({ use, avoid }) => {
    const wanted = cleanSpan(use);
    const unwanted = avoid === undefined ? null : cleanSpan(avoid);
    if (wanted == null) return [];
    const checks: Check[] = [{ op: 'contains', arg: wanted }];
    if (unwanted != null && unwanted.toLowerCase() !== wanted.toLowerCase()) {
      checks.push(negativeWordCheck(unwanted));
    }
    return checks;
  });
}

/** "always include `Refs: #`" → contains; "always X" without anything literal is too vague. */
function alwaysChecks(sentence: string): Check[] {
  const rest = ALWAYS.exec(sentence)?.[1];
  if (rest === undefined) return [];
  const literal = firstLiteral(rest);
  return literal == null ? [] : [{ op: 'contains', arg: literal }];
}

/** "never edit `dist/`" → the word-bounded negative check for `dist/`. */
function neverChecks(sentence: string): Check[] {
  const rest = NEVER.exec(sentence)?.[1];
  if (rest === undefined) return [];
  const literal = firstLiteral(rest);
  return literal == null ? [] : [negativeWordCheck(literal)];
}

/**
 * The earliest literal in `text`: a quoted/backticked span, or a path- or flag-like token
 * (`dist/`, `CHANGELOG.md`, `--frozen-lockfile`). A quoted span wins a tie. Null when none.
 */
function firstLiteral(text: string): string | null {
  const quoted = QUOTED_SPAN.exec(text);
  const bare = [...text.matchAll(/\S+/g)].find((m) => isPathOrFlag(trimToken(m[0])));
  if (quoted != null && (bare === undefined || quoted.index <= bare.index)) return cleanSpan(quoted[0]);
  return bare === undefined ? null : trimToken(bare[0]);
}

/** Strips wrapping brackets and quotes; leading dots and dashes stay (`./x`, `--force`). */
function trimToken(raw: string): string {
  return stripTrailingPunctuation(raw.replace(/^[([{<"'“‘\x60]+/, ''));
}

function isPathOrFlag(token: string): boolean {
  if (/^--?[A-Za-z][\w-]*$/.test(token)) return true;
  if (token.includes('/') && /\w/.test(token)) return true;
  return /^[\w.-]*\w\.[A-Za-z0-9]{1,8}$/.test(token) && !/^(?:[a-z]\.)+[a-z]?$/i.test(token);
}

/** Strips quotes and trailing punctuation; returns null for empty or vague bare tokens. */
function cleanSpan(raw: string): string | null {
  const quoted = /^([\x60"'“‘])([\s\S]*)([\x60"'”’])$/.exec(raw);
  if (quoted != null) {
    const inner = (quoted[2] ?? '').trim();
    return inner === '' ? null : inner;
  }
  const token = trimToken(raw);
  if (token.length < 2 || !/[\p{L}\p{N}]/u.test(token)) return null;
  return VAGUE_TOKENS.has(token.toLowerCase()) ? null : token;
}

function stripTrailingPunctuation(token: string): string {
  return token.replace(/[.,;:!?)\]}>"'”’\x60]+$/, '');
}

/** Same op and same argument means the same check; the first occurrence keeps its place. */
export function dedupeChecks(checks: readonly Check[]): Check[] {
  const seen = new Set<string>();
  return checks.filter((check) => {
    const key = `${check.op}\u0000${String(check.arg ?? '')}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
