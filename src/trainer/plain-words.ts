/**
 * Whether a line a night would write into a document reads as a pattern or a check instead of a
 * sentence a person would write: decided by its structure, never by words of any language. A regular
 * expression shows its constructs (a class escape `\d`, a quantifier `{14}`, `.*`, a character class
 * `[^…]` or `[0-9]`, a group `(?:`, an alternation in parentheses, an anchor) or a density of
 * metacharacters no prose or path has; a check shows our own syntax (`not_runs "npm"`, `regex=…`,
 * `{"op": …}`). Globs (`src/**\/*.ts`) and inline code are prose.
 */
import { KNOWN_OPS } from '../replay/judges/rule-checks.js';

/** One construct is enough: no sentence, path, command or glob has them. */
const CONSTRUCTS: ReadonlyArray<[RegExp, string]> = [
  [/\\[dDwWsSbB](?![\p{L}])/u, 'a class escape'],
  [/[^\s\\{]\{\d+(?:,\d*)?\}/u, 'a quantifier'],
  [/\.[*+?](?![\p{L}\p{N}])/u, 'a wildcard'],
  [/\[\^[^\]]*\]|\[[^\]\s]*[\p{L}\p{N}]-[\p{L}\p{N}][^\]\s]*\]/u, 'a character class'],
  [/\(\?(?:[:=!]|<[=!])/u, 'a group'],
  [/\([^()\s|]+\|[^()\s]+\)/u, 'an alternation'],
  [/(?:^|[\s`'"])\^[\\([\p{L}\p{N}]|[\p{L}\p{N})\]][$](?=[`'"]|\s*$)/u, 'an anchor'],
];

/** Metacharacters of a pattern; `*` after `/` or `*` is a glob's and does not count. */
const METACHARACTERS = /[\\^$|?+()[\]{}]|(?<![/*])\*(?!\*)/g;
/** A token this dense in metacharacters is a pattern (prose, paths and commands stay far below). */
const DENSE = 0.3;
const MIN_DENSE_CHARS = 5;

const escaped = (op: string): string => op.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Ops that are plain words too ("runs", "mentions") are syntax only when glued to `=`, `(` or `:`. */
const WORD_OPS = [...KNOWN_OPS]
  .filter((op) => !op.includes('_'))
  .map(escaped)
  .join('|');
/** Ops written with an underscore (`not_runs`, `max_chars`) are never prose. */
const CODE_OPS = [...KNOWN_OPS]
  .filter((op) => op.includes('_'))
  .map(escaped)
  .join('|');
/** Our check syntax: an op with its argument (`not_runs "npm"`, `regex=…`, `runs(pnpm)`) or a check as JSON. */
const CHECK_SYNTAX = new RegExp(
  `(?<![\\p{L}\\p{N}_])(?:(?:${CODE_OPS})(?![\\p{L}\\p{N}_])|(?:${WORD_OPS})(?:[=(]|:(?=\\S)))|["']op["']\\s*:`,
  'u',
);

/** Why `line` reads as a pattern or a check (what gave it away); null when it reads as a sentence. */
export function patternReason(line: string): string | null {
  for (const [construct, what] of CONSTRUCTS)
    if (construct.test(line)) return `it holds ${what} of a regular expression`;
  if (CHECK_SYNTAX.test(line)) return 'it is written as a check, not a sentence';
  for (const token of line.split(/\s+/)) {
    const chars = [...token].length;
    if (chars < MIN_DENSE_CHARS) continue;
    const meta = token.match(METACHARACTERS)?.length ?? 0;
    if (meta / chars >= DENSE) return 'it is dense with the metacharacters of a regular expression';
  }
  return null;
}

export const readsAsPattern = (line: string): boolean => patternReason(line) !== null;
