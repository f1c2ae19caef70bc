/**
 * The miner's word knowledge: filler, generic words, verb and word synonym groups, phrasal verbs,
 * opposites, stemming, and the limits of typo correction. Data and tiny helpers only; `similarity.ts`
 * uses them.
 */
/**
 * Function words, politeness and filler: nothing a request means depends on them. Larger than the
 * stop list of `normalizeIntent` (whose output is also the cluster id and must not change).
 */
// prettier-ignore
export const FILLER: ReadonlySet<string> = new Set([
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
  'longer', 'anymore', 'sure', 'though', 'while', 'whether', 'whenever', 'yet', 'even', 'ever',
  'around', 'across', 'through', 'via', 'over', 'under', 'within', 'between', 'behind', 'along',
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
  'go', 'look', 'see', 'done', 'use', 'using', 'used', 'find',
];

/**
 * Action verbs with their synonyms; the first word of each group is the canonical form. Only words
 * that are mostly verbs in requests: "release", "merge", "cache" or "export" are nouns as often.
 */
// prettier-ignore
const VERB_GROUPS: readonly (readonly string[])[] = [
  // Making something new: "add tests" and "write tests", "create a migration" and "add a migration".
  ['add', 'install', 'include', 'introduce', 'insert', 'append', 'integrate', 'create', 'generate',
    'scaffold', 'bootstrap', 'init', 'initialize', 'initialise', 'setup', 'write', 'draft', 'compose',
    'author', 'implement'],
  ['remove', 'delete', 'drop', 'uninstall', 'rm', 'eliminate', 'erase', 'strip'],
  ['fix', 'repair', 'correct', 'resolve', 'solve'],
  ['rename', 'mv'],
  ['move', 'relocate'],
  ['update', 'bump', 'upgrade', 'refresh'],
  ['explain', 'describe', 'clarify'],
  ['refactor', 'restructure', 'rework', 'cleanup', 'tidy', 'simplify', 'reorganize', 'reorganise'],
  ['run', 'execute', 'exec', 'launch'],
  ['optimize', 'optimise', 'accelerate', 'speedup'],
  ['enable'], ['disable'], ['show', 'display'], ['hide'], ['encrypt'], ['decrypt'], ['encode'],
  ['decode'], ['increase'], ['decrease', 'reduce'], ['allow', 'permit'], ['deny', 'forbid'],
  ['downgrade'], ['revert', 'undo', 'rollback'], ['review'], ['replace', 'swap'],
  ['convert', 'transform', 'port'], ['migrate'], ['deploy'], ['rebase'], ['validate', 'verify'],
  ['investigate', 'diagnose'],
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
  ['doc', 'docs', 'documentation', 'document'],
  ['perf', 'performance', 'faster', 'fast', 'slow', 'slower'],
  ['typescript', 'ts', 'tsc'],
  ['javascript', 'js'],
  ['endpoint', 'route'],
  ['directory', 'dir', 'folder'],
  ['env', 'environment'],
  ['lint', 'linter', 'eslint', 'linting'],
  ['pr', 'mr'],
  ['fail', 'break', 'broken'],
  ['cache', 'caching', 'memoize', 'memoization'],
  ['pagination', 'paginate'],
  ['translation', 'translate', 'i18n', 'localize', 'localization'],
  ['docker', 'dockerfile', 'dockerize', 'containerize'],
];

/** Words that name their object too: "install `zod`" is about a dependency. */
const IMPLIED: Readonly<Record<string, string>> = {
  install: 'dependency',
  uninstall: 'dependency',
};

/** Phrasal verbs and fixed phrases, read in the raw intent: "get rid of" is "remove". */
export const PHRASES: readonly (readonly [RegExp, string])[] = [
  [/\bget rid of\b/gi, 'remove'],
  [/\b(?:turn|switch) on\b/gi, 'enable'],
  [/\b(?:turn|switch) off\b/gi, 'disable'],
  [/\bset up\b/gi, 'setup'],
  [/\bclean up\b/gi, 'cleanup'],
  [/\bspeed up\b/gi, 'speedup'],
  [/\bwalk (?:me )?through\b/gi, 'explain'],
  [/\broll back\b/gi, 'rollback'],
  [/\b(?:look into|find out|figure out)\b/gi, 'investigate'],
  [/\bpull requests?\b/gi, 'pr'],
  [/\bmerge requests?\b/gi, 'mr'],
];

/**
 * Pairs of opposite words: intents that differ by one of them are different tasks, whether the
 * word is their action or not ("add X" / "remove X", "import" / "export").
 */
const OPPOSITES: readonly (readonly [string, string])[] = [
  ['add', 'remove'],
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
  ['min', 'max'],
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
export const LEXICON: ReadonlyMap<string, Lexeme> = buildLexicon();

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

/** Shortest word a typo is looked for in, and how much more common its correction must be. */
export const TYPO_MIN_LENGTH = 4;
export const TYPO_MIN_RATIO = 10;
/** ... and the shortest corrected only because a canonical word is near ("mail" is not "fail"). */
export const TYPO_MIN_LENGTH_KNOWN = 5;
/** A word seen more often than this (or this share of the intents) is a word, not a typo. */
export const TYPO_MAX_COUNT = 3;
export const TYPO_MAX_SHARE = 0.0005;

export const GENERIC: ReadonlySet<string> = new Set(GENERIC_WORDS.map(stem));
export const IMPLIED_BY_STEM: ReadonlyMap<string, string> = new Map(
  Object.entries(IMPLIED).map(([word, implied]) => [stem(word), implied]),
);
export const FILLER_STEMS: ReadonlySet<string> = new Set([...FILLER].map(stem));

/** Stems of every word in the tables, filler included: typos are corrected towards them. */
export const KNOWN_WORDS: ReadonlySet<string> = new Set([
  ...LEXICON.keys(),
  ...GENERIC,
  ...OPPOSITES.flat().map(stem),
  ...[...FILLER].filter((word) => word.length >= TYPO_MIN_LENGTH - 1).map(stem),
]);

export const OPPOSITE_OF: ReadonlyMap<string, readonly string[]> = buildOpposites();

/** Actions that take something away or undo it: a request with one never joins a request without. */
export const NEGATIVE: ReadonlySet<string> = new Set(['remove', 'disable', 'revert', 'downgrade']);

function buildOpposites(): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const [a, b] of OPPOSITES) {
    map.set(a, [...(map.get(a) ?? []), b]);
    map.set(b, [...(map.get(b) ?? []), a]);
  }
  return map;
}
