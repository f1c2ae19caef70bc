/**
 * Function words ("the", "und", "что"), from the stopword lists of the `stopword` package (60 languages):
 * a small project's own statistics cannot tell them from words that name a kind of task, and a
 * well-kept list can. A word this project's commands use (`make`, `go`, `jest`, `tag`) is never a
 * stop word here, whatever a list says.
 */
import * as lists from 'stopword';

let union: ReadonlySet<string> | null = null;

function allStopWords(): ReadonlySet<string> {
  if (union === null) {
    const words = new Set<string>();
    for (const [code, list] of Object.entries(lists as unknown as Record<string, unknown>)) {
      if (code.startsWith('_') || !Array.isArray(list)) continue;
      for (const word of list) if (typeof word === 'string') words.add(word.toLowerCase());
    }
    union = words;
  }
  return union;
}

/** The stop words, minus the words this project's commands use. */
export function stopWords(commandWords: ReadonlySet<string> = new Set()): ReadonlySet<string> {
  const all = allStopWords();
  if (commandWords.size === 0) return all;
  const kept = new Set(all);
  for (const word of commandWords) kept.delete(word);
  return kept;
}
