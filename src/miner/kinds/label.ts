/**
 * A readable name for a task kind, from its own sessions: the two request words that are most
 * typical of the kind (shared by many of its members, rare in the rest of the project), in the
 * order users write them, in the form users write them ("commit message", "migration"). Words the
 * user writes in many requests of every kind ("the", "that") and the session's own details (a
 * package or file name its commands used) never name a kind. When the requests share nothing else,
 * the command most of its sessions ran ("git diff"). Labels are unique within a project.
 */

const MIN_SHARE = 0.3;
const COMMON_MIN_KINDS = 3;
const COMMON_KIND_SHARE = 0.5;
/** A word every session says still names a project with one kind of task. */
const MIN_IDF = 0.1;
const MAX_WORDS = 2;
const LETTER_RUN = /[\p{L}\p{M}\p{N}]+/gu;
const WORD_PREFIX = 6;

export interface LabelInput {
  /** The requests of every session of the project, by index. */
  requests: readonly string[];
  /** Each session's details: names its actions used (lower case). */
  details: ReadonlyArray<ReadonlySet<string>>;
  /** Function words, never a label. */
  stop: ReadonlySet<string>;
  /** The most common command (program + subcommand) of each session's request episode, or ''. */
  commands: readonly string[];
}

export function kindLabels(groups: readonly (readonly number[])[], input: LabelInput): string[] {
  const docs = input.requests.map((request, i) =>
    wordsOf(request, input.details[i] ?? new Set(), input.stop),
  );
  const df = new Map<string, number>();
  for (const doc of docs)
    for (const key of new Set(doc.map((w) => w.key))) df.set(key, (df.get(key) ?? 0) + 1);
  const common = spreadWords(groups, docs);
  const used = new Map<string, number>();
  return groups.map((group) => {
    const base = labelOf(group, docs, df, common, input) || 'task';
    const n = (used.get(base) ?? 0) + 1;
    used.set(base, n);
    return n === 1 ? base : `${base} (${n})`;
  });
}

/**
 * Words typical of many kinds at once ("that", "can", "you"): this user's way of writing, not the
 * name of one kind. A word counts for a kind when at least {@link MIN_SHARE} of its sessions say it.
 */
function spreadWords(groups: readonly (readonly number[])[], docs: readonly Word[][]): Set<string> {
  const kinds = groups.filter((g) => g.length > 1);
  const inKinds = new Map<string, number>();
  for (const group of kinds) {
    const counts = new Map<string, number>();
    for (const index of group) {
      for (const key of new Set((docs[index] ?? []).map((w) => w.key)))
        counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    for (const [key, n] of counts)
      if (n / group.length >= MIN_SHARE) inKinds.set(key, (inKinds.get(key) ?? 0) + 1);
  }
  const limit = Math.max(COMMON_MIN_KINDS, COMMON_KIND_SHARE * kinds.length);
  return new Set([...inKinds].filter(([, n]) => n >= limit).map(([key]) => key));
}

interface Word {
  key: string;
  surface: string;
  position: number;
}

function wordsOf(request: string, details: ReadonlySet<string>, stop: ReadonlySet<string>): Word[] {
  const words: Word[] = [];
  let position = 0;
  for (const raw of request
    .replace(/```[\s\S]*?(?:```|$)/g, ' ')
    .replace(/`[^`\n]*`/g, ' ')
    .split(/\s+/)) {
    if (/[\\/]|\d|\p{Ll}\p{Lu}|_/u.test(raw)) {
      position += 1;
      continue; // paths, identifiers and numbers are instance details
    }
    for (const run of raw.match(LETTER_RUN) ?? []) {
      const lower = run.toLowerCase();
      if ([...lower].length < 3 || stop.has(lower) || details.has(lower) || details.has(raw.toLowerCase()))
        continue;
      words.push({ key: [...lower].slice(0, WORD_PREFIX).join(''), surface: lower, position: position++ });
    }
  }
  return words;
}

function labelOf(
  group: readonly number[],
  docs: readonly Word[][],
  df: ReadonlyMap<string, number>,
  common: ReadonlySet<string>,
  input: LabelInput,
): string {
  const n = docs.length;
  const members = new Map<string, { count: number; positions: number; surfaces: Map<string, number> }>();
  for (const index of group) {
    const seen = new Set<string>();
    for (const word of docs[index] ?? []) {
      let entry = members.get(word.key);
      if (entry === undefined) {
        entry = { count: 0, positions: 0, surfaces: new Map() };
        members.set(word.key, entry);
      }
      entry.surfaces.set(word.surface, (entry.surfaces.get(word.surface) ?? 0) + 1);
      if (seen.has(word.key)) continue;
      seen.add(word.key);
      entry.count += 1;
      entry.positions += word.position;
    }
  }
  const ranked = [...members]
    .filter(([key, e]) => e.count / group.length >= MIN_SHARE && !common.has(key))
    .map(([key, e]) => ({
      key,
      e,
      score: (e.count / group.length) * Math.max(Math.log(n / (df.get(key) ?? 1)), MIN_IDF),
    }))
    .filter((r) => r.score > 0)
    .sort((a, b) => b.score - a.score || (a.key < b.key ? -1 : 1))
    .slice(0, MAX_WORDS)
    .sort((a, b) => a.e.positions / a.e.count - b.e.positions / b.e.count);
  if (ranked.length > 0) return ranked.map((r) => mostCommon(r.e.surfaces)).join(' ');
  const commands = new Map<string, number>();
  for (const index of group) {
    const command = input.commands[index] ?? '';
    if (command !== '') commands.set(command, (commands.get(command) ?? 0) + 1);
  }
  const top = mostCommon(commands);
  return top !== '' && (commands.get(top) ?? 0) / group.length >= MIN_SHARE ? top : '';
}

function mostCommon(counts: ReadonlyMap<string, number>): string {
  let best = '';
  let bestCount = -1;
  for (const [value, count] of counts) {
    if (count > bestCount || (count === bestCount && value < best)) {
      best = value;
      bestCount = count;
    }
  }
  return best;
}
