/**
 * Function words ("the", "und", "что"), from the stopword lists of the `stopword` package (60 languages):
 * a small project's own statistics cannot tell them from words that name a kind of task, and a
 * well-kept list can. A word this project's commands use (`make`, `go`, `jest`, `tag`) is never a
 * stop word here, whatever a list says: Polish "jest" is the test runner to this user.
 */
import * as lists from 'stopword';
import { PLAIN_WORD, simpleCommands } from './shell-words.js';

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

/** The programs and subcommand words of a project's command lines (`pnpm exec jest` → pnpm, exec, jest). */
export function commandWordsOf(lines: Iterable<string>): Set<string> {
  const words = new Set<string>();
  for (const line of lines) {
    for (const { program, args } of simpleCommands(line)) {
      words.add(program);
      for (const arg of args.slice(0, 2)) if (PLAIN_WORD.test(arg)) words.add(arg.toLowerCase());
    }
  }
  return words;
}
