/**
 * Function words ("the", "und", "что"), from the stopword lists of the `stopword` package (60 languages):
 * a small project's own statistics cannot tell them from words that name a kind of task, and a
 * well-kept list can.
 *
 * The lists of languages the user does not write in must not hide code terms: Polish "jest" is the
 * test runner and Spanish "once" an option to an English-writing user. So a list's plain-ASCII words
 * count only for the languages this corpus is written in (those whose function words make up a good
 * share of its words); a list's other words (Cyrillic, CJK, accented) never collide with a code term
 * and always count. A word this project's commands use (`make`, `go`, `tag`) is never a stop word.
 */
import * as lists from 'stopword';

interface LanguageList {
  /** Plain ASCII words of the list: the ones that can collide with a code term. */
  ascii: ReadonlySet<string>;
  other: readonly string[];
}

/** A language is the corpus's when its function words cover this share of what the top one covers. */
const LANGUAGE_SHARE = 0.3;
/** ... and at least this share of the corpus's words. */
const MIN_COVERAGE = 0.05;
/** Enough words to tell the languages apart; a bigger corpus is sampled from its start. */
const MAX_SAMPLED_WORDS = 200_000;
const ASCII_WORD = /^[a-z0-9'_-]+$/;

let languages: ReadonlyMap<string, LanguageList> | null = null;

function languageLists(): ReadonlyMap<string, LanguageList> {
  if (languages === null) {
    const out = new Map<string, LanguageList>();
    for (const [code, list] of Object.entries(lists as unknown as Record<string, unknown>)) {
      if (code.startsWith('_') || !Array.isArray(list)) continue;
      const ascii = new Set<string>();
      const other: string[] = [];
      for (const word of list) {
        if (typeof word !== 'string') continue;
        const lower = word.toLowerCase();
        if (ASCII_WORD.test(lower)) ascii.add(lower);
        else other.push(lower);
      }
      out.set(code, { ascii, other });
    }
    languages = out;
  }
  return languages;
}

/** The codes of the languages `texts` are written in (by their function words). */
export function corpusLanguages(texts: readonly string[]): string[] {
  const counts = new Map<string, number>();
  let total = 0;
  for (const text of texts) {
    for (const word of text.toLowerCase().match(/[\p{L}\p{N}'_-]+/gu) ?? []) {
      counts.set(word, (counts.get(word) ?? 0) + 1);
      total += 1;
    }
    if (total >= MAX_SAMPLED_WORDS) break;
  }
  if (total === 0) return [];
  const coverage = [...languageLists()].map(([code, list]) => {
    let covered = 0;
    for (const word of list.ascii) covered += counts.get(word) ?? 0;
    return { code, share: covered / total };
  });
  const best = Math.max(...coverage.map((c) => c.share));
  return coverage
    .filter((c) => c.share >= MIN_COVERAGE && c.share >= LANGUAGE_SHARE * best)
    .map((c) => c.code)
    .sort();
}

/**
 * The stop words for a corpus of `texts` (see the top of this file), minus the words this project's
 * commands use.
 */
export function stopWords(
  texts: readonly string[],
  commandWords: ReadonlySet<string> = new Set(),
): ReadonlySet<string> {
  const spoken = new Set(corpusLanguages(texts));
  const words = new Set<string>();
  for (const [code, list] of languageLists()) {
    for (const word of list.other) words.add(word);
    if (spoken.has(code)) for (const word of list.ascii) words.add(word);
  }
  for (const word of commandWords) words.delete(word);
  return words;
}
