/**
 * What one project's corpus of intents says about its words, learned once per night (see
 * `similarity.ts`): names users sometimes backtick, recurring file names, closing boilerplate
 * sentences, and typos of far more common words.
 */
import {
  FILLER_STEMS,
  KNOWN_WORDS,
  TYPO_MAX_COUNT,
  TYPO_MAX_SHARE,
  TYPO_MIN_LENGTH,
  TYPO_MIN_LENGTH_KNOWN,
  TYPO_MIN_RATIO,
} from './lexicon.js';

/** A placeholder left by `normalizeIntent` (`<sym>`, `<path>`, `<num>`). */
export const PLACEHOLDER = /^<\w+>$/;
/** What the corpus says about the names in its intents (see {@link corpusNames}). */
export interface Names {
  /** Identifiers users backtick (lower-cased). */
  quoted: ReadonlySet<string>;
  /** File paths that recur across many intents (lower-cased). */
  paths: ReadonlySet<string>;
}

export const NO_NAMES: Names = { quoted: new Set<string>(), paths: new Set<string>() };
const CODE_SPAN = /`([^`\n]+)`/g;
const CODE_SPAN_SPLIT = /(`[^`\n]+`)/;
/** A name must be backticked at least this often, and in at least this share of its uses. */
const NAME_MIN_QUOTED = 3;
const NAME_MIN_QUOTED_SHARE = 0.3;
/** A path recurs when it is in at least this many intents, or this share of them. */
const PATH_MIN_INTENTS = 10;
const PATH_MIN_SHARE = 0.002;
/** A file name with an extension and no folder (`.env.example`, `package.json`). */
const FILE_NAME = /^[\w.-]*\w\.[A-Za-z0-9]{1,8}$/;

/**
 * Names of this corpus:
 * - words users put in backticks (`zod`, `orders`, `UserCard`) at least {@link NAME_MIN_QUOTED}
 *   times and in at least {@link NAME_MIN_QUOTED_SHARE} of their uses. The same name written bare
 *   is then a placeholder too, so "add zod to the app" and "add `dayjs` to the app" look alike;
 * - file names in at least {@link PATH_MIN_INTENTS} intents (or {@link PATH_MIN_SHARE} of them):
 *   `.env.example` or `package.json` in every instance is part of the task, not an instance detail,
 *   so such a path is read as its words ("env example") instead of a placeholder.
 */
export function corpusNames(intents: readonly string[]): Names {
  const quoted = new Map<string, number>();
  const paths = new Map<string, number>();
  for (const intent of intents) {
    const seen = new Set<string>();
    for (const match of intent.matchAll(CODE_SPAN)) {
      const name = (match[1] ?? '').trim().toLowerCase();
      if (name.length >= 2 && !/\s/.test(name)) quoted.set(name, (quoted.get(name) ?? 0) + 1);
    }
    for (const token of intent.replace(/`/g, ' ').split(/\s+/)) {
      const core = nameCore(token).toLowerCase();
      if (FILE_NAME.test(core) && /[a-z]/.test(core)) seen.add(core);
    }
    for (const path of seen) paths.set(path, (paths.get(path) ?? 0) + 1);
  }
  const bare = new Map<string, number>();
  for (const intent of intents) {
    const parts = intent.split(CODE_SPAN_SPLIT);
    for (let i = 0; i < parts.length; i += 2) {
      for (const token of (parts[i] ?? '').split(/\s+/)) {
        const core = nameCore(token).toLowerCase();
        if (quoted.has(core)) bare.set(core, (bare.get(core) ?? 0) + 1);
      }
    }
  }
  const minPath = Math.max(PATH_MIN_INTENTS, PATH_MIN_SHARE * intents.length);
  const frequentPaths = new Set([...paths].filter(([, count]) => count >= minPath).map(([path]) => path));
  const names = new Set<string>();
  for (const [name, count] of quoted) {
    const share = count / (count + (bare.get(name) ?? 0));
    if (count >= NAME_MIN_QUOTED && share >= NAME_MIN_QUOTED_SHARE && !frequentPaths.has(name))
      names.add(name);
  }
  return { quoted: names, paths: frequentPaths };
}

const NAME_EDGES = /^[(["'“‘]+|[)\]"'”’.,;:!?]+$/g;

function nameCore(token: string): string {
  return token.replace(NAME_EDGES, '');
}

/** Backticks the corpus's names where they were written bare; spells its recurring paths as words. */
export function rewriteNames(text: string, names: Names): string {
  if (names.quoted.size === 0 && names.paths.size === 0) return text;
  const parts = text.split(CODE_SPAN_SPLIT);
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] ?? '';
    if (i % 2 === 1) {
      const inner = part.slice(1, -1).trim().toLowerCase();
      if (names.paths.has(inner)) parts[i] = ` ${pathWords(inner)} `;
      continue;
    }
    parts[i] = part.replace(/\S+/g, (token) => {
      const core = nameCore(token);
      const lower = core.toLowerCase();
      const at = token.indexOf(core);
      if (core === '' || at < 0) return token;
      if (names.paths.has(lower))
        return `${token.slice(0, at)}${pathWords(lower)}${token.slice(at + core.length)}`;
      if (!names.quoted.has(lower)) return token;
      return `${token.slice(0, at)}\`${core}\`${token.slice(at + core.length)}`;
    });
  }
  return parts.join('');
}

function pathWords(path: string): string {
  return path.replace(/[^a-z0-9]+/g, ' ').trim();
}

/** A closing sentence is boilerplate when it ends at least this many intents of the corpus ... */
const BOILERPLATE_MIN_INTENTS = 5;
/** ... has at least this many words (single words are for {@link corpusSpecificity}) ... */
const BOILERPLATE_MIN_WORDS = 2;
/** ... and follows different text in at least this share of them. */
const BOILERPLATE_MIN_VARIETY = 0.75;
const BOILERPLATE_MAX_WORDS = 12;

/**
 * Closing sentences this corpus puts after all kinds of requests ("The release is tomorrow.", "Try
 * to keep the diff small."), as word keys (words joined by spaces): at least
 * {@link BOILERPLATE_MIN_WORDS} words, closing at least {@link BOILERPLATE_MIN_INTENTS} intents of
 * several sentences, after different text in at least {@link BOILERPLATE_MIN_VARIETY} of them. They
 * say nothing about the task, and would otherwise join any two requests that share one. (A request
 * that is often followed by such sentences is not one: it follows a handful of texts, not hundreds.)
 */
export function corpusBoilerplate(sentenceLists: readonly (readonly (readonly string[])[])[]): Set<string> {
  const counts = new Map<string, number>();
  const before = new Map<string, Set<string>>();
  for (const sentences of sentenceLists) {
    if (sentences.length < 2) continue;
    const last = sentences[sentences.length - 1] ?? [];
    if (last.length < BOILERPLATE_MIN_WORDS || last.length > BOILERPLATE_MAX_WORDS) continue;
    const key = last.join(' ');
    counts.set(key, (counts.get(key) ?? 0) + 1);
    const rests = before.get(key) ?? new Set<string>();
    rests.add(sentences.slice(0, -1).flat().join(' '));
    before.set(key, rests);
  }
  const keys = new Set<string>();
  for (const [key, count] of counts) {
    const variety = before.get(key)?.size ?? 0;
    if (count >= BOILERPLATE_MIN_INTENTS && variety >= BOILERPLATE_MIN_VARIETY * count) keys.add(key);
  }
  return keys;
}

/**
 * An intent's words without its boilerplate closing sentences, also where the user did not
 * punctuate them ("add `uuid` to the app try to keep the diff small"). Never strips everything.
 */
export function stripBoilerplate(words: readonly string[], boilerplate: ReadonlySet<string>): string[] {
  let end = words.length;
  for (let k = Math.min(BOILERPLATE_MAX_WORDS, end - 1); k >= BOILERPLATE_MIN_WORDS; k--) {
    if (boilerplate.has(words.slice(end - k, end).join(' '))) {
      end -= k;
      k = Math.min(BOILERPLATE_MAX_WORDS, end - 1) + 1;
    }
  }
  return words.slice(0, end);
}

/** Known words count as this common when correcting typos (so "delte" finds "delete" in a small corpus). */
const KNOWN_WORD_COUNT = 50;

/**
 * Typos of this corpus and their corrections: a rare word (stem) of at least
 * {@link TYPO_MIN_LENGTH} letters that is one edit (insert, delete, substitute, swap adjacent) from a
 * word at least {@link TYPO_MIN_RATIO} times as common, or (from {@link TYPO_MIN_LENGTH_KNOWN}
 * letters) from one of the canonical words of the tables above, is read as that word ("delte" →
 * "delete", "bild" → "build", "qiuck" → "quick", then dropped as filler). The most common candidate
 * wins, unless another is close (then it is left alone: "logn" could be "log" or "login"). A rare
 * real word next to a common one is "corrected" too; it costs that intent a word.
 */
export function typoCorrections(wordLists: readonly (readonly string[])[]): Map<string, string> {
  const counts = new Map<string, number>();
  for (const words of wordLists) {
    for (const word of new Set(words)) counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  const countOf = (word: string): number =>
    FILLER_STEMS.has(word)
      ? Number.MAX_SAFE_INTEGER
      : Math.max(counts.get(word) ?? 0, KNOWN_WORDS.has(word) ? KNOWN_WORD_COUNT : 0);
  const byDeletion = new Map<string, string[]>();
  const index = (word: string): void => {
    for (const variant of [word, ...deletions(word)]) {
      const list = byDeletion.get(variant);
      if (list === undefined) byDeletion.set(variant, [word]);
      else if (!list.includes(word)) list.push(word);
    }
  };
  for (const word of KNOWN_WORDS) index(word);
  for (const [word, count] of counts)
    if (count >= TYPO_MIN_RATIO && word.length >= TYPO_MIN_LENGTH - 1) index(word);

  const corrections = new Map<string, string>();
  const maxTypoCount = Math.max(TYPO_MAX_COUNT, wordLists.length * TYPO_MAX_SHARE);
  for (const [word, count] of counts) {
    if (word.length < TYPO_MIN_LENGTH || KNOWN_WORDS.has(word) || PLACEHOLDER.test(word)) continue;
    if (count > maxTypoCount) continue;
    const candidates = new Set<string>();
    for (const variant of [word, ...deletions(word)]) {
      for (const candidate of byDeletion.get(variant) ?? []) {
        if (candidate === word) continue;
        const seen = counts.get(candidate) ?? 0;
        const enough = word.length >= TYPO_MIN_LENGTH_KNOWN ? countOf(candidate) : seen;
        if (enough >= count * TYPO_MIN_RATIO) candidates.add(candidate);
      }
    }
    const ranked = [...candidates]
      .filter((candidate) => withinOneEdit(word, candidate))
      .sort((a, b) => countOf(b) - countOf(a) || (a < b ? -1 : 1));
    const [best, second] = ranked;
    if (best !== undefined && (second === undefined || countOf(best) >= TYPO_MIN_RATIO * countOf(second))) {
      corrections.set(word, best);
    }
  }
  return corrections;
}

/** Words with their typos corrected; a typo of a filler word goes. */
export function correctTypos(words: readonly string[], typos: ReadonlyMap<string, string>): string[] {
  const out: string[] = [];
  for (const word of words) {
    const corrected = typos.get(word);
    if (corrected === undefined) out.push(word);
    else if (!FILLER_STEMS.has(corrected)) out.push(corrected);
  }
  return out;
}

function deletions(word: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < word.length; i++) out.push(word.slice(0, i) + word.slice(i + 1));
  return out;
}

/** Optimal string alignment distance ≤ 1: one insert, delete, substitution or adjacent swap. */
export function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}
