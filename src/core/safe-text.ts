/**
 * Text from transcripts, tasks files and model replies is untrusted: an escape sequence in it would run
 * in the terminal of whoever `cat`s a report, `git diff`s a skill, or pipes `--json` through `jq -r`,
 * and the agent would read it as part of its skill. `plainText` is the one place that removes them;
 * every text that enters the store or a document we write goes through it (`storedText` also redacts).
 */
import { redactText } from './redact-user.js';

/* eslint-disable no-control-regex */
/** CSI (`ESC [ … final`), also the 8-bit form `U+009B … final`. */
const CSI_RE = /(?:\u001b\[|\u009b)[0-?]*[ -/]*[@-~]/g;
/** OSC, DCS, SOS, PM, APC strings (title, clipboard, hyperlinks…) up to BEL, ST or the end of the text. */
const STRING_SEQ_RE =
  /(?:\u001b[\]PX^_]|[\u0090\u0098\u009d\u009e\u009f])[\s\S]*?(?:\u0007|\u001b\\|\u009c|$)/g;
/** Any other escape: ESC, intermediates, one final character (`ESC c` reset, `ESC ( B` charset); or a bare ESC. */
const OTHER_ESC_RE = /\u001b(?:[!-/]*[0-~])?/g;
/** What `CONTROL_RE` removes beyond the C0 controls (a class body, shared with `JSON_CONTROL_RE`). */
const BEYOND_C0 = '\\u007f-\\u009f\\u200b\\u200e\\u200f\\u2028-\\u202e\\u2066-\\u2069\\ufeff';
/**
 * C0 controls but tab and newline, DEL, C1 controls, the zero-width space and BOM, line/paragraph
 * separators, and bidi marks, embeddings, overrides and isolates (they reorder what a reader sees). The
 * zero-width (non-)joiners stay: scripts and emoji need them.
 */
const CONTROL_RE = new RegExp(`[\\u0000-\\u0008\\u000b-\\u001f${BEYOND_C0}]`, 'g');
/* eslint-enable no-control-regex */

/**
 * The text without escape sequences and control characters; newlines and tabs are kept, and a carriage
 * return becomes a newline (a bare `\r` would let a later line overwrite an earlier one on screen).
 * Other control characters are removed, or replaced by `controlsAs`.
 */
export function plainText(s: string, controlsAs = ''): string {
  CONTROL_RE.lastIndex = 0;
  if (!CONTROL_RE.test(s)) return s; // most texts have nothing to remove
  CONTROL_RE.lastIndex = 0;
  return s
    .replace(STRING_SEQ_RE, '')
    .replace(CSI_RE, '')
    .replace(OTHER_ESC_RE, '')
    .replace(/\r\n?/g, '\n')
    .replace(CONTROL_RE, controlsAs);
}

/**
 * What a text becomes before it is stored: plain (see `plainText`) and with its secrets redacted (the
 * built-in redactor, then the user's `redact_patterns` of the current redaction scope).
 */
export function storedText(s: string): string {
  return redactText(plainText(s));
}

/**
 * `value` with `clean` applied to every string in it (object keys included), for JSON documents. Arrays
 * and objects in which nothing changed are returned as they are, not copied (`--json` of a large
 * result, a tasks file: almost every string is clean already).
 */
export function mapStrings<T>(value: T, clean: (s: string) => string = plainText): T {
  return walk(value, clean) as T;
}

function walk(value: unknown, clean: (s: string) => string): unknown {
  if (typeof value === 'string') return clean(value);
  if (Array.isArray(value)) return walkArray(value, clean);
  if (value !== null && typeof value === 'object') {
    const proto = Object.getPrototypeOf(value) as unknown;
    if (proto !== Object.prototype && proto !== null) return value; // Date, Map…: left as they are
    return walkObject(value as Record<string, unknown>, clean);
  }
  return value;
}

function walkArray(value: readonly unknown[], clean: (s: string) => string): unknown[] {
  let out: unknown[] | undefined;
  for (let i = 0; i < value.length; i++) {
    const v: unknown = value[i];
    const w = walk(v, clean);
    if (out === undefined && w !== v) out = value.slice(0, i);
    out?.push(w);
  }
  return out ?? (value as unknown[]);
}

function walkObject(value: Record<string, unknown>, clean: (s: string) => string): Record<string, unknown> {
  const entries = Object.entries(value);
  let out: Record<string, unknown> | undefined;
  for (let i = 0; i < entries.length; i++) {
    const [k, v] = entries[i] as [string, unknown];
    const ck = clean(k);
    const w = walk(v, clean);
    if (out === undefined && (ck !== k || w !== v)) {
      out = {};
      for (const [pk, pv] of entries.slice(0, i)) out[pk] = pv;
    }
    // An own `__proto__` (JSON.parse makes one) stays a property; assigning it would set the prototype.
    if (out !== undefined)
      Object.defineProperty(out, ck, { value: w, enumerable: true, writable: true, configurable: true });
  }
  return out ?? value;
}

/**
 * What `JSON.stringify` leaves of a character `CONTROL_RE` matches: C0 controls become `\b`, `\f`, `\r`
 * or `\u00XX` (tab and newline, `\t` and `\n`, are kept by `plainText` anyway); the rest stay raw. Only
 * an odd run of backslashes starts an escape: `\\b` is a backslash and a `b` (a regex's word boundary).
 */
const JSON_CONTROL_RE = new RegExp(`[${BEYOND_C0}]|(?<!\\\\)(?:\\\\\\\\)*\\\\(?:[bfr]|u00[01])`);

/**
 * `JSON.stringify(mapStrings(value), null, indent)`, byte for byte, without walking `value` when its
 * JSON shows nothing `plainText` would remove (a large `--json` result is almost always clean).
 */
export function plainJson(value: unknown, indent?: number): string {
  const fast = JSON.stringify(value, null, indent);
  if (fast === undefined || !JSON_CONTROL_RE.test(fast)) return fast;
  return JSON.stringify(mapStrings(value), null, indent);
}
