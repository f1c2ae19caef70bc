/**
 * Parsing a long JSON line without decoding the long strings nobody reads. A transcript line of a
 * tool call carries the tool's whole output (often twice: the model's copy and the tool's own), and
 * a harvester keeps a few hundred characters of it or none. `skimJson` jumps from quote to quote
 * (`indexOf`, native speed) and replaces each long string value by a placeholder naming its bytes;
 * the short rest is parsed as usual; the caller drops the fields it never reads and `resolveLazy`
 * decodes every placeholder left, from exactly its own bytes, so what is read is what a whole parse
 * gives.
 *
 * What the skim does not check: the inside of a string it leaves undecoded (a raw control
 * character or a bad escape there would have made the whole line invalid). A line like that is kept
 * for the fields that are read; everything outside those strings is parsed as strictly as before.
 */
import { randomBytes } from 'node:crypto';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;

/** Unforgeable within a process: a transcript written before it started cannot contain it. */
const NONCE = randomBytes(6).toString('hex');
const PREFIX = `\u0000skim:${NONCE}:`;
const PLACEHOLDER_JSON_PREFIX = `"\\u0000skim:${NONCE}:`;

export interface Skimmed {
  /** The line with each long string value replaced by a placeholder string. */
  text: string;
  /** Start and end (past the closing quote) of each replaced string, in pairs, as byte offsets. */
  ranges: number[];
}

/**
 * The line `bytes[start, end)` with string values of at least `minStringBytes` bytes replaced by
 * placeholders; null when a string is not terminated (a line cut short is parsed whole, and fails
 * there as it always did). Keys are never replaced.
 */
export function skimJson(bytes: Buffer, start: number, end: number, minStringBytes: number): Skimmed | null {
  const ranges: number[] = [];
  let text = '';
  let copied = start;
  let i = start;
  while (i < end) {
    if (bytes[i] !== QUOTE) {
      i++;
      continue;
    }
    const close = closingQuote(bytes, i, end);
    if (close === -1) return null;
    if (close + 1 - i >= minStringBytes && !isKey(bytes, close + 1, end)) {
      text += `${bytes.toString('utf8', copied, i)}${PLACEHOLDER_JSON_PREFIX}${ranges.length / 2}"`;
      ranges.push(i, close + 1);
      copied = close + 1;
    }
    i = close + 1;
  }
  if (ranges.length === 0) return { text: bytes.toString('utf8', start, end), ranges };
  return { text: text + bytes.toString('utf8', copied, end), ranges };
}

/** The quote that ends the string opened at `open`: the next one not escaped by a backslash. */
function closingQuote(bytes: Buffer, open: number, end: number): number {
  let from = open + 1;
  for (;;) {
    const q = bytes.indexOf(QUOTE, from);
    if (q === -1 || q >= end) return -1;
    let backslashes = 0;
    for (let k = q - 1; bytes[k] === BACKSLASH; k--) backslashes++;
    if (backslashes % 2 === 0) return q;
    from = q + 1;
  }
}

function isKey(bytes: Buffer, from: number, end: number): boolean {
  for (let k = from; k < end; k++) {
    const c = bytes[k];
    if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) continue;
    return c === COLON;
  }
  return false;
}

/**
 * Replaces every placeholder left in `value` (objects and arrays, in place) by its string, parsed
 * from its own bytes. Returns the value (a placeholder at the top is returned decoded).
 */
export function resolveLazy(value: unknown, bytes: Buffer, ranges: readonly number[]): unknown {
  if (typeof value === 'string') return decoded(value, bytes, ranges);
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = resolveLazy(value[i], bytes, ranges);
    return value;
  }
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const v = record[key];
    if (typeof v !== 'object' && !(typeof v === 'string' && v.startsWith(PREFIX))) continue;
    const resolved = resolveLazy(v, bytes, ranges);
    // JSON.parse makes "__proto__" an own property; assigning it would set the prototype instead.
    if (key === '__proto__')
      Object.defineProperty(record, key, {
        value: resolved,
        writable: true,
        enumerable: true,
        configurable: true,
      });
    else record[key] = resolved;
  }
  return record;
}

function decoded(value: string, bytes: Buffer, ranges: readonly number[]): string {
  if (!value.startsWith(PREFIX)) return value;
  const k = Number(value.slice(PREFIX.length));
  const start = ranges[2 * k];
  const end = ranges[2 * k + 1];
  if (start === undefined || end === undefined) return value;
  return JSON.parse(bytes.toString('utf8', start, end)) as string;
}

/** A placeholder still in a value (for a caller that checks it dropped only what it never reads). */
export function isLazy(value: unknown): boolean {
  return typeof value === 'string' && value.startsWith(PREFIX);
}
