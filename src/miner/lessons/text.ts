/**
 * What a follow-up's text looks like, in any script and with no word list: how many words it holds
 * (scripts written without spaces count about two characters a word), its clauses, its distinctive
 * tokens (words of spaced scripts, character bigrams of the others), whether it ends on a question
 * mark, and which of its words are shouted (written in capitals where the script has case).
 */
import { NO_SPACE_RUN, SPACED_WORD } from '../../core/text-tokens.js';

export { containment, jaccard, textTokens } from '../../core/text-tokens.js';

const NO_SPACE_CHAR =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
/** Question marks of the scripts that have one (Latin, CJK full width, Arabic, reversed). */
const QUESTION_END = /[?？؟⸮]["'”’)\]」』）]*$/u;
/**
 * Where a clause ends: a line break, the full-width punctuation of unspaced scripts, or Latin-style
 * punctuation followed by a space, the end or an unspaced script ("去除(web),开始执行"), so `spec.md`,
 * `1,000` and `a:b` stay whole.
 */
const CLAUSE_END =
  /(?:[.!?;:,؟،](?=\s|$|[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]))+|[。！？；：，、\n]+/u;

/** About how many words: words of spaced scripts, plus half the characters of unspaced ones. */
export function wordUnits(text: string): number {
  let unspaced = 0;
  for (const run of text.match(NO_SPACE_RUN) ?? []) unspaced += [...run].length;
  const spaced = text.replace(NO_SPACE_RUN, ' ').match(SPACED_WORD) ?? [];
  return spaced.length + Math.ceil(unspaced / 2);
}

export function endsWithQuestion(text: string): boolean {
  return QUESTION_END.test(text.trim());
}

/** The text's clauses, trimmed, in order; empty ones dropped. */
export function clauses(text: string): string[] {
  return text
    .split(new RegExp(CLAUSE_END.source, 'gu'))
    .map((c) => c.trim())
    .filter((c) => /[\p{L}\p{N}]/u.test(c));
}

export function hasUnspacedScript(text: string): boolean {
  return NO_SPACE_CHAR.test(text);
}

const CAPITAL_WORD = /(?<![\p{L}\p{N}_])\p{Lu}{3,}(?![\p{L}\p{N}_])/gu;

/**
 * Words written in capitals for emphasis ("NEVER", "MUST"): three or more capital letters, in a
 * text that is not itself shouted, whose lower-case form `isOrdinaryWord` knows as an ordinary word
 * (an acronym, `API` or `VRM`, is never written in lower case in prose).
 */
export function shoutedWords(text: string, isOrdinaryWord: (word: string) => boolean): string[] {
  const letters = text.match(/\p{L}/gu) ?? [];
  const capitals = text.match(/\p{Lu}/gu) ?? [];
  // A heading or a pasted constant block in capitals is not emphasis.
  if (letters.length === 0 || capitals.length * 2 > letters.length) return [];
  const found = new Set<string>();
  for (const match of text.matchAll(CAPITAL_WORD)) {
    const word = match[0].toLowerCase();
    if (isOrdinaryWord(word)) found.add(match[0]);
  }
  return [...found];
}

/** The text on one line, cut at `max` characters (on a character boundary). */
export function oneLineCut(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const chars = [...flat];
  return chars.length <= max ? flat : `${chars.slice(0, max - 1).join('')}…`;
}
