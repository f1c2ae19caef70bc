/**
 * Quoting for a crontab command line. cron hands the command to /bin/sh, but first turns every bare `%`
 * into a newline (even inside quotes) and `\%` into `%`; so each word is single-quoted for sh and every
 * `%` is then escaped for cron. Control characters (newlines above all) are refused outright: no quoting
 * makes them safe on one crontab line.
 */
import { UsageError } from '../core/errors.js';

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** Refuse a value that would break out of one crontab line; `label` says which value. */
export function assertNoControlCharacters(label: string, value: string): void {
  if (CONTROL.test(value))
    throw new UsageError(
      `refusing to schedule: ${label} contains a control character (${JSON.stringify(value)})`,
    );
}

/** One sh word: bare when it is plainly safe, else single-quoted with `'\''` for each quote. */
export function shellQuote(word: string): string {
  if (word !== '' && /^[A-Za-z0-9_@:,./+-]+$/.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** Escape `%` for cron (after shell quoting, because cron reads the line before the shell does). */
export function cronEscape(commandLine: string): string {
  return commandLine.replaceAll('%', '\\%');
}

/** What cron does to a command before sh sees it: `\%` → `%`; the first bare `%` ends the command. */
export function cronUnescape(commandLine: string): string {
  let out = '';
  for (let i = 0; i < commandLine.length; i++) {
    const ch = commandLine[i];
    if (ch === '\\' && commandLine[i + 1] === '%') {
      out += '%';
      i++;
    } else if (ch === '%') {
      break;
    } else {
      out += ch;
    }
  }
  return out;
}

/** Split a line we wrote back into words (single quotes and bare words only; the inverse of shellQuote). */
export function shellSplit(line: string): string[] {
  const words: string[] = [];
  let cur: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i] as string;
    if (ch === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw new Error('unterminated quote');
      cur = (cur ?? '') + line.slice(i + 1, end);
      i = end;
    } else if (ch === '\\' && i + 1 < line.length) {
      cur = (cur ?? '') + (line[i + 1] as string);
      i++;
    } else if (ch === ' ' || ch === '\t') {
      if (cur !== null) words.push(cur);
      cur = null;
    } else {
      cur = (cur ?? '') + ch;
    }
  }
  if (cur !== null) words.push(cur);
  return words;
}
