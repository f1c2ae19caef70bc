/** Writing to the terminal: JSON for machines, sanitised single lines for people. */
import { oneLine } from '../core/one-line.js';

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** Untrusted text (transcript wording, rules) must not carry escape sequences or span lines. */
export function displayText(s: string): string {
  return oneLine(s);
}

export function say(line: string): void {
  process.stdout.write(`${line}\n`);
}

/**
 * Untrusted multi-line text (reports, diffs) for a terminal: escape sequences and control
 * characters are removed, newlines and tabs kept.
 */
export function terminalText(s: string): string {
  return (
    s
      // eslint-disable-next-line no-control-regex
      .replace(/\u001b\[[0-9;?]*[ -/]*[@-~]/g, '')
      // eslint-disable-next-line no-control-regex
      .replace(/\u001b[\]PX^_][\s\S]*?(?:\u0007|\u001b\\|$)/g, '')
      .replace(/\r\n/g, '\n')
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2066-\u2069]/g, '')
  );
}

/** Colour only on a terminal that wants it. */
export function wantsColour(env: Readonly<Record<string, string | undefined>>): boolean {
  return process.stdout.isTTY && env.NO_COLOR === undefined && env.TERM !== 'dumb';
}

export function write(text: string): void {
  process.stdout.write(text);
}
