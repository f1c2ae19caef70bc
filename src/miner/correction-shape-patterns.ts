/**
 * Correction patterns about the answer's shape: length limits ("keep it under 50 words") and
 * sections ("add a Testing section"). Listed with the others at the top of `correction-patterns.ts`.
 */
import type { Check } from '../core/task.js';
import type { CorrectionPattern, MatchContext } from './correction-patterns.js';
import {
  QUOTED,
  SPAN,
  QUOTED_SPAN,
  VAGUE_TOKENS,
  SECTION_ADJECTIVES,
  cleanSpan,
  negatedBefore,
} from './correction-fragments.js';

// Length limits

/** The whole answer, as the user refers to it. */
const ANSWER = String.raw`(?:it|this|that|them|(?:the|your|each|every|all)\s+(?:answers?|repl(?:y|ies)|responses?|outputs?|messages?|summar(?:y|ies)|explanations?)|answers|replies|responses)`;
const LENGTH_LEAD = String.raw`(?:(?:no|nope|ok|okay|please|so|and|but|also|just|again|hmm|(?:(?:that|it)['’]?s\s+|this\s+is\s+)?(?:way\s+|much\s+|far\s+)?too\s+(?:long|verbose|wordy))\b[\s,;:.!—–-]*)*`;
const LENGTH_LEAD_IN = String.raw`(?:(?:keep|make|cut|trim|shorten|limit|cap|get)\s+${ANSWER}(?:\s+(?:down|short|shorter|brief|concise))?\s+|${ANSWER}\s+(?:should|must|needs?\s+to|has\s+to|have\s+to)\s+(?:be|stay)\s+|(?:answer|reply|respond)\s+in\s+|(?:be|stay)\s+)?`;
const LENGTH_BOUND = String.raw`(?:(?<strict>under|below|shorter\s+than|less\s+than|fewer\s+than)|(?<upto>within|to|at\s+most|no\s+more\s+than|no\s+longer\s+than|(?:to\s+)?(?:a\s+)?max(?:imum)?(?:\s+of)?|up\s+to))\s+`;
const LENGTH = new RegExp(
  String.raw`^${LENGTH_LEAD}${LENGTH_LEAD_IN}(?:${LENGTH_BOUND})?(?<n>\d{1,3}(?:,\d{3})+|\d+)(?:\s*-\s*|\s*)(?<unit>char(?:acter)?s?|letters?|words?)\b(?<post>(?:\s*,\s*|\s+)(?:max(?:imum)?|tops|or\s+(?:less|fewer)|at\s+most)\b)?`,
  'gi',
);
/** Words that may follow a length limit without changing what it applies to. */
const LENGTH_FLUFF = /^[\s,]*(?:max(?:imum)?|tops|total|in\s+total|long|please|pls|thanks|thx)\b/i;

/**
 * True when what follows a length limit leaves it about the whole answer: nothing but fluff and
 * punctuation, or a new clause ("…; use pnpm", "…, and …") that does not say what it is for.
 */
function isLengthTail(rest: string): boolean {
  let text = rest;
  for (let m = LENGTH_FLUFF.exec(text); m != null; m = LENGTH_FLUFF.exec(text))
    text = text.slice(m[0].length);
  text = text.replace(/^[\s.!]+/, '');
  if (text === '') return true;
  const clause = /^(?:[;—–]|,?\s*(?:and|but|then|so)\b)/i.exec(text.trimStart());
  if (clause == null) return false;
  return !/^\s*(?:for|in|of|on|per|when|if)\b/i.test(text.trimStart().slice(clause[0].length));
}

const MAX_LIMIT = 1_000_000;

/** The check "at most `n` words" (whitespace-separated), exact rather than converted to characters. */
export function wordLimitCheck(n: number): Check {
  return { op: 'regex', arg: String.raw`^\s*(?:\S+\s+){0,${n - 1}}\S*\s*$` };
}

/** The word limit of a check written by `wordLimitCheck`, or null. */
export function wordLimitOf(check: Check): number | null {
  if (check.op !== 'regex' || typeof check.arg !== 'string') return null;
  const m = /^\^\\s\*\(\?:\\S\+\\s\+\)\{0,(\d+)\}\\S\*\\s\*\$$/.exec(check.arg);
  return m == null ? null : Number(m[1]) + 1;
}

function lengthChecks(m: RegExpMatchArray, context: MatchContext): Check[] {
  if (!isLengthTail(context.sentence.slice((m.index ?? 0) + m[0].length))) return [];
  const groups = m.groups ?? {};
  const strict = groups['strict'] !== undefined;
  if (!strict && groups['upto'] === undefined && groups['post'] === undefined) return [];
  const n = Number((groups['n'] ?? '').replaceAll(',', ''));
  const limit = strict ? n - 1 : n;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) return [];
  return /^words?$/i.test(groups['unit'] ?? '') ? [wordLimitCheck(limit)] : [{ op: 'max_chars', arg: limit }];
}

// ---------------------------------------------------------------------------------------------------
// Sections

const SECTION_VERB = String.raw`(?:add|include|need|needs|want|put|write|missing|forgot|forgot\s+to\s+add|(?:should|must|to)\s+have|with)`;
const SECTION_NAME = String.raw`(?:(?<quoted>${QUOTED})|(?<hashed>#{1,6}\s*[^\s#][^\n]*?)|(?<words>[A-Za-z][\w&/+-]*(?:\s+[A-Za-z][\w&/+-]*){0,2}))`;

function sectionName(raw: string, bare: boolean): string | null {
  let name = raw.replace(/^#{1,6}\s*/, '').trim();
  if (bare) {
    const words = name.split(/\s+/);
    while (words.length > 0 && SECTION_ADJECTIVES.has((words[0] ?? '').toLowerCase())) words.shift();
    name = words.join(' ');
    if (VAGUE_TOKENS.has(name.toLowerCase()) || /^(?:section|heading|header)$/i.test(name)) return null;
  }
  return name === '' ? null : name;
}

function sectionChecks(m: RegExpMatchArray, context: MatchContext): Check[] {
  if (negatedBefore(context.sentence, m.index ?? 0)) return [];
  const { quoted, hashed, words, named } = m.groups ?? {};
  let name: string | null = null;
  if (quoted !== undefined) name = sectionName(cleanSpan(quoted) ?? '', false);
  else if (hashed !== undefined) name = sectionName(hashed, false);
  else if (words !== undefined) name = sectionName(words, true);
  else if (named !== undefined) name = sectionName(cleanSpan(named) ?? '', !QUOTED_SPAN.test(named));
  return name == null ? [] : [{ op: 'section_present', arg: name }];
}

export const SECTION_PATTERNS: readonly CorrectionPattern[] = [
  {
    name: 'add-section',
    pattern: new RegExp(
      String.raw`\b${SECTION_VERB}\s+(?:(?:also|still)\s+)?(?:(?:a|an|the|one|your)\s+)?${SECTION_NAME}\s+(?:section|heading|header)\b`,
      'gi',
    ),
    checks: sectionChecks,
  },
  {
    name: 'section-called',
    pattern: new RegExp(
      String.raw`\b${SECTION_VERB}\s+(?:(?:a|an|the)\s+)?(?:section|heading|header)\s+(?:called|named|titled)\s+(?<named>${SPAN})`,
      'gi',
    ),
    checks: sectionChecks,
  },
];

export const LENGTH_PATTERN: CorrectionPattern = {
  name: 'length-limit',
  pattern: LENGTH,
  checks: lengthChecks,
};
