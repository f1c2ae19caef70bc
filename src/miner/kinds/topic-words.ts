/**
 * The project's topic words: words a user writes to name the thing a request is about ("the
 * appraisals page", "the test drive form"), not the kind of work asked. Nothing here is a word list;
 * a project's own sessions tell them apart. When a request names a thing, the agent goes to it: the
 * word comes back in the names its actions used (files, folders, arguments, search patterns). A word
 * of the kind of work ("amend", "debug", "add") does not: the agent runs a command or edits a file
 * named after the topic. So a word counts as a topic word of its partition when, in at least
 * {@link TOPIC_SHARE} of the sessions whose request says it, that session's actions named it too.
 */

/** Share of the sessions saying a word whose actions also named it. */
const TOPIC_SHARE = 0.5;

export interface TopicInput {
  /** The request's words, cut like name parts (`requestWordKeys`). */
  words: ReadonlySet<string>;
  /** The words of the names the session's actions used, with their `wordForms` (`ActionFeatureSink.names`). */
  names: ReadonlySet<string>;
  partition: string;
}

/** Per partition, its topic words (cut like request words). */
export function topicWords(inputs: readonly TopicInput[]): Map<string, Set<string>> {
  const stats = new Map<string, Map<string, { said: number; named: number }>>();
  for (const input of inputs) {
    let words = stats.get(input.partition);
    if (words === undefined) {
      words = new Map();
      stats.set(input.partition, words);
    }
    for (const word of input.words) {
      const entry = words.get(word) ?? { said: 0, named: 0 };
      entry.said += 1;
      if (wordForms(word).some((form) => input.names.has(form))) entry.named += 1;
      words.set(word, entry);
    }
  }
  const topics = new Map<string, Set<string>>();
  for (const [partition, words] of stats) {
    const set = new Set<string>();
    for (const [word, { said, named }] of words) if (named > 0 && named >= TOPIC_SHARE * said) set.add(word);
    topics.set(partition, set);
  }
  return topics;
}

/**
 * A word and, when it is long enough to carry one, the word without its last letter: "page" in a
 * request names the `pages/` folder, "папке" the "папка" (inflections that change the last letter).
 */
export function wordForms(word: string): string[] {
  const chars = [...word];
  return chars.length >= 5 ? [word, chars.slice(0, -1).join('')] : [word];
}
