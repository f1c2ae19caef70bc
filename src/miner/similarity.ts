/**
 * What "the same task" means to the miner, word by word: the features of a normalised intent
 * (content words, lightly stemmed, coding verbs mapped onto one canonical verb), their weights, and
 * the pairwise test the clustering verifies its candidates with.
 *
 * Everything here depends on the two intents alone, never on the rest of the corpus, so a pair that
 * is similar tonight stays similar when more sessions arrive (cluster ids stay put).
 */

/** The weight classes. Integers, because MinHash replicates a feature once per unit of weight. */
export const VERB_WEIGHT = 3;
export const CONTENT_WEIGHT = 2;
export const GENERIC_WEIGHT = 1;

/** Weighted Jaccard a candidate pair needs to join. Tuned on `bench/mine.ts`. */
export const SIMILARITY_THRESHOLD = 0.5;

/** One feature of an intent. */
export interface Feature {
  token: string;
  weight: number;
  /** A canonical action verb ("add", "fix", ...): strong, and never enough on its own. */
  verb: boolean;
}

/**
 * Function words, politeness and filler: nothing a request means depends on them. Larger than the
 * stop list of `normalizeIntent` (whose output is also the cluster id and must not change).
 */
// prettier-ignore
const FILLER: ReadonlySet<string> = new Set([
  'a', 'about', 'actually', 'after', 'again', 'all', 'already', 'also', 'am', 'an', 'and', 'any',
  'anything', 'are', 'as', 'asap', 'at', 'basically', 'be', 'been', 'before', 'being', 'bit', 'but',
  'by', 'can', 'could', 'did', 'do', 'does', 'doesnt', 'dont', 'each', 'either', 'every', 'everything',
  'for', 'from', 'had', 'has', 'have', 'he', 'hello', 'help', 'her', 'here', 'hey', 'hi', 'him', 'how',
  'i', 'id', 'if', 'im', 'in', 'into', 'is', 'it', 'its', 'ive', 'just', 'kindly', 'let', 'lets',
  'like', 'little', 'may', 'maybe', 'me', 'might', 'mine', 'more', 'much', 'must', 'my', 'need',
  'needs', 'no', 'not', 'now', 'of', 'ok', 'okay', 'on', 'once', 'one', 'onto', 'or', 'our', 'out',
  'perhaps', 'please', 'pls', 'plz', 'quick', 'quickly', 'real', 'really', 'shall', 'she', 'should',
  'so', 'some', 'something', 'still', 'stuff', 'than', 'thank', 'thanks', 'that', 'the', 'their',
  'them', 'then', 'there', 'these', 'they', 'thing', 'things', 'this', 'those', 'thx', 'to', 'too',
  'try', 'up', 'us', 'very', 'want', 'wants', 'was', 'way', 'we', 'were', 'what', 'when', 'where',
  'which', 'who', 'why', 'will', 'with', 'without', 'would', 'yes', 'you', 'your',
]);

/**
 * Words that say little about which task it is ("the app", "the code"): they count, but less. Listed
 * by their stems (see {@link stem}).
 */
// prettier-ignore
const GENERIC_WORDS: readonly string[] = [
  'app', 'application', 'code', 'codebase', 'file', 'project', 'repo', 'repository', 'function',
  'method', 'change', 'new', 'good', 'better', 'proper', 'properly', 'everywhere', 'make', 'work',
  'current', 'existing', 'old', 'whole', 'entire', 'same', 'other', 'first', 'last', 'next', 'get',
  'go', 'look', 'see', 'done', 'use', 'using', 'used',
];

/** Action verbs with their synonyms; the first word of each group is the canonical form. */
// prettier-ignore
const VERB_GROUPS: readonly (readonly string[])[] = [
  ['add', 'install', 'include', 'introduce', 'insert', 'append', 'integrate'],
  ['remove', 'delete', 'drop', 'uninstall', 'rm', 'eliminate', 'erase'],
  ['create', 'generate', 'scaffold', 'bootstrap', 'init', 'initialize', 'initialise', 'setup'],
  ['write', 'draft', 'compose', 'author', 'rewrite'],
  ['fix', 'repair', 'correct', 'resolve', 'solve', 'debug'],
  ['rename', 'move', 'mv', 'relocate'],
  ['update', 'bump', 'upgrade', 'refresh'],
  ['explain', 'describe', 'clarify', 'walk'],
  ['refactor', 'restructure', 'rework', 'clean', 'cleanup', 'tidy', 'simplify', 'reorganize', 'reorganise'],
  ['run', 'execute', 'exec', 'launch'],
  ['optimize', 'optimise', 'speed', 'accelerate'],
  ['enable'], ['disable'], ['show', 'display'], ['hide'], ['start'], ['stop'], ['encrypt'],
  ['decrypt'], ['encode'], ['decode'], ['lock'], ['unlock'], ['increase'], ['decrease', 'reduce'],
  ['allow', 'permit'], ['deny', 'block', 'forbid'], ['downgrade'], ['import'], ['export'], ['open'],
  ['close'], ['revert', 'undo', 'rollback'], ['review'], ['implement'], ['replace', 'swap'],
  ['convert', 'transform'], ['migrate'], ['deploy'], ['release', 'publish', 'ship'], ['merge'],
  ['rebase'], ['split'], ['document'], ['profile'], ['cache'], ['validate', 'verify'],
];

/** Nouns and adjectives with their synonyms; the first word of each group is the canonical form. */
// prettier-ignore
const WORD_GROUPS: readonly (readonly string[])[] = [
  ['test', 'spec', 'unittest'],
  ['dependency', 'dep', 'package', 'pkg', 'library', 'lib'],
  ['message', 'msg'],
  ['error', 'err', 'failure'],
  ['config', 'configuration', 'configure', 'configurable', 'setting', 'cfg'],
  ['db', 'database'],
  ['doc', 'docs', 'documentation'],
  ['perf', 'performance', 'faster', 'fast', 'slow', 'slower'],
  ['readme'],
  ['typescript', 'ts'],
  ['javascript', 'js'],
  ['endpoint', 'route'],
  ['directory', 'dir', 'folder'],
  ['env', 'environment'],
];

/** Pairs of opposite actions: intents that differ by one of them are different tasks. */
const OPPOSITES: readonly (readonly [string, string])[] = [
  ['add', 'remove'],
  ['create', 'remove'],
  ['enable', 'disable'],
  ['show', 'hide'],
  ['start', 'stop'],
  ['encrypt', 'decrypt'],
  ['encode', 'decode'],
  ['lock', 'unlock'],
  ['increase', 'decrease'],
  ['allow', 'deny'],
  ['update', 'downgrade'],
  ['import', 'export'],
  ['open', 'close'],
  ['merge', 'split'],
];

/** Irregular forms the suffix rules get wrong. */
const IRREGULAR: Readonly<Record<string, string>> = {
  adding: 'add',
  added: 'add',
  using: 'use',
  ran: 'run',
  running: 'run',
  wrote: 'write',
  written: 'write',
  broke: 'break',
  broken: 'break',
  made: 'make',
  making: 'make',
  set: 'set',
  setting: 'setting',
  settings: 'setting',
};

const STEM_UNDOUBLE = /([bgmnprt])\1$/;

/**
 * A light stemmer: plural, -ing and -ed go, a doubled final consonant after them is undone and a
 * final `e` is dropped, so "update", "updates", "updating" and "updated" share one stem.
 */
export function stem(word: string): string {
  const irregular = IRREGULAR[word];
  if (irregular !== undefined) return dropFinalE(irregular);
  if (word.length <= 3) return word;
  let w = word;
  if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('s') && !/(?:ss|us|is)$/.test(w)) w = w.slice(0, -1);
  if (w.endsWith('ing') && w.length - 3 >= 3) w = undouble(w.slice(0, -3));
  else if (w.endsWith('ed') && !w.endsWith('eed') && w.length - 2 >= 3) w = undouble(w.slice(0, -2));
  return dropFinalE(w);
}

function undouble(w: string): string {
  return STEM_UNDOUBLE.test(w) ? w.slice(0, -1) : w;
}

function dropFinalE(w: string): string {
  return w.length > 3 && w.endsWith('e') ? w.slice(0, -1) : w;
}

interface Lexeme {
  canonical: string;
  verb: boolean;
}

/** stem → canonical word; built once from the groups above so the tables stay readable. */
const LEXICON: ReadonlyMap<string, Lexeme> = buildLexicon();

function buildLexicon(): Map<string, Lexeme> {
  const lexicon = new Map<string, Lexeme>();
  const addGroups = (groups: readonly (readonly string[])[], verb: boolean): void => {
    for (const group of groups) {
      const canonical = group[0];
      if (canonical === undefined) continue;
      for (const word of group) lexicon.set(stem(word), { canonical, verb });
    }
  };
  addGroups(VERB_GROUPS, true);
  addGroups(WORD_GROUPS, false);
  return lexicon;
}

const GENERIC: ReadonlySet<string> = new Set(GENERIC_WORDS.map(stem));

const OPPOSITE_OF: ReadonlyMap<string, readonly string[]> = buildOpposites();

function buildOpposites(): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const [a, b] of OPPOSITES) {
    map.set(a, [...(map.get(a) ?? []), b]);
    map.set(b, [...(map.get(b) ?? []), a]);
  }
  return map;
}

const PLACEHOLDER = /^<\w+>$/;

/**
 * The features of one normal form (the output of `normalizeIntent`), deduplicated, in first-seen
 * order. Placeholders (`<code>`, `<path>`, `<num>`, `<id>`) stand for the instance (which package,
 * which file), not the task, so they are not features. Empty when only filler is left.
 */
export function intentFeatures(normalized: string): Feature[] {
  const features = new Map<string, Feature>();
  for (const word of normalized.split(' ')) {
    if (word === '' || PLACEHOLDER.test(word) || FILLER.has(word)) continue;
    if (/^\d+$/.test(word)) continue;
    const stemmed = stem(word);
    const lexeme = LEXICON.get(stemmed);
    const token = lexeme?.canonical ?? stemmed;
    if (token.length < 2 || FILLER.has(token) || features.has(token)) continue;
    const verb = lexeme?.verb ?? false;
    const weight = verb ? VERB_WEIGHT : GENERIC.has(token) ? GENERIC_WEIGHT : CONTENT_WEIGHT;
    features.set(token, { token, weight, verb });
  }
  return [...features.values()];
}

/** The canonical opposite actions of a verb token ("add" → ["remove"]). */
export function oppositesOf(token: string): readonly string[] {
  return OPPOSITE_OF.get(token) ?? [];
}

/** A feature set prepared for repeated comparisons. */
export interface FeatureSet {
  /** token → weight */
  weights: ReadonlyMap<string, number>;
  verbs: ReadonlySet<string>;
  total: number;
}

export function featureSet(features: readonly Feature[]): FeatureSet {
  const weights = new Map<string, number>();
  const verbs = new Set<string>();
  let total = 0;
  for (const feature of features) {
    weights.set(feature.token, feature.weight);
    if (feature.verb) verbs.add(feature.token);
    total += feature.weight;
  }
  return { weights, verbs, total };
}

/**
 * The weighted Jaccard similarity of two feature sets, or 0 when they cannot be the same task:
 * they share no word besides verbs (so "add tests" and "add logging" stay apart), or one asks
 * for the opposite of the other ("add X" / "remove X").
 */
export function similarity(a: FeatureSet, b: FeatureSet): number {
  const [small, large] = a.weights.size <= b.weights.size ? [a, b] : [b, a];
  let shared = 0;
  let sharedContent = 0;
  for (const [token, weight] of small.weights) {
    if (!large.weights.has(token)) continue;
    shared += weight;
    if (!small.verbs.has(token)) sharedContent += weight;
  }
  if (sharedContent === 0) return 0;
  if (opposed(a, b) || opposed(b, a)) return 0;
  return shared / (a.total + b.total - shared);
}

/** True when `a` does a verb whose opposite `b` does, and neither also does the other one. */
function opposed(a: FeatureSet, b: FeatureSet): boolean {
  for (const verb of a.verbs) {
    if (b.verbs.has(verb)) continue;
    if (oppositesOf(verb).some((opposite) => b.verbs.has(opposite) && !a.verbs.has(opposite))) return true;
  }
  return false;
}

/** True when two intents count as the same task. */
export function sameTask(a: FeatureSet, b: FeatureSet, threshold = SIMILARITY_THRESHOLD): boolean {
  return similarity(a, b) >= threshold;
}
