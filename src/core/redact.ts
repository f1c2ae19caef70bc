/**
 * Secret redaction, applied to every text before it is stored: `redactSecrets(text)`, or
 * `redactSecretsWithStats(text)` for `{ text, count, kinds }`. A superset of the reference's kinds
 * (sleep-spec §2.15, harvest-spec §6.5). A secret becomes `[REDACTED:<kind>]`; for named values
 * (`password=…`, `Authorization: Bearer …`, `scheme://user:…@host`) only the value is replaced, so the
 * name, quotes, user and host stay readable. Values already `[REDACTED…` are left alone, so redacting
 * twice is the same as once.
 *
 * Stages, most specific first: PEM blocks; token shapes (JWT, `sk-`, `ghp_`, `AKIA`…); AWS key pairs;
 * URL passwords and Azure SAS; keyword-anchored values (headers, connection strings, assignments,
 * prose). Speed: no stage runs a big alternation over the whole text. Shape rules are gated by
 * `includes` on needles that start with a rare character, `stem_`/`stem-` shapes are found by visiting
 * each `_` and `-`, and keyword rules run as sticky patterns only where `indexOf` finds their keyword
 * followed by a plausible separator. Every repetition is bounded or runs over one character class with
 * a disjoint follower, and overlapping attempts are not retried, so the cost stays linear. The value
 * tests and the token-shape tables are in `redact-patterns.ts`, the shape stages in `redact-shapes.ts`.
 */

import {
  DOTTED_RE,
  PATH_RE,
  isPlaceholder,
  isRedacted,
  looksRandom,
  shouldRedactValue,
} from './redact-patterns.js';
import { Tally, stickyEdit } from './redact-edits.js';
import type { Edit, Plan } from './redact-edits.js';
import { AWS_ID_NEEDLES, redactAwsPairs, redactShapes, redactUrlsAndSas } from './redact-shapes.js';

// prettier-ignore
export const SECRET_KINDS = [
  'private-key', 'jwt', 'anthropic-key', 'openai-key', 'github-token', 'gitlab-token', 'aws-access-key-id',
  'aws-secret-key', 'slack-token', 'slack-webhook', 'google-api-key', 'google-oauth', 'stripe-key',
  'huggingface-token', 'sendgrid-key', 'npm-token', 'pypi-token', 'url-password', 'authorization',
  'shopify-token', 'linear-key', 'onepassword-token', 'bearer-token', 'azure-storage-key', 'azure-sas',
  'db-password', 'password', 'token', 'api-key', 'secret',
] as const;

export type SecretKind = (typeof SECRET_KINDS)[number];

export interface RedactionResult {
  text: string;
  /** Number of values replaced. */
  count: number;
  /** Replacements per kind (kinds with none are absent). */
  kinds: Partial<Record<SecretKind, number>>;
}

// ---------------------------------------------------------------------------------------------------
// Keyword-anchored values: headers, Azure keys, AWS named secrets, assignments, prose. Each pattern is
// sticky and tried only where its keyword starts.

const AUTH_SCHEMES = 'bearer|basic|token|digest|negotiate|ntlm|apikey|api-key|key|sso-key';
const AUTH_HEADER_RE = new RegExp(
  String.raw`(authorization\\?["']?[ \t]{0,3}[:=][ \t]{0,3}\\?["']?)((?:(?:${AUTH_SCHEMES})[ \t]{1,3})?)([^\s"'\x60<>\\,;|()[\]{}]{4,8192})`,
  'iy',
);
const AUTH_SCHEME_ONLY_RE = new RegExp(`^(?:${AUTH_SCHEMES})$`, 'i');
const BEARER_RE = /(?<![A-Za-z0-9])(bearer[ \t]{1,3})([A-Za-z0-9._~+/-]{16,8192}=*)/iy;
const AZURE_KEY_RE = /((?:AccountKey|SharedAccessKey)[ \t]{0,3}=[ \t]{0,3})[A-Za-z0-9+/]{16,}={0,2}/iy;
const azureKey = ([, head = '']: RegExpExecArray): Plan => ['azure-storage-key', head, ''];

/** `Authorization: <scheme> <v>`; without a scheme, only a header line or a quoted value counts. */
function tryAuthHeader(all: string, at: number): Edit | null {
  return stickyEdit(AUTH_HEADER_RE, all, at, ([m, head = '', scheme = '', v = '']) => {
    if (isRedacted(v) || isPlaceholder(v) || AUTH_SCHEME_ONLY_RE.test(v)) return null;
    const next = all.charAt(at + m.length);
    const literal = /["']$/.test(head) || next === '' || next === '\n' || next === '\r';
    if (scheme === '' && !(head.includes(':') && shouldRedactValue(v, { literal, next }))) return null;
    return ['authorization', head + scheme, ''];
  });
}

/** `<name ending in key|token|secret|password…><quote?> <:|=|:=|=>> <value>`; the name is read backwards. */
const NAMED_RE = new RegExp(
  String.raw`(key|token|secret|passw(?:or)?d|passphrase|pass|pwd)(?![A-Za-z0-9])` +
    String.raw`(\\?["']?[ \t]{0,3}(?::=|=>|=(?!=)|:(?![:/]))[ \t]{0,3})` +
    String.raw`(\\?"[^"\\\n]{0,512}(?:\\?")?|'[^'\n]{0,512}'?|\x60[^\x60\n]{0,512}\x60?|\{[^}\n]{0,512}\}?|(?:[^\s"'\x60,;\\()[\]{}<>&]|&(?![A-Za-z_][\w.-]{0,64}=)){1,512})`,
  'iy',
);
const NAME_CHAR_RE = /[A-Za-z0-9_.$-]/;
const SECRET_KEY_NAMES = (
  'apikey privatekey secretkey accesskey accountkey signingkey encryptionkey masterkey authkey sharedkey ' +
  'subscriptionkey appkey clientkey'
).split(' ');

function tryNamed(all: string, at: number): Edit | null {
  NAMED_RE.lastIndex = at;
  const match = NAMED_RE.exec(all);
  if (match === null) return null;
  const [m, kw = '', sep = '', raw = ''] = match;
  let start = at;
  while (start > 0 && at - start < 64 && NAME_CHAR_RE.test(all.charAt(start - 1))) start -= 1;
  const name = all.slice(start, at) + kw;
  const compact = name.toLowerCase().replace(/[^a-z0-9]/g, '');
  const k = kw.toLowerCase();
  if (k === 'key' && !SECRET_KEY_NAMES.some((s) => compact.endsWith(s))) return null;
  if ((k === 'pass' || k === 'pwd') && name !== kw && !'_-.'.includes(all.charAt(at - 1))) return null;
  const after = all.charAt(at + m.length);
  let prev = start - 1;
  while (prev >= 0 && (all[prev] === ' ' || all[prev] === '\t')) prev -= 1;
  // A connection string's `k=v;k=v` (not a statement's `;`): `;` just before, or `;Next=` right after.
  const semi = (all[start - 1] === ';' || (all[start - 1] === ' ' && all[start - 2] === ';')) && sep === '=';
  const semicolon = semi || /^;[A-Za-z][A-Za-z ]{0,30}=/.test(all.slice(at + m.length, at + m.length + 34));
  if (name === 'PWD' && !semicolon) return null; // the shell's working directory
  if (compact === 'pwd' && /^(?:~|\.{0,2}\/)/.test(raw)) return null; // a path, not a password
  const passwordish = k.startsWith('pass') || k === 'pwd';

  const open = /^\\?["'\x60{]/.exec(raw)?.[0] ?? '';
  const q = open.slice(-1);
  const closeQ = q === '{' ? '}' : q;
  let inner = raw.slice(open.length);
  let close = '';
  if (q !== '' && inner.endsWith(closeQ)) {
    close = open.length === 2 && inner.endsWith('\\' + closeQ) ? '\\' + closeQ : closeQ;
    inner = inner.slice(0, inner.length - close.length);
  }
  const lineStart = prev < 0 || all[prev] === '\n' || all[prev] === '\r';
  const literal =
    semicolon ||
    (sep === '=' && (lineStart || /^[A-Z][A-Z0-9_]*$/.test(name))) || // .env, shell, properties
    (sep.trimEnd().endsWith(':') && (after === '' || after === '\n' || after === '\r')) || // YAML
    all[start - 1] === '?' ||
    all[start - 1] === '&' ||
    name.startsWith('-');
  // A backticked value is code (markdown, JS templates): judged like a bare word, unless it has blanks.
  if (q === '\x60' && /\s/.test(inner)) return null;
  const ctx = {
    quoted: q === '"' || q === "'",
    braced: q === '{',
    literal,
    semicolon,
    passwordish,
    next: after,
  };
  if (!shouldRedactValue(inner, ctx)) return null;
  let kind: SecretKind = 'secret';
  if (passwordish)
    kind = semicolon && (compact === 'password' || compact === 'pwd') ? 'db-password' : 'password';
  else if (k === 'token') kind = 'token';
  else if (compact.endsWith('secretaccesskey') || /^aws.*secret/.test(compact)) kind = 'aws-secret-key';
  else if (k === 'key' && compact.endsWith('apikey')) kind = 'api-key';
  return { start: at, end: at + m.length, kind, head: kw + sep + open, tail: close };
}

/** `token abc123`, `the password is hunter2`, `--api-key XYZ…`: a keyword, a blank, a secret-looking word. */
const PROSE_RE =
  /((?<=\b(?:access|auth)[ _-]?)token|\btoken|\bpassw(?:or)?d|\bpassphrase|\bsecret|(?<=\bapi[ _-]?)key)([ \t]{1,3}(?:(?:is|was)[ \t]{1,3})?["'\x60]?)([^\s"'\x60]{6,256})/iy;
const NOT_SECRET_WORD_RE =
  /^(?:\/|\.{1,2}\/|~\/|[A-Za-z]:\\|[a-z][a-z0-9+.-]*:\/\/|v?\d+(?:\.\d+)+|(?:gpt|claude|gemini|llama|mistral|o\d|cl\d|p50k|r50k|utf|sha|md5|base64|x86|arm64|win32|es20)[\w.-]*$)/i;

const PROSE_KINDS: Partial<Record<string, SecretKind>> = { key: 'api-key', token: 'token' };

function tryProse(all: string, at: number): Edit | null {
  return stickyEdit(PROSE_RE, all, at, ([, kw = '', gap = '', raw = '']) => {
    const trail = /[.,;:!?)\]}>]+$/.exec(raw)?.[0] ?? '';
    const v = raw.slice(0, raw.length - trail.length);
    if (v.length < 6 || isRedacted(v) || isPlaceholder(v) || NOT_SECRET_WORD_RE.test(v)) return null;
    if (/[<>()[\]{}$|]|=>/.test(v) || DOTTED_RE.test(v) || PATH_RE.test(v)) return null; // code
    const mixed = /\d/.test(v) && /[A-Za-z]/.test(v) && !/^\d+(?:[kmgb]|ms|px)?(?:[-_.]|$)/i.test(v);
    const named = /secret|passw|token/i.test(v) && /^[a-z0-9]+(?:[-_][a-z0-9]+)+$/.test(v); // `local-secret`
    if (!mixed && !named && !looksRandom(v)) return null;
    const k = kw.toLowerCase();
    const kind = k.startsWith('pass') ? 'password' : (PROSE_KINDS[k] ?? 'secret');
    return [kind, kw + gap, trail];
  });
}

/**
 * Where keywords can start, searched as written (no lower-cased copy to allocate): each keyword in its
 * lower, Capitalized and UPPER forms (camelCase `apiKey`, `accessToken` included). `back` is where the
 * keyword starts relative to the needle (`ken` is rarer than `tok`, `zation` than `authori`). Lower-case
 * "bearer" is left to the Authorization-header rule.
 */
const NEEDLES: readonly { needle: string; back: number; word: string }[] = [
  ...['key', 'Key', 'KEY'].map((needle) => ({ needle, back: 0, word: 'key' })),
  ...['ken', 'KEN'].map((needle) => ({ needle, back: 2, word: 'token' })),
  ...['cret', 'CRET'].map((needle) => ({ needle, back: 2, word: 'secret' })),
  ...['pass', 'Pass', 'PASS'].map((needle) => ({ needle, back: 0, word: 'pass' })),
  ...['pwd', 'Pwd', 'PWD'].map((needle) => ({ needle, back: 0, word: 'pwd' })),
  ...['zation', 'ZATION'].map((needle) => ({ needle, back: 7, word: 'authorization' })),
  ...['Bearer', 'BEARER'].map((needle) => ({ needle, back: 0, word: 'bearer' })),
];

/** Whether `s` has the lower-case ASCII `word` at `at`, in any case. */
function hasWordAt(s: string, word: string, at: number): boolean {
  if (at < 0 || at + word.length > s.length) return false;
  for (let i = 0; i < word.length; i++) if ((s.charCodeAt(at + i) | 32) !== word.charCodeAt(i)) return false;
  return true;
}

const isBlank = (c: number): boolean => c === 32 || c === 9;

/** After a keyword ending at `end`: `name` if `[\\]["'] [ \t]{0,3} [:=]` follows, `prose` if a word that could be a secret does. */
function followerAt(s: string, end: number): 'name' | 'prose' | null {
  let i = end;
  if (s.charCodeAt(i) === 92) i += 1; // backslash before an escaped quote
  const q = s.charCodeAt(i);
  if (q === 34 || q === 39) i += 1;
  const blanksFrom = i;
  while (i - blanksFrom < 3 && isBlank(s.charCodeAt(i))) i += 1;
  const c = s.charCodeAt(i);
  if (c === 58 || c === 61) return 'name';
  if (i === end || !isBlank(s.charCodeAt(end))) return null;
  // Prose needs a word of 6+ characters with a digit, a separator, or 16+ characters.
  let j = i;
  if (s.startsWith('is ', j)) j += 3;
  else if (s.startsWith('was ', j)) j += 4;
  const from = j;
  let marked = false;
  for (; j < s.length && j - from < 256; j++) {
    const d = s.charCodeAt(j);
    if (d <= 32) break;
    if ((d >= 48 && d <= 57) || d === 45 || d === 95 || d === 46) marked = true;
  }
  return j - from >= 6 && (marked || j - from >= 16) ? 'prose' : null;
}

/** The edit for the keyword `word` starting at `at`, if any rule redacts there. */
function attemptAt(all: string, at: number, word: string): Edit | null {
  if (word === 'authorization') return tryAuthHeader(all, at);
  if (word === 'bearer') {
    return stickyEdit(BEARER_RE, all, at, ([, head = '', v = '']) =>
      looksRandom(v) && !isPlaceholder(v) ? ['bearer-token', head, ''] : null,
    );
  }
  for (const prefix of word === 'key' ? ['account', 'sharedaccess'] : []) {
    const from = at - prefix.length;
    const e = hasWordAt(all, prefix, from) ? stickyEdit(AZURE_KEY_RE, all, from, azureKey) : null;
    if (e !== null) return e;
  }
  const next = followerAt(all, keywordEnd(all, at, word));
  if (next === null) return null;
  return next === 'name' ? tryNamed(all, at) : tryProse(all, at);
}

/** Characters that may follow a keyword for some rule to apply (quote, backslash, blank, `:`, `=`). */
const FOLLOWS = new Uint8Array(128);
for (const c of '"\'\\ \t:=') FOLLOWS[c.charCodeAt(0)] = 1;

function keywordEnd(s: string, at: number, word: string): number {
  const end = at + word.length;
  if (word !== 'pass') return end;
  for (const rest of ['word', 'wd', 'phrase']) if (hasWordAt(s, rest, end)) return end + rest.length;
  return end;
}

function redactKeywords(text: string, t: Tally): string {
  // Attempts run needle by needle; `apply` orders the edits and drops any overlapping an earlier one.
  const edits: Edit[] = [];
  for (const { needle, back, word } of NEEDLES) {
    let skip = 0; // within one needle, positions inside an edit are not retried (keeps it linear)
    for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) {
      const at = i - back;
      if (at < skip || (back !== 0 && !hasWordAt(text, word, at))) continue;
      if (FOLLOWS[text.charCodeAt(keywordEnd(text, at, word))] !== 1) continue;
      const e = attemptAt(text, at, word);
      if (e === null) continue;
      edits.push(e);
      skip = e.end;
    }
  }
  return t.apply(text, edits);
}

// ---------------------------------------------------------------------------------------------------
// Entry points

export function redactSecretsWithStats(text: string): RedactionResult {
  const t = new Tally();
  let out = redactShapes(text, t);
  if (AWS_ID_NEEDLES.some((n) => out.includes(n))) out = redactAwsPairs(out, t);
  out = redactKeywords(redactUrlsAndSas(out, t), t);
  return { text: out, count: t.count, kinds: t.kinds };
}

export function redactSecrets(text: string): string {
  return redactSecretsWithStats(text).text;
}
