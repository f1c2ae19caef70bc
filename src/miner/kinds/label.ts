/**
 * A readable name for a task kind, in its users' own words: the opening of its most representative
 * request, from its first word to the last of the kind's words ("write a commit message", "Amendments
 * to the …"), with the instance details masked ("…": paths, identifiers, numbers, quoted and code
 * text, names the session's actions used, the project's topic words).
 *
 * The kind's words are the request words many of its sessions say (at least {@link MIN_SHARE}),
 * neither function words, details nor topic words, and not words this user writes in many kinds
 * alike ("can", "please"). The representative request is the one whose opening clause holds most of
 * them. A kind without such words (a one-off, a kind held together by its commands, a kind written in
 * a script without spaces) is named by the opening words of its request most like the others, or,
 * when no request has words to show, by the command most of its sessions ran ("git diff"). Labels are
 * unique within a project.
 */
import { cutWord } from './request-tokens.js';

const MIN_SHARE = 0.3;
/** A topic word names a kind when nearly all its sessions say it ("create a migration …"). */
const TOPIC_SHARE = 0.8;
const COMMON_MIN_KINDS = 3;
const COMMON_KIND_SHARE = 0.5;
/** A label is a short phrase: at most this many words (characters in scripts without spaces). */
const MAX_WORDS = 8;
const MAX_CHARS = 60;
/** Without kind words, the opening words shown (masks not counted); with them, at least these. */
const OPENING_WORDS = 6;
const MIN_WORDS = 3;
const MASK = '…';
const CLAUSE_END = /[.!?;:\n。！？；：]/u;
/** In a script without spaces a comma ends a clause too (there is no word to end it). */
const CLAUSE_END_NO_SPACE = /[,，、.!?;:\n。！？；：]/u;
const FENCED = /```[\s\S]*?(?:```|$)/g;
const LETTER_RUN = /[\p{L}\p{M}\p{N}]+/gu;
const NO_SPACE_SCRIPT =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
/** Where a detail starts inside a clause of a script without spaces. */
const DETAIL_CHAR = /[\\/@#=<>{}[\]\d_]/u;
/** Paths, identifiers, numbers, URLs: instance details by their shape. */
const DETAIL_SHAPE = /[\\/@#=<>{}[\]]|\d|\p{Ll}\p{Lu}|_|^[a-z][a-z0-9+.-]*:\/\//u;

export interface LabelInput {
  /** The requests of every session of the project, by index. */
  requests: readonly string[];
  /** Each session's details: names its actions used (lower case). */
  details: ReadonlyArray<ReadonlySet<string>>;
  /** Each session's project topic words (cut like request words). */
  topics: ReadonlyArray<ReadonlySet<string>>;
  /** Function words, never a kind word. */
  stop: ReadonlySet<string>;
  /** The most common command (program + subcommand) of each session's request episode, or ''. */
  commands: readonly string[];
}

/** A word of a request as a label shows it. */
interface Word {
  /** As written (outer punctuation removed). */
  text: string;
  /** Cut like request words; '' for a masked word. */
  key: string;
  masked: boolean;
  /** A function word (kept in the phrase, never a kind word). */
  stop: boolean;
  /** One of the project's topic words: shown as a mask unless nearly all the kind says it. */
  topic: boolean;
}

export function kindLabels(groups: readonly (readonly number[])[], input: LabelInput): string[] {
  const openings = input.requests.map((request, i) =>
    openingWords(request, input.details[i] ?? new Set(), input.topics[i] ?? new Set(), input.stop),
  );
  const common = spreadWords(groups, openings);
  const used = new Map<string, number>();
  return groups.map((group) => {
    const base = labelOf(group, openings, common, input) || 'task';
    const n = (used.get(base) ?? 0) + 1;
    used.set(base, n);
    return n === 1 ? base : `${base} (${n})`;
  });
}

/** The words of a request's opening clause (code blocks left out), details masked. */
export function openingWords(
  request: string,
  details: ReadonlySet<string>,
  topics: ReadonlySet<string>,
  stop: ReadonlySet<string>,
): Word[] {
  const text = request.replace(FENCED, ' ').trim();
  const words: Word[] = [];
  for (const raw of text.split(/\s+/)) {
    if (words.length >= MAX_WORDS * 4) break;
    const clean = raw.replace(/^[\p{P}\p{S}]+|[\p{P}\p{S}]+$/gu, '');
    if (clean !== '') words.push(wordOf(raw, clean, details, topics, stop));
    const trailing = raw.slice(raw.replace(/[\p{P}\p{S}]+$/u, '').length);
    const ends =
      CLAUSE_END.test(trailing) || (NO_SPACE_SCRIPT.test(clean) && CLAUSE_END_NO_SPACE.test(clean));
    // A clause ends at its punctuation, unless nothing but masks came before ("web/package: …").
    if (ends && words.some((w) => !w.masked)) break;
  }
  return words;
}

function wordOf(
  raw: string,
  clean: string,
  details: ReadonlySet<string>,
  topics: ReadonlySet<string>,
  stop: ReadonlySet<string>,
): Word {
  const masked: Word = { text: MASK, key: '', masked: true, stop: false, topic: false };
  if (NO_SPACE_SCRIPT.test(clean)) {
    // A clause of a script without spaces is one "word" (shown cut, never a kind word by itself), up
    // to a detail written inside it ("当前页面/视频" → "当前页面").
    const head = clean.split(CLAUSE_END_NO_SPACE)[0]?.split(DETAIL_CHAR)[0] ?? '';
    if (!NO_SPACE_SCRIPT.test(head)) return masked;
    return {
      text: [...head].slice(0, MAX_WORDS * 2).join(''),
      key: '',
      masked: false,
      stop: false,
      topic: false,
    };
  }
  const lower = clean.toLowerCase();
  const runs = lower.match(LETTER_RUN) ?? [];
  if (
    runs.length === 0 ||
    /^[`"'“«「]/u.test(raw) ||
    DETAIL_SHAPE.test(clean) ||
    details.has(lower) ||
    runs.some((run) => details.has(run))
  )
    return masked;
  const key = cutWord(runs[0] ?? '');
  const isStop = runs.every((run) => stop.has(run)) || [...key].length < 3;
  return { text: clean, key, masked: false, stop: isStop, topic: !isStop && topics.has(key) };
}

/**
 * Words typical of many kinds at once ("can", "please"): this user's way of writing, not the name
 * of one kind. A word counts for a kind when at least {@link MIN_SHARE} of its sessions say it.
 */
function spreadWords(groups: readonly (readonly number[])[], docs: readonly Word[][]): Set<string> {
  const kinds = groups.filter((g) => g.length > 1);
  const inKinds = new Map<string, number>();
  for (const group of kinds) {
    for (const [key, n] of keyCounts(group, docs))
      if (n / group.length >= MIN_SHARE) inKinds.set(key, (inKinds.get(key) ?? 0) + 1);
  }
  const limit = Math.max(COMMON_MIN_KINDS, COMMON_KIND_SHARE * kinds.length);
  return new Set([...inKinds].filter(([, n]) => n >= limit).map(([key]) => key));
}

/** How many of the group's openings say each kind-word candidate. */
function keyCounts(group: readonly number[], docs: readonly Word[][]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const index of group) {
    const keys = new Set((docs[index] ?? []).filter((w) => !w.stop && w.key !== '').map((w) => w.key));
    for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

function labelOf(
  group: readonly number[],
  openings: readonly Word[][],
  common: ReadonlySet<string>,
  input: LabelInput,
): string {
  const topic = new Set(group.flatMap((i) => (openings[i] ?? []).filter((w) => w.topic).map((w) => w.key)));
  const kindWords = new Set(
    [...keyCounts(group, openings)]
      .filter(
        ([key, n]) =>
          group.length > 1 &&
          n >= 2 &&
          n / group.length >= (topic.has(key) ? TOPIC_SHARE : MIN_SHARE) &&
          !common.has(key),
      )
      .map(([key]) => key),
  );
  const shown = (words: readonly Word[]): Word[] =>
    words.map((w) => (w.topic && !kindWords.has(w.key) ? { ...w, text: MASK, masked: true } : w));
  if (kindWords.size > 0) {
    // The member whose opening holds most kind words, then says one first (the opening states the
    // kind), then is the shortest; members are in corpus order, so ties keep the earliest.
    let best: { phrase: string; hits: number; first: number } | null = null;
    for (const index of group) {
      const words = openings[index] ?? [];
      const at = words.flatMap((w, i) => (kindWords.has(w.key) ? [i] : []));
      const first = at[0];
      const last = at.at(-1);
      if (first === undefined || last === undefined) continue;
      const hits = new Set(at.map((i) => words[i]?.key)).size;
      // A long way to the last kind word: the phrase starts at the first one instead.
      const to = Math.max(last + 1, wordsFor(words, MIN_WORDS));
      const phrase = phraseOf(shown(words).slice(to > MAX_WORDS ? first : 0, to));
      if (
        best === null ||
        hits > best.hits ||
        (hits === best.hits &&
          (first < best.first || (first === best.first && phrase.length < best.phrase.length)))
      )
        best = { phrase, hits, first };
    }
    if (best !== null && best.phrase !== '') return best.phrase;
  }
  // No word most of the kind says: the opening of the request most like the others' (its user's own
  // words), before the command the kind ran.
  for (const index of representativeFirst(group, openings)) {
    const words = shown(openings[index] ?? []);
    const phrase = phraseOf(words.slice(0, wordsFor(words, OPENING_WORDS)));
    if (phrase !== '') return phrase;
  }
  return mainCommand(group, input.commands);
}

/**
 * The group's members, the one whose opening shares the most with the other members' first (word
 * keys, and character pairs in scripts without spaces), ties in corpus order.
 */
function representativeFirst(group: readonly number[], openings: readonly Word[][]): number[] {
  if (group.length < 3) return [...group];
  const units = group.map((index) => openingUnits(openings[index] ?? []));
  const counts = new Map<string, number>();
  for (const own of units) for (const unit of own) counts.set(unit, (counts.get(unit) ?? 0) + 1);
  const shared = units.map((own) => [...own].reduce((sum, unit) => sum + (counts.get(unit) ?? 1) - 1, 0));
  return group
    .map((index, k) => ({ index, k, score: shared[k] ?? 0 }))
    .sort((a, b) => b.score - a.score || a.k - b.k)
    .map((m) => m.index);
}

/** An opening's comparable units: kind-word keys, and the character pairs of unspaced words. */
function openingUnits(words: readonly Word[]): Set<string> {
  const units = new Set<string>();
  for (const word of words) {
    if (word.masked || word.stop) continue;
    if (word.key !== '') units.add(word.key);
    else {
      const chars = [...word.text];
      for (let i = 0; i + 1 < chars.length; i++) units.add(`${chars[i]}${chars[i + 1]}`);
    }
  }
  return units;
}

/** How many leading words hold `n` unmasked ones. */
function wordsFor(words: readonly Word[], n: number): number {
  let seen = 0;
  for (let i = 0; i < words.length; i++) {
    if (!(words[i] as Word).masked) seen += 1;
    if (seen >= n) return i + 1;
  }
  return words.length;
}

/** Words as a phrase: masks collapsed, at most {@link MAX_WORDS} words and {@link MAX_CHARS} characters. */
function phraseOf(all: readonly Word[]): string {
  // A phrase neither opens with a mask nor ends with one or with a function word ("… and").
  let from = 0;
  let to = all.length;
  while (from < to && (all[from] as Word).masked) from += 1;
  while (to > from && ((all[to - 1] as Word).masked || (all[to - 1] as Word).stop)) to -= 1;
  if (to === from) to = Math.min(all.length, from + 1);
  const words = all.slice(from, to);
  if (words.every((w) => w.masked)) return '';
  const shown: string[] = [];
  for (const word of words) {
    if (word.masked && shown.at(-1) === MASK) continue;
    shown.push(word.text);
  }
  let phrase = shown.slice(0, MAX_WORDS).join(' ');
  if ([...phrase].length > MAX_CHARS) phrase = `${[...phrase].slice(0, MAX_CHARS - 1).join('')}${MASK}`;
  return phrase.trim();
}

/** The command most of the group's sessions ran first, when at least {@link MIN_SHARE} did. */
function mainCommand(group: readonly number[], commands: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const index of group) {
    const command = commands[index] ?? '';
    if (command !== '') counts.set(command, (counts.get(command) ?? 0) + 1);
  }
  let best = '';
  let bestCount = 0;
  for (const [command, count] of counts) {
    if (count > bestCount || (count === bestCount && command < best)) {
      best = command;
      bestCount = count;
    }
  }
  return bestCount / group.length >= MIN_SHARE ? best : '';
}
