/** Writing to the terminal: JSON for machines, sanitised single lines for people. */

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** Untrusted text (transcript wording, rules) must not carry escape sequences or span lines. */
export function displayText(s: string): string {
  return (
    s
      // eslint-disable-next-line no-control-regex
      .replace(/\u001b\[[0-9;?]*[ -/]*[@-~]/g, '')
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2066-\u2069]/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
  );
}

export function say(line: string): void {
  process.stdout.write(`${line}\n`);
}
