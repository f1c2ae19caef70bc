/**
 * What "the same task" means to the miner, word by word.
 *
 * Per intent (corpus-independent): phrasal verbs are joined ("get rid of" → remove), the text goes
 * through `normalizeIntent`, filler and bare numbers go, words are lightly stemmed and mapped onto a
 * canonical word (install/add/write/create → add, bump/upgrade → update, eslint/linter → lint). The
 * first canonical verb is the intent's action; placeholders (`<sym>` for code and identifiers,
 * `<path>`, `<num>`) stay as weak features.
 *
 * Per corpus (one project, once per night; see `cluster.ts` and `corpus-words.ts`): names users sometimes backtick are
 * placeholders where written bare, recurring file names are read as words, typos are corrected
 * towards far more common words, closing sentences appended to all kinds of requests are dropped,
 * and words that go with every action alike are filler.
 *
 * Pairwise: weighted Jaccard over the features, on condition that the two share a content word (or
 * are both only an action on the same kind of placeholder), share enough of their content words,
 * and do not ask for opposite things.
 */
import { NO_NAMES, PLACEHOLDER, rewriteNames, type Names } from './corpus-words.js';
import { normalizeIntent } from './normalize-intent.js';
import {
  FILLER,
  GENERIC,
  IMPLIED_BY_STEM,
  LEXICON,
  NEGATIVE,
  OPPOSITE_OF,
  PHRASES,
  stem,
} from './lexicon.js';

export { stem };
export {
  corpusBoilerplate,
  corpusNames,
  correctTypos,
  stripBoilerplate,
  typoCorrections,
  withinOneEdit,
  type Names,
} from './corpus-words.js';

/** Weights, integers because MinHash repeats a feature once per unit of weight. */
export const ACTION_WEIGHT = 3;
export const CONTENT_WEIGHT = 2;
export const GENERIC_WEIGHT = 1;
export const WEAK_WEIGHT = 1;

/** Weighted Jaccard a candidate pair needs to join. Tuned on `bench/mine.ts`. */
export const SIMILARITY_THRESHOLD = 0.4;
/**
 * ... and the weighted Jaccard of their content words alone: "fix the lint errors" and "fix the type
 * errors" share the action and "errors", but only a third of their content.
 */
export const CONTENT_THRESHOLD = 0.45;

/**
 * - `action`: the intent's first canonical verb ("add", "fix", ...): strong, never enough on its own.
 * - `content`: a word that says which task it is ("lint", "dependency", "readme"); two intents must
 *   share one to join. Generic ones ("app", "code") weigh less and do not count as shared.
 * - `weak`: counts a little but is never enough: placeholders (`<sym>`, `<path>`, `<num>`: they say
 *   which package or file, not which task) and words the corpus finds unspecific.
 */
export type Role = 'action' | 'content' | 'weak';

/** One feature of an intent. */
export interface Feature {
  token: string;
  weight: number;
  role: Role;
}

const SYMBOL = '<sym>';

/**
 * The words of an intent: phrasal verbs joined, then the normal form of `normalizeIntent` without
 * filler, stemmed. Placeholders stay; `<code>` and `<id>` become one `<sym>`, since
 * users backtick a name or not as it comes.
 */
export function intentWords(intent: string): string[] {
  let text = intent;
  for (const [pattern, replacement] of PHRASES) text = text.replace(pattern, replacement);
  const words: string[] = [];
  for (const word of normalizeIntent(text).split(' ')) {
    if (word === '' || FILLER.has(word) || /^\d+$/.test(word)) continue;
    if (PLACEHOLDER.test(word)) {
      words.push(word === '<code>' || word === '<id>' ? SYMBOL : word);
      continue;
    }
    const stemmed = stem(word);
    if (stemmed.length >= 2 && !FILLER.has(stemmed)) words.push(stemmed);
  }
  return words;
}

const FENCED_BLOCK = /```[\s\S]*?(?:```|$)/g;
const SENTENCE_BREAK = /(?<=[.!?])\s+|\n+/;

/** The words of each sentence of an intent (see {@link intentWords}), empty sentences left out. */
export function sentenceWords(intent: string, names: Names = NO_NAMES): string[][] {
  return rewriteNames(intent.replace(FENCED_BLOCK, ' `code` '), names)
    .split(SENTENCE_BREAK)
    .map(intentWords)
    .filter((words) => words.length > 0);
}

/**
 * The features of an intent's words (see {@link intentWords}), deduplicated, in first-seen order:
 * the first canonical verb is the action, other words are content (generic ones weigh less),
 * placeholders are weak. Empty when only filler is left.
 */
export function featuresOf(words: readonly string[]): Feature[] {
  const features = new Map<string, Feature>();
  let hasAction = false;
  for (const word of words) {
    if (PLACEHOLDER.test(word)) {
      if (!features.has(word)) features.set(word, { token: word, weight: WEAK_WEIGHT, role: 'weak' });
      continue;
    }
    const lexeme = LEXICON.get(word);
    const token = lexeme?.canonical ?? word;
    if (!features.has(token)) {
      if (lexeme?.verb === true && !hasAction) {
        hasAction = true;
        features.set(token, { token, weight: ACTION_WEIGHT, role: 'action' });
      } else {
        const weight = GENERIC.has(token) ? GENERIC_WEIGHT : CONTENT_WEIGHT;
        features.set(token, { token, weight, role: 'content' });
      }
    }
    const implied = IMPLIED_BY_STEM.get(word);
    if (implied !== undefined && !features.has(implied)) {
      features.set(implied, { token: implied, weight: CONTENT_WEIGHT, role: 'content' });
    }
  }
  return [...features.values()];
}

/** The features of one intent, without corpus knowledge (no typo corrections). */
export function intentFeatures(intent: string): Feature[] {
  return featuresOf(intentWords(intent));
}

/** The opposites of a word ("add" → ["remove"]). */
export function oppositesOf(token: string): readonly string[] {
  return OPPOSITE_OF.get(token) ?? [];
}

/** Fewest intents, and fewest different actions among them, before the corpus can judge a word. */
const SPECIFICITY_MIN_OCCURRENCES = 10;
const SPECIFICITY_MIN_ACTIONS = 5;
/** Bias-corrected KL divergence (nats) of a word's actions from the corpus's: below, filler. */
const FILLER_MAX_DIVERGENCE = 0.15;
/** ... below this (and not filler), a weak word. */
const WEAK_MAX_DIVERGENCE = 0.4;

export type Specificity = 'filler' | 'weak';

/**
 * What this corpus says about its words. A word that occurs with every kind of request alike
 * ("alright", "when you get a chance", "the release is tomorrow") cannot tell two tasks apart, however
 * often two intents happen to share it. For each content word seen in at least
 * {@link SPECIFICITY_MIN_OCCURRENCES} intents with at least {@link SPECIFICITY_MIN_ACTIONS} different
 * actions, the distribution of the actions of those intents ("none" included) is compared with the
 * corpus's: the KL divergence, less its small-sample bias
 * (categories − 1) / 2n. Under {@link FILLER_MAX_DIVERGENCE} the word is filler (dropped), under
 * {@link WEAK_MAX_DIVERGENCE} it is weak. Task words ("lint", "dependency", "test") come with a few
 * actions only and are left alone.
 */
export function corpusSpecificity(featureLists: readonly (readonly Feature[])[]): Map<string, Specificity> {
  const actionOf = (features: readonly Feature[]): string =>
    features.find((f) => f.role === 'action')?.token ?? '';
  const global = new Map<string, number>();
  const byWord = new Map<string, Map<string, number>>();
  for (const features of featureLists) {
    const action = actionOf(features);
    global.set(action, (global.get(action) ?? 0) + 1);
    for (const feature of features) {
      if (feature.role !== 'content') continue;
      let counts = byWord.get(feature.token);
      if (counts === undefined) {
        counts = new Map<string, number>();
        byWord.set(feature.token, counts);
      }
      counts.set(action, (counts.get(action) ?? 0) + 1);
    }
  }
  const total = featureLists.length;
  const result = new Map<string, Specificity>();
  for (const [word, counts] of byWord) {
    let n = 0;
    for (const count of counts.values()) n += count;
    if (n < SPECIFICITY_MIN_OCCURRENCES || counts.size < SPECIFICITY_MIN_ACTIONS) continue;
    let divergence = 0;
    for (const [action, count] of counts) {
      const p = count / n;
      divergence += p * Math.log(p / ((global.get(action) ?? 1) / total));
    }
    const corrected = divergence - (counts.size - 1) / (2 * n);
    if (corrected < FILLER_MAX_DIVERGENCE) result.set(word, 'filler');
    else if (corrected < WEAK_MAX_DIVERGENCE) result.set(word, 'weak');
  }
  return result;
}

/** Drops the corpus's filler words and demotes its weak ones. */
export function applySpecificity(
  features: readonly Feature[],
  specificity: ReadonlyMap<string, Specificity>,
): Feature[] {
  const kept: Feature[] = [];
  for (const feature of features) {
    const verdict = feature.role === 'content' ? specificity.get(feature.token) : undefined;
    if (verdict === 'filler') continue;
    kept.push(verdict === 'weak' ? { token: feature.token, weight: WEAK_WEIGHT, role: 'weak' } : feature);
  }
  return kept;
}

/** A feature set prepared for repeated comparisons. */
export interface FeatureSet {
  /** token → weight */
  weights: ReadonlyMap<string, number>;
  action: string | null;
  /** Tokens in the content role. */
  content: ReadonlySet<string>;
  /** Some content word is not generic ("lint", not just "app"). */
  specific: boolean;
  /** The placeholders, sorted and joined. */
  placeholders: string;
  /** Sum of the content words' weights. */
  contentTotal: number;
  /** Tokens that have an opposite. */
  polar: readonly string[];
  total: number;
}

export function featureSet(features: readonly Feature[]): FeatureSet {
  const weights = new Map<string, number>();
  const content = new Set<string>();
  const polar: string[] = [];
  let action: string | null = null;
  let specific = false;
  let total = 0;
  let contentTotal = 0;
  for (const feature of features) {
    weights.set(feature.token, feature.weight);
    if (feature.role === 'action') action = feature.token;
    if (feature.role === 'content') {
      content.add(feature.token);
      contentTotal += feature.weight;
    }
    if (feature.role === 'content' && feature.weight >= CONTENT_WEIGHT) specific = true;
    if (OPPOSITE_OF.has(feature.token) || NEGATIVE.has(feature.token)) polar.push(feature.token);
    total += feature.weight;
  }
  const placeholders = features
    .filter((f) => PLACEHOLDER.test(f.token))
    .map((f) => f.token)
    .sort()
    .join(' ');
  return { weights, action, content, polar, specific, placeholders, contentTotal, total };
}

/**
 * The weighted Jaccard similarity of two feature sets (Σ min / Σ max of the weights; two different
 * actions count once more, so "rename `a` across the web app" and "add `b` to the web app" stay
 * apart), or 0 when they cannot be the same task:
 * - they share no specific content word (so "add tests" and "add logging" stay apart, and so do
 *   two intents that only share a placeholder). Except that two intents with nothing specific, the
 *   same action and the same placeholders join ("rename `a` to `b`" / "rename the `a` function to
 *   `b` everywhere");
 * - their content words overlap less than {@link CONTENT_THRESHOLD};
 * - one asks for the opposite of the other ("add X" / "remove X"), or takes something away and
 *   the other does not.
 */
export function similarity(a: FeatureSet, b: FeatureSet): number {
  const [small, large] = a.weights.size <= b.weights.size ? [a, b] : [b, a];
  let shared = 0;
  let sharedContent = 0;
  let sharedSpecific = false;
  for (const [token, weight] of small.weights) {
    const other = large.weights.get(token);
    if (other === undefined) continue;
    const common = Math.min(weight, other);
    shared += common;
    if (small.content.has(token) && large.content.has(token)) {
      sharedContent += common;
      if (common >= CONTENT_WEIGHT) sharedSpecific = true;
    }
  }
  if (sharedSpecific) {
    const contentUnion = a.contentTotal + b.contentTotal - sharedContent;
    if (sharedContent < CONTENT_THRESHOLD * contentUnion) return 0;
  } else if (!bareActionMatch(a, b)) {
    return 0;
  }
  if (opposed(a, b) || opposed(b, a)) return 0;
  const mismatch = a.action !== null && b.action !== null && a.action !== b.action ? ACTION_WEIGHT : 0;
  return shared / (a.total + b.total - shared + mismatch);
}

/**
 * Same action and placeholders, and nothing specific on either side ("rename `a` to `b`" / "rename
 * the `a` function to `b` everywhere", "add `zod` to the app" / "install `ky` in the project").
 */
function bareActionMatch(a: FeatureSet, b: FeatureSet): boolean {
  if (a.action === null || a.action !== b.action || a.specific || b.specific) return false;
  return a.placeholders === b.placeholders;
}

/**
 * True when `a` has a word `b` lacks whose opposite `b` has ("remove" / "add"), or a word that
 * takes something away ("remove", "disable", "revert") that `b` lacks: "we need more debug logging"
 * and "remove the debug logging" are different tasks.
 */
function opposed(a: FeatureSet, b: FeatureSet): boolean {
  for (const word of a.polar) {
    if (b.weights.has(word)) continue;
    if (NEGATIVE.has(word)) return true;
    if (oppositesOf(word).some((opposite) => b.weights.has(opposite))) return true;
  }
  return false;
}

/** True when two intents, read without corpus knowledge, count as the same task. */
export function sameTask(a: string, b: string, threshold = SIMILARITY_THRESHOLD): boolean {
  return similarity(featureSet(intentFeatures(a)), featureSet(intentFeatures(b))) >= threshold;
}
