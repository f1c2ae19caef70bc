/**
 * A text's distinctive tokens in any script, with no word list: lower-cased words of spaced scripts
 * (two characters or more) and character bigrams of scripts written without spaces. The miner joins
 * a user's sentences by them (`src/miner/lessons/`), and a rule the user rejected is compared with
 * new ones by their hashes (`forgotten-lesson.ts`).
 */

export const NO_SPACE_RUN =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]+/gu;
/** A word of a spaced script: letters and digits, with inner apostrophes, dots, dashes or slashes. */
export const SPACED_WORD = /[\p{L}\p{N}_](?:[\p{L}\p{N}_'’./-]*[\p{L}\p{N}_])?/gu;

export function textTokens(text: string): Set<string> {
  const out = new Set<string>();
  const lower = text.toLowerCase();
  for (const run of lower.match(NO_SPACE_RUN) ?? []) {
    const chars = [...run];
    if (chars.length === 1) out.add(chars[0] as string);
    for (let i = 0; i + 1 < chars.length; i++) out.add(`${chars[i]}${chars[i + 1]}`);
  }
  for (const word of lower.replace(NO_SPACE_RUN, ' ').match(SPACED_WORD) ?? []) {
    if ([...word].length >= 2) out.add(word);
  }
  return out;
}

/** Share of `a`'s tokens also in `b` (0 when `a` has none). */
export function containment(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0) return 0;
  let shared = 0;
  for (const token of a) if (b.has(token)) shared += 1;
  return shared / a.size;
}

export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 0;
  let shared = 0;
  for (const token of a) if (b.has(token)) shared += 1;
  return shared / (a.size + b.size - shared);
}
