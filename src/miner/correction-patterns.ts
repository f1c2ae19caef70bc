/**
 * The correction patterns: how one sentence the user wrote to the agent becomes rule checks.
 * `correctionsToChecks` (`corrections.ts`) splits a message into sentences (fenced code removed) and
 * runs every pattern below over each sentence, in this order, then the patterns from config.
 * Matching is case-insensitive; checks keep the case the user wrote.
 *
 * Notation: ¬T is the word-bounded negative check for T (`negativeWordCheck`: a `regex` negative
 * lookahead, so "pnpm" is not a use of "npm" and `dist/` still matches `dist/a.js`). A *literal* is a
 * quoted or backticked span ("…", '…', `…`, “…”, ‘…’) or a bare path, file name or flag (`dist/`,
 * `CHANGELOG.md`, `--frozen-lockfile`). A *path* is a literal that is not a flag, or "the NAME
 * folder/directory" (read as `NAME/`). X and Y are a literal or one bare word (not "it", "this", ...).
 *
 * | Phrase (pattern name)                                                                             | Checks                          |
 * | ------------------------------------------------------------------------------------------------- | ------------------------------- |
 * | use X instead of Y (use-instead-of) · instead of Y, use X (instead-of-use)                        | contains X, ¬Y (a pair)         |
 * | use X, not Y (use-not) · don't/never use Y, use X (dont-use-use)                                  | contains X, ¬Y (a pair)         |
 * | prefer X over/to Y (prefer-over)                                                                  | contains X, ¬Y (a pair)         |
 * | X, not Y as the whole sentence (bare-x-not-y) · `X` not `Y` (quoted-x-not-y)                      | contains X, ¬Y (a pair)         |
 * | use X instead (use-instead)                                                                       | contains X                      |
 * | don't/never/must not/shouldn't touch, edit, modify, change, update, delete, … P (dont-touch-path) | ¬P for every path listed        |
 * | leave P alone/as is/untouched/unchanged (leave-path-alone)                                        | ¬P for every path listed        |
 * | stay/keep out of P, keep away from P (stay-out-of-path) · hands off P (hands-off-path)            | ¬P for every path listed        |
 * | (make) no changes/edits to P (no-changes-to-path) · P is off-limits/read-only (path-off-limits)   | ¬P for every path listed        |
 * | don't skip/omit/drop/leave out/lose L; don't remove/delete/strip L, L not a path (dont-omit)      | contains L                      |
 * | keep it/the answer under, below, shorter than, less than N chars (length-limit)                   | max_chars N−1                   |
 * | max N chars · at most/no more than/up to/within N chars · N chars max · keep it to N chars        | max_chars N                     |
 * | the same two rows with words                                                                      | regex: at most N−1 / N words    |
 * | add/include/need/put/write/missing/forgot a `## H` / H section or heading (add-section)           | section_present H               |
 * | add a section called/named/titled H (section-called)                                              | section_present H               |
 * | don't/never say, mention, use the word X · stop/avoid saying X (dont-mention)                     | ¬X                              |
 * | say/mention/state "X" (say-quoted) · include/write/add "X" in the answer (say-quoted-in-answer)   | contains X (X quoted only)      |
 * | L is required/mandatory/a must, L the last literal before it (literal-is-required)                | contains L                      |
 * | always X · remember to X · don't forget (to) X (always)                                           | contains the first literal of X |
 * | (you) must X (must)                                                                               | contains the first literal of X |
 * | never X · don't X · do not X · must not X · shouldn't X (never)                                   | ¬(the first literal of X)       |
 *
 * Details that keep checks honest:
 *
 * - "always", "never", "don't", "must" count only at the start of a clause (sentence start, after
 *   `,;:—`, or after and/but/also/please/so/you/we/should/must/to/just/ok), so "I don't know why
 *   `a.ts` fails" and "I have never seen `dist/` this big" give nothing. "don't forget" is an always;
 *   "don't worry/bother/mind" gives nothing; "must be"/"must have <done>" are guesses, not rules.
 * - "always"/"never"/"must" read only the *first* literal after the keyword, up to the next clause
 *   that starts with such a keyword, and skip it when a more specific row above already read that
 *   text ("never edit `dist/`, it is built by `pnpm build`" forbids `dist/` only; "never edit `dist/`
 *   and never run `git push --force`" forbids both). An "always"/"must" with no literal is reported as
 *   unparsed.
 * - "X, not Y" without quotes must be the whole sentence and neither side a statement word
 *   ("it's not working", "that's not right", "tests not passing" give nothing).
 * - Length limits apply only to the whole answer: the subject must be missing, "it", "this", or the
 *   answer/reply/response/output/summary ("keep the commit subject under 50 chars" gives nothing),
 *   and nothing may follow the limit but "max", "please", "total", ... or a new clause ("…, and …").
 *   "under/shorter than/less than N" is strict, hence N−1. Words are counted exactly, not converted
 *   to characters: the check is the regex `^\s*(?:\S+\s+){0,N−1}\S*\s*$` (at most N words).
 * - A section heading of bare words is 1–3 words, without leading adjectives such as new/separate;
 *   after a negation ("don't add a Testing section") the row gives nothing.
 * - Within one match, `contains X` directly followed by ¬Y is a "use X instead of Y" pair; the mock
 *   optimizer pairs them by adjacency, so `correctionsToChecks` keeps pairs together and never leaves a
 *   lone `contains` directly before a negative check.
 *
 * Config patterns (`compileUserPatterns`) use JavaScript regex syntax (with the `u` flag when the
 * pattern compiles with it), are matched case-insensitively against each sentence (every match
 * counts), and run after the built-ins; a regex that matches the empty string is refused. A check's `arg` may use
 * `$0`–`$9` for the whole match and its capture groups and `$$` for a dollar sign; a captured value is
 * trimmed of quotes/backticks and trailing punctuation, a bare value must be a meaningful token (not
 * "it", "this", ...), and a check whose group did not capture is skipped. `not_contains` becomes the
 * word-bounded ¬T; in a `regex` arg captured text is escaped; `max_chars`/`min_chars` need an integer
 * (commas allowed); a heading arg loses its leading `#`s.
 *
 * Whether a check is kept for a task (it must fail on the answer the user corrected and not contradict
 * the rest of its correction) is decided afterwards, by `filterUsefulChecks` in `corrections.ts`.
 */
import { negativeWordCheck } from '../core/negative-check.js';
import type { Check } from '../core/task.js';

import {
  QUOTED,
  SPAN,
  QUOTED_SPAN,
  CLAUSE_START,
  NEGATION,
  VAGUE_TOKENS,
  STATEMENT_WORDS,
  UNSAYABLE_WORDS,
  trimToken,
  isFlag,
  isPathOrFlag,
  cleanSpan,
  literalsIn,
  unclaimedLiteral,
  negatedBefore,
} from './correction-fragments.js';
import { SECTION_PATTERNS, LENGTH_PATTERN } from './correction-shape-patterns.js';

/** What a pattern sees besides its match. */
export interface MatchContext {
  /** The sentence the match was found in. */
  readonly sentence: string;
  /** True when a more specific pattern already read the text at this index of the sentence. */
  isClaimed(index: number): boolean;
}

/** One row of the pattern table. */
export interface CorrectionPattern {
  /** Shown in errors and documentation. */
  readonly name: string;
  /** Matched against every sentence with `matchAll`; a string is compiled with flags `gi`. */
  readonly pattern: RegExp | string;
  /** The checks one match implies; [] when the match is not a usable correction after all. */
  readonly checks: (match: RegExpMatchArray, context: MatchContext) => Check[];
  /**
   * A generic pattern ("always X", "never X") claims no text and skips a literal that another pattern
   * already read. Every other pattern claims the text it matched when it yields a check.
   */
  readonly generic?: boolean;
}

/** A pattern as a config file writes it. */
export interface UserPatternSpec {
  name: string;
  regex: string;
  checks: ReadonlyArray<{ op: string; arg?: string | number }>;
}

// ---------------------------------------------------------------------------------------------------
// Swaps: "use X instead of Y" and its variants

interface Swap {
  use: string;
  avoid?: string;
}

function swapChecks({ use, avoid }: Swap): Check[] {
  const wanted = cleanSpan(use);
  if (wanted == null) return [];
  const unwanted = avoid === undefined ? null : cleanSpan(avoid);
  const checks: Check[] = [{ op: 'contains', arg: wanted }];
  if (unwanted != null && unwanted.toLowerCase() !== wanted.toLowerCase()) {
    checks.push(negativeWordCheck(unwanted));
  }
  return checks;
}

function swapPattern(
  name: string,
  source: string,
  order: 'use-avoid' | 'avoid-use',
  accept: (swap: Swap) => boolean = () => true,
): CorrectionPattern {
  return {
    name,
    pattern: new RegExp(source, 'gi'),
    checks: (m) => {
      const [first, second] = [m[1] ?? '', m[2] ?? ''];
      const swap = order === 'use-avoid' ? { use: first, avoid: second } : { use: second, avoid: first };
      return accept(swap) ? swapChecks(swap) : [];
    },
  };
}

function isPlausibleBareSwap(swap: Swap): boolean {
  return [swap.use, swap.avoid ?? ''].every((raw) => {
    if (QUOTED_SPAN.test(raw)) return true;
    const word = raw.toLowerCase().replace(/[.!?,]+$/, '');
    if (/['’]/.test(word) || STATEMENT_WORDS.has(word) || VAGUE_TOKENS.has(word)) return false;
    return !/(?:ing|ed)$/.test(word);
  });
}

const SWAP_PATTERNS: readonly CorrectionPattern[] = [
  swapPattern('use-instead-of', String.raw`\buse\s+(${SPAN})\s+instead\s+of\s+(${SPAN})`, 'use-avoid'),
  swapPattern('instead-of-use', String.raw`\binstead\s+of\s+(${SPAN})\s*,?\s+use\s+(${SPAN})`, 'avoid-use'),
  swapPattern('use-not', String.raw`\buse\s+(${SPAN})\s*,?\s+(?:and\s+)?not\s+(${SPAN})`, 'use-avoid'),
  swapPattern(
    'dont-use-use',
    String.raw`\b(?:don['’]?t|do\s+not|never)\s+use\s+(${SPAN})\s*[,;:.—–-]*\s*(?:(?:just|instead|but|and)\s+)?use\s+(${SPAN})`,
    'avoid-use',
  ),
  swapPattern('prefer-over', String.raw`\bprefer\s+(${SPAN})\s+(?:over|to)\s+(${SPAN})`, 'use-avoid'),
  swapPattern(
    'bare-x-not-y',
    String.raw`^(?:(?:no|nope)\b[,!.]?\s*)?(${SPAN})\s*,?\s+not\s+(${SPAN})\s*[.!]*$`,
    'use-avoid',
    isPlausibleBareSwap,
  ),
  swapPattern('quoted-x-not-y', String.raw`(${QUOTED})\s*,?\s+not\s+(${QUOTED})`, 'use-avoid'),
  {
    name: 'use-instead',
    pattern: new RegExp(String.raw`\buse\s+(${SPAN})\s+instead\b(?!\s+of\b)`, 'gi'),
    checks: (m) => swapChecks({ use: m[1] ?? '' }),
  },
];

// ---------------------------------------------------------------------------------------------------
// File and folder prohibitions

/**
 * One item of a path list: a literal, "the NAME folder", or a bare token (checked afterwards). A bare
 * token may not start with a quote, so each item has one reading (no exponential backtracking).
 */
const ITEM = String.raw`(?:the\s+)?(?:${QUOTED}(?:\s+(?:folder|directory|dir)\b)?|[\w.-]+\s+(?:folder|directory|dir)\b|(?![\x60"'“‘]|(?:and|or|nor|never|don['’]?t|do|not|then|but|the|is|are)\b)[^\s,;]+)`;
/** "`a`, `b` and the c folder": items joined by commas, and, or, nor. */
const LIST = String.raw`(${ITEM}(?:\s*,\s*(?:and\s+|or\s+)?${ITEM}|\s+(?:and|or|nor)\s+${ITEM})*)`;
const LIST_TOKEN = new RegExp(
  String.raw`(?:the\s+)?(?:(${QUOTED})(\s+(?:folder|directory|dir)\b)?|([\w.-]+)\s+(?:folder|directory|dir)\b|([^\s,;]+))`,
  'gi',
);

/** The paths at the start of a list, up to the first item that is not one ("dist/, it is ..."). */
function readPaths(list: string): string[] {
  const paths: string[] = [];
  for (const m of list.matchAll(LIST_TOKEN)) {
    const [, quoted, quotedFolder, folder, bare] = m;
    if (bare !== undefined && /^(?:and|or|nor)$/i.test(bare)) continue;
    let path: string | null;
    if (quoted !== undefined) {
      const inner = cleanSpan(quoted);
      path = inner == null ? null : quotedFolder !== undefined ? `${inner.replace(/\/+$/, '')}/` : inner;
    } else if (folder !== undefined) {
      path = `${folder}/`;
    } else {
      const token = trimToken(bare ?? '');
      path = isPathOrFlag(token) ? token : null;
    }
    if (path == null || isFlag(path)) break;
    paths.push(path);
  }
  return paths;
}

function prohibition(name: string, source: string): CorrectionPattern {
  return {
    name,
    pattern: new RegExp(source, 'gi'),
    checks: (m) => readPaths(m[1] ?? '').map((path) => negativeWordCheck(path)),
  };
}

const PROHIBIT_VERB = String.raw`(?:touch|edit|modify|change|update|delete|remove|rename|move|overwrite|rewrite|reformat|commit|write\s+(?:to|in|into)|mess\s+(?:around\s+)?with|add\s+(?:anything|files?|code)\s+(?:to|in))`;
const PROHIBIT_FILLER = String.raw`(?:(?:anything|any\s+files?|files?|code|stuff|things)\s+)?(?:(?:in|inside|under|within|from|to|of)\s+)?`;

const PROHIBITION_PATTERNS: readonly CorrectionPattern[] = [
  prohibition(
    'dont-touch-path',
    String.raw`${CLAUSE_START}${NEGATION}\s+${PROHIBIT_VERB}\s+${PROHIBIT_FILLER}${LIST}`,
  ),
  prohibition(
    'leave-path-alone',
    String.raw`${CLAUSE_START}(?:leave|keep)\s+${LIST}\s+(?:alone|as[\s-]is|untouched|unchanged|intact)\b`,
  ),
  prohibition(
    'stay-out-of-path',
    String.raw`${CLAUSE_START}(?:stay|keep)\s+(?:out\s+of|away\s+from)\s+${LIST}`,
  ),
  prohibition('hands-off-path', String.raw`${CLAUSE_START}hands\s+off\s+(?:of\s+)?${LIST}`),
  prohibition(
    'no-changes-to-path',
    String.raw`${CLAUSE_START}(?:make\s+)?no\s+(?:changes?|edits?|modifications?|writes?)\s+(?:to|in|inside|under|within)\s+${LIST}`,
  ),
  prohibition(
    'path-off-limits',
    String.raw`(?<![^\s(])${LIST}\s+(?:is|are)\s+(?:off[\s-]?limits|read[\s-]?only|not\s+to\s+be\s+(?:touched|edited|changed|modified))`,
  ),
];

/**
 * "don't remove/skip/omit X" asks to keep X: `contains X`. A path after remove/delete/strip is left to
 * the prohibitions ("don't delete `src/old.ts`" forbids the path, like "don't touch").
 */
const OMISSION_PATTERN: CorrectionPattern = {
  name: 'dont-omit',
  pattern: new RegExp(
    String.raw`${CLAUSE_START}${NEGATION}\s+(remove|delete|strip|drop|skip|omit|leave\s+out|lose|forget\s+about)\s+(?:the\s+|any\s+|a\s+)?(${SPAN})`,
    'gi',
  ),
  checks: (m) => {
    const raw = m[2] ?? '';
    const literal = QUOTED_SPAN.test(raw) ? cleanSpan(raw) : trimToken(raw);
    if (literal == null || (!QUOTED_SPAN.test(raw) && !isPathOrFlag(literal))) return [];
    const isPath = isPathOrFlag(literal) && !isFlag(literal);
    if (isPath && /^(?:remove|delete|strip)$/i.test(m[1] ?? '')) return [];
    return [{ op: 'contains', arg: literal }];
  },
};

// ---------------------------------------------------------------------------------------------------
// What to say and not to say

const SAY_START = String.raw`(?:^|[,;:—–-]\s*|\b(?:and|also|please|just|ok|okay|then|should|must)\s+)`;

const SAYING_PATTERNS: readonly CorrectionPattern[] = [
  {
    name: 'dont-mention',
    pattern: new RegExp(
      String.raw`${CLAUSE_START}(?:${NEGATION}|stop|avoid|no\s+need\s+to)\s+(?:say(?:ing)?|mention(?:ing)?|(?:us(?:e|ing)|writ(?:e|ing))\s+the\s+(?:word|phrase|term)s?|call(?:ing)?\s+it)\s+(${SPAN})`,
      'gi',
    ),
    checks: (m) => {
      const raw = m[1] ?? '';
      const term = cleanSpan(raw);
      if (term == null) return [];
      const bare = !QUOTED_SPAN.test(raw);
      if (bare && (/['’]/.test(term) || UNSAYABLE_WORDS.has(term.toLowerCase()))) return [];
      return [negativeWordCheck(term)];
    },
  },
  {
    name: 'say-quoted-in-answer',
    pattern: new RegExp(
      String.raw`\b(?:say|mention|state|write|include|print|output|add|put)\s+(${QUOTED})\s+(?:in|into|to|at\s+the\s+(?:end|top|start|bottom)\s+of)\s+(?:the|your)\s+(?:final\s+)?(?:answer|reply|response|output|summary|message)`,
      'gi',
    ),
    checks: (m, context) => quotedContains(m, context),
  },
  {
    name: 'say-quoted',
    pattern: new RegExp(String.raw`${SAY_START}(?:say|mention|state)\s+(${QUOTED})`, 'gi'),
    checks: (m, context) => quotedContains(m, context),
  },
];

function quotedContains(m: RegExpMatchArray, context: MatchContext): Check[] {
  if (negatedBefore(context.sentence, m.index ?? 0)) return [];
  const text = cleanSpan(m[1] ?? '');
  return text == null ? [] : [{ op: 'contains', arg: text }];
}

// ---------------------------------------------------------------------------------------------------
// Requirements and generic always / must / never

const REQUIRED_PATTERN: CorrectionPattern = {
  name: 'literal-is-required',
  pattern: /\s(?:is|are)\s+(?:required|mandatory|a\s+must)\b(?!\s+by\b)/gi,
  checks: (m, context) => {
    const before = context.sentence.slice(0, m.index);
    const clause = before.split(/[;—–]|,\s/).at(-1) ?? '';
    if (/\b(?:no|not|nothing|never)\b/i.test(clause)) return [];
    const literal = literalsIn(clause).at(-1)?.value;
    return literal == null ? [] : [{ op: 'contains', arg: literal }];
  },
};

/** Where a generic pattern's tail ends: the next clause that starts with a generic keyword, or the end. */
const NEXT_GENERIC = String.raw`(?=\s*(?:[,;:—–-]\s*|\s(?:and|but|also|please|so|then)\s+)(?:always|remember\s+to|never|don['’]?t|do\s+not|must|mustn['’]?t|should\s+not|shouldn['’]?t)\b|$)`;
/** "always X", and the ways of saying it with a negation ("don't forget to X"). */
const ALWAYS_SOURCE = String.raw`${CLAUSE_START}(?:always|remember\s+to|(?:don['’]?t|do\s+not|never)\s+forget(?:\s+to)?)\s+(.+?)${NEXT_GENERIC}`;
/** "must X", except "must not" (a never) and the guesses "must be ...", "must have done ...". */
const MUST_SOURCE = String.raw`${CLAUSE_START}must\s+(?!not\b|never\b|always\b|be\b|have\s+(?:been|\w+(?:ed|en|wn|ne|de|t))\b)(.+?)${NEXT_GENERIC}`;
/** "never X" / "don't X", except "don't forget" (an always) and "don't worry" (no rule at all). */
const NEVER_SOURCE = String.raw`${CLAUSE_START}${NEGATION}\s+(?!(?:forget|worry|bother|mind)\b)(.+?)${NEXT_GENERIC}`;

const GENERIC_PATTERNS: readonly CorrectionPattern[] = [
  {
    name: 'always',
    pattern: new RegExp(ALWAYS_SOURCE, 'gi'),
    generic: true,
    checks: (m, context) => {
      const literal = unclaimedLiteral(m, context);
      return literal == null ? [] : [{ op: 'contains', arg: literal }];
    },
  },
  {
    name: 'must',
    pattern: new RegExp(MUST_SOURCE, 'gi'),
    generic: true,
    checks: (m, context) => {
      const literal = unclaimedLiteral(m, context);
      return literal == null ? [] : [{ op: 'contains', arg: literal }];
    },
  },
  {
    name: 'never',
    pattern: new RegExp(NEVER_SOURCE, 'gi'),
    generic: true,
    checks: (m, context) => {
      const literal = unclaimedLiteral(m, context);
      return literal == null ? [] : [negativeWordCheck(literal)];
    },
  },
];

const REQUIREMENT_WORDING = [new RegExp(ALWAYS_SOURCE, 'i'), new RegExp(MUST_SOURCE, 'i')];

/** True when a sentence states a requirement ("always ...", "you must ...") whatever it names. */
export function soundsLikeRequirement(sentence: string): boolean {
  return REQUIREMENT_WORDING.some((regex) => regex.test(sentence));
}

/** The built-in table, most specific first; generic patterns come last. */
export const BUILTIN_PATTERNS: readonly CorrectionPattern[] = [
  ...SWAP_PATTERNS,
  ...PROHIBITION_PATTERNS,
  OMISSION_PATTERN,
  LENGTH_PATTERN,
  ...SECTION_PATTERNS,
  ...SAYING_PATTERNS,
  REQUIRED_PATTERN,
  ...GENERIC_PATTERNS,
];

export { compileUserPatterns } from './correction-user-patterns.js';
export { wordLimitCheck, wordLimitOf } from './correction-shape-patterns.js';
