/**
 * Reading the command lines an agent ran: simple commands and their words, with the leading
 * environment assignments dropped and quotes removed. Enough for mining (which program, which
 * subcommand, which arguments); not a shell.
 */
import { boundedMemo } from '../core/memo.js';

export interface SimpleCommand {
  /** The program's base name, lower-cased (`/usr/bin/git` → `git`). */
  readonly program: string;
  /** The words after the program, quotes removed. */
  readonly args: readonly string[];
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
const MAX_COMMANDS = 16;

/**
 * The simple commands of a command line: split at unquoted `&&`, `||`, `;`, `|` and newlines.
 * Memoised: the miner reads each command line of a corpus from several stages.
 */
export const simpleCommands: (line: string) => readonly SimpleCommand[] = boundedMemo(parseCommands, 8192);

function parseCommands(line: string): SimpleCommand[] {
  const commands: SimpleCommand[] = [];
  for (const words of splitWords(line)) {
    const start = words.findIndex((word) => !ASSIGNMENT.test(word));
    if (start < 0) continue;
    const [first, ...args] = words.slice(start);
    if (first === undefined) continue;
    const program = baseName(first).toLowerCase();
    if (program === '') continue;
    commands.push({ program, args });
    if (commands.length >= MAX_COMMANDS) break;
  }
  return commands;
}

function baseName(word: string): string {
  const cut = Math.max(word.lastIndexOf('/'), word.lastIndexOf('\\'));
  return cut >= 0 ? word.slice(cut + 1) : word;
}

/** Words of each simple command; a quoted string stays one word. */
function splitWords(line: string): string[][] {
  const commands: string[][] = [];
  let words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | null = null;
  const endWord = (): void => {
    if (inWord) words.push(word);
    word = '';
    inWord = false;
  };
  const endCommand = (): void => {
    endWord();
    if (words.length > 0) commands.push(words);
    words = [];
  };
  for (let i = 0; i < line.length; i++) {
    const ch = line[i] ?? '';
    if (quote !== null) {
      if (ch === quote) quote = null;
      else word += ch;
      continue;
    }
    if (ch === '"' || ch === "'") {
      quote = ch;
      inWord = true;
      continue;
    }
    if (ch === '\n' || ch === ';') {
      endCommand();
      continue;
    }
    if (ch === '&' || ch === '|') {
      // `&&`, `||`, `|` and a trailing `&` all end a simple command.
      if (line[i + 1] === ch) i += 1;
      endCommand();
      continue;
    }
    if (ch === ' ' || ch === '\t') {
      endWord();
      continue;
    }
    word += ch;
    inWord = true;
  }
  endCommand();
  return commands;
}

/** A word that can be a subcommand: lower-case letters, digits, `_`, `+`, `-`, not a flag or a path. */
export const PLAIN_WORD = /^[a-z][a-z0-9_+-]*$/;
