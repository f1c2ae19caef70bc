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
/**
 * C0 controls but tab and newline, DEL, C1 controls, the zero-width space and BOM, line/paragraph
 * separators, and bidi marks, embeddings, overrides and isolates (they reorder what a reader sees). The
 * zero-width (non-)joiners stay: scripts and emoji need them.
 */
const CONTROL_RE =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b\u200e\u200f\u2028-\u202e\u2066-\u2069\ufeff]/g;
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

/** `value` with `clean` applied to every string in it (object keys included), for JSON documents. */
export function mapStrings<T>(value: T, clean: (s: string) => string = plainText): T {
  return walk(value, clean) as T;
}

function walk(value: unknown, clean: (s: string) => string): unknown {
  if (typeof value === 'string') return clean(value);
  if (Array.isArray(value)) return value.map((v) => walk(v, clean));
  if (value !== null && typeof value === 'object') {
    const proto = Object.getPrototypeOf(value) as unknown;
    if (proto !== Object.prototype && proto !== null) return value; // Date, Map…: left as they are
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[clean(k)] = walk(v, clean);
    return out;
  }
  return value;
}
