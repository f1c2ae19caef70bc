/** Writing to the terminal: JSON for machines, sanitised single lines for people. */
import { oneLine } from '../core/one-line.js';
import { plainJson, plainText } from '../core/safe-text.js';
import { cliIo } from './io.js';

/** `--json` output: strings without escape sequences (`jq -r` would print them raw). */
export function printJson(value: unknown): void {
  cliIo().stdout.write(`${plainJson(value, 2)}\n`);
}

/** Untrusted text (transcript wording, rules) must not carry escape sequences or span lines. */
export function displayText(s: string): string {
  return oneLine(s);
}

export function say(line: string): void {
  cliIo().stdout.write(`${line}\n`);
}

/**
 * Untrusted multi-line text (reports, diffs) for a terminal: escape sequences and control
 * characters are removed, newlines and tabs kept.
 */
export function terminalText(s: string): string {
  return plainText(s);
}

/** Colour only on a terminal that wants it. */
export function wantsColour(env: Readonly<Record<string, string | undefined>>): boolean {
  return cliIo().stdout.isTTY && env.NO_COLOR === undefined && env.TERM !== 'dumb';
}

export function write(text: string): void {
  cliIo().stdout.write(text);
}
