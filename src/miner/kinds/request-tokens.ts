/**
 * A request's words as the kind signature sees them, in any script and with the instance details
 * masked. Nothing here is a word list: what varies is read from the shape of a token (a path, an
 * identifier, a number, a quoted name) and from the session itself (a word the agent also used as a
 * command argument or a file name is the object of the request, not its kind).
 *
 * - Scripts written without spaces (Han, kana, Hangul, Thai, Lao, Khmer, Myanmar) become character
 *   bigrams, so "添加依赖" and "添加一个依赖" share "添加" and "依赖".
 * - Other words are lower-cased and cut to {@link WORD_PREFIX} characters, plus their first
 *   {@link SHORT_PREFIX} as a second token: a language-independent stand-in for stemming
 *   ("installing" and "installs" meet, "fails" and "failure" share "fail~").
 * - Identifiers keep their parts as weak tokens (`TestInsertEvents` → `~test`, `~insert`, …), so a
 *   kind word hidden in a name still counts.
 */

import { boundedMemo } from '../../core/memo.js';

/** Placeholders the tokenizer emits. */
export const PLACEHOLDER_TOKENS = ['<code>', '<q>', '<n>', '<url>', '<path>', '<id>', '<d>'] as const;

const WORD_PREFIX = 6;
/** A shorter prefix joins a word's family ("fails", "failing", "failure" share "fail"). */
const SHORT_PREFIX = 4;
/** Long pasted prompts (logs, specs) say what the request is in their first words. */
const MAX_TOKENS = 80;

const FENCED = /```[\s\S]*?(?:```|$)/g;
const INLINE_CODE = /`([^`\n]+)`/g;
const QUOTED = /"[^"\n]{1,80}"|“[^”\n]{1,80}”|«[^»\n]{1,80}»|「[^」\n]{1,80}」/g;
const URL = /^[a-z][a-z0-9+.-]*:\/\/\S+$/i;
const OUTER_PUNCTUATION = /^[\p{P}\p{S}]+|[\p{P}\p{S}]+$/gu;
const NUMBER = /^[#v]?\d[\d.,:_/-]*%?$/i;
const PATH_LIKE = /[\\/]|^[\w.-]*\w\.[A-Za-z][A-Za-z0-9]{0,7}$/;
/** camelCase, PascalCase with an inner capital, snake_case, or letters mixed with digits. */
const IDENTIFIER =
  /^(?=.*\p{L})(?:.*\p{Ll}\p{Lu}|.*[\p{L}\p{N}]_[\p{L}\p{N}]|(?=.*\d)(?=.*\p{L})[\p{L}\p{N}-]+$)/u;
const NO_SPACE_SCRIPT =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const LETTER_RUN = /[\p{L}\p{M}\p{N}]+/gu;

/** What a token stands for: kinds of tokens weigh differently in a kind's signature. */
export type TermRole = 'word' | 'stop' | 'topic' | 'detail' | 'placeholder' | 'part';

export interface Term {
  token: string;
  role: TermRole;
}

export interface TermOptions {
  /** Lower-cased names the session's actions used: such a word becomes `<d>`. */
  details?: ReadonlySet<string>;
  /** Function words: kept, with the role `stop`. */
  stop?: ReadonlySet<string>;
  /** Words (cut to their first {@link WORD_PREFIX} characters) that name this project's things. */
  topics?: ReadonlySet<string>;
}

/**
 * The tokens of a request. `details` are lower-cased names the session's actions used (command
 * arguments, file names and stems); a word among them becomes `<d>`.
 */
export function requestTokens(text: string, details: ReadonlySet<string> = new Set()): string[] {
  return requestTerms(text, { details }).map((term) => term.token);
}

/** The tokens of a request with what each stands for. */
export function requestTerms(text: string, opts: TermOptions = {}): Term[] {
  const details = opts.details ?? new Set<string>();
  const spaced = text
    .replace(FENCED, ' <code> ')
    .replace(INLINE_CODE, (_, inner: string) =>
      details.has(inner.trim().toLowerCase()) ? ' <d> ' : ' <code> ',
    )
    .replace(QUOTED, ' <q> ');
  const out: Term[] = [];
  for (const raw of spaced.split(/\s+/)) {
    if (out.length >= MAX_TOKENS) break;
    if (raw === '') continue;
    if (raw === '<code>' || raw === '<q>') out.push({ token: raw, role: 'placeholder' });
    else if (raw === '<d>') out.push({ token: raw, role: 'detail' });
    else termsOf(raw, details, opts, out);
  }
  return out.slice(0, MAX_TOKENS);
}

function termsOf(raw: string, details: ReadonlySet<string>, opts: TermOptions, out: Term[]): void {
  const stop = opts.stop ?? new Set<string>();
  const topics = opts.topics ?? new Set<string>();
  const placeholder = (token: string): void => void out.push({ token, role: 'placeholder' });
  if (URL.test(raw)) return placeholder('<url>');
  const token = raw.replace(OUTER_PUNCTUATION, '');
  if (token === '') return;
  const lower = token.toLowerCase();
  if (details.has(lower)) return void out.push({ token: '<d>', role: 'detail' });
  if (NUMBER.test(token)) return placeholder('<n>');
  if (PATH_LIKE.test(token) && /\p{L}/u.test(token)) return placeholder('<path>');
  if (IDENTIFIER.test(token)) {
    placeholder('<id>');
    for (const part of identifierParts(token)) out.push({ token: `~${part}`, role: 'part' });
    return;
  }
  for (const run of lower.match(LETTER_RUN) ?? []) {
    if (details.has(run)) out.push({ token: '<d>', role: 'detail' });
    else {
      const role = stop.has(run) ? 'stop' : topics.has(cutWord(run)) ? 'topic' : 'word';
      for (const word of wordTokens(run)) out.push({ token: word, role });
    }
  }
}

/** A letter run: bigrams in scripts without spaces, else the word cut to its first characters. */
function wordTokens(run: string): string[] {
  if (!NO_SPACE_SCRIPT.test(run)) {
    if (/^\d+$/.test(run)) return ['<n>'];
    const chars = [...run];
    const word = chars.slice(0, WORD_PREFIX).join('');
    return chars.length > SHORT_PREFIX ? [word, `${chars.slice(0, SHORT_PREFIX).join('')}~`] : [word];
  }
  const chars = [...run];
  if (chars.length === 1) return chars;
  const grams: string[] = [];
  for (let i = 0; i + 1 < chars.length; i++) grams.push(`${chars[i]}${chars[i + 1]}`);
  return grams;
}

/**
 * The length of a text in letters of a spaced script: a character of a script written without
 * spaces (a Han character is a word or half of one) counts twice, so "优化选中的逻辑" is not short.
 */
export function spacedLength(text: string): number {
  let n = 0;
  for (const char of text) n += NO_SPACE_SCRIPT.test(char) ? 2 : 1;
  return n;
}

/** A word as request tokens and name parts cut it. */
export function cutWord(word: string): string {
  const lower = word.toLowerCase();
  if (lower.length <= WORD_PREFIX) return lower;
  // Code points, not UTF-16 units, only where a surrogate pair could be cut.
  return SURROGATE.test(lower) ? [...lower].slice(0, WORD_PREFIX).join('') : lower.slice(0, WORD_PREFIX);
}

const SURROGATE = /[\uD800-\uDFFF]/;

/** The words of a request cut like name parts (for "does the request name this"), scripts with spaces only. */
export function requestWordKeys(text: string): Set<string> {
  const keys = new Set<string>();
  for (const run of text.toLowerCase().match(LETTER_RUN) ?? [])
    if ([...run].length >= 3 && !NO_SPACE_SCRIPT.test(run)) keys.add(cutWord(run));
  return keys;
}

/** The word parts of an identifier or file stem, lower-cased, at least 3 letters, cut like words. */
export const identifierParts: (name: string) => readonly string[] = boundedMemo(splitIdentifier, 8192);

function splitIdentifier(name: string): string[] {
  return name
    .replace(/(\p{Ll}|\d)(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}]+/u)
    .filter((part) => [...part].length >= 3)
    .map(cutWord);
}

/** The lower-cased plain words of a text (for "does the request mention this command word"). */
export function plainWords(text: string): Set<string> {
  return new Set(text.toLowerCase().match(LETTER_RUN) ?? []);
}
