/**
 * The redaction stages that look at a secret's own shape: PEM blocks, prefixed tokens (needle and stem
 * rules from `redact-patterns.ts`), AWS key pairs, URL passwords, Slack webhooks and Azure SAS.
 */
import { NEEDLE_RULES, STEM_RULES, isPlaceholder, isRedacted } from './redact-patterns.js';
import { stickyEdit } from './redact-edits.js';
import type { Edit, Tally } from './redact-edits.js';

// ---------------------------------------------------------------------------------------------------
// Distinctive token shapes

const PEM_BEGIN_RE = /-----BEGIN[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/y;
const PEM_END_RE = /-----END[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/y;
/** Body lines of a PEM whose END line is missing (clipped text); newlines may be JSON-escaped. */
const PEM_BODY_RE =
  /(?:(?:\r?\n|\\r\\n|\\n)(?:[A-Za-z0-9+/=]{1,128}|(?:Proc-Type|DEK-Info|Comment):[^\r\n\\]{0,200}))*/y;

/** `-----BEGIN … PRIVATE KEY-----` through its END line (at most 64 KiB on), or through its body lines. */
function redactPem(text: string, t: Tally): string {
  const edits: Edit[] = [];
  let cursor = 0;
  let end = -1; // the first `-----END` at or after the current BEGIN (only moves forward: linear)
  for (
    let i = text.indexOf('-----BEGIN');
    i !== -1;
    i = text.indexOf('-----BEGIN', Math.max(i + 1, cursor))
  ) {
    PEM_BEGIN_RE.lastIndex = i;
    const begin = PEM_BEGIN_RE.exec(text);
    if (begin === null) continue;
    const from = i + begin[0].length;
    if (end !== -2 && end < from) end = text.indexOf('-----END', from);
    if (end === -1) end = -2; // none left
    PEM_END_RE.lastIndex = end;
    const close = end >= 0 && end - from <= 65536 ? PEM_END_RE.exec(text) : null;
    if (close !== null) cursor = end + close[0].length;
    else {
      PEM_BODY_RE.lastIndex = from;
      cursor = from + (PEM_BODY_RE.exec(text)?.[0].length ?? 0);
    }
    edits.push({ start: i, end: cursor, kind: 'private-key' });
  }
  return t.apply(text, edits);
}

/** Stems keyed by the two characters ending them, so visiting a `_`/`-` costs one map lookup. */
const pairKey = (s: string, i: number): number => s.charCodeAt(i - 1) * 65536 + s.charCodeAt(i);
const STEMS = new Map<number, { stem: string; rule: (typeof STEM_RULES)[number] }[]>();
const STEM_ENDS = new Uint8Array(128); // characters that end a stem just before its `_`/`-`
for (const rule of STEM_RULES) {
  for (const stem of rule.stems) {
    const key = pairKey(stem, stem.length - 1);
    STEMS.set(key, [...(STEMS.get(key) ?? []), { stem, rule }]);
    STEM_ENDS[stem.charCodeAt(stem.length - 2)] = 1;
  }
}

export function redactShapes(text: string, t: Tally): string {
  let out = text.includes('-----BEGIN') ? redactPem(text, t) : text;
  for (const { kind, needles, re } of NEEDLE_RULES) {
    if (needles.some((n) => out.includes(n))) out = out.replace(re, () => t.mark(kind));
  }
  const edits: Edit[] = [];
  for (const pivot of ['_', '-']) {
    for (let i = out.indexOf(pivot, 1); i !== -1; i = out.indexOf(pivot, i + 1)) {
      if (STEM_ENDS[out.charCodeAt(i - 1)] !== 1) continue;
      for (const { stem, rule } of STEMS.get(pairKey(out, i)) ?? []) {
        const start = i + 1 - stem.length;
        if (start < 0 || !out.startsWith(stem, start)) continue;
        const e = stickyEdit(rule.re, out, start, ([m = '']) =>
          rule.valid === undefined || rule.valid(m) ? [rule.kind, '', ''] : null,
        );
        if (e !== null) edits.push(e);
      }
    }
  }
  return t.apply(out, edits);
}

// AWS: key ids by shape; a secret key is a 40-char base64 run within 300 characters of a key id (or
// after a secret-key name, see the named rule).
// Access key ids: `AKIA`, `ASIA` (temporary) and the legacy `A3T…`. The unique ids of users, roles and
// policies (`AIDA`, `AROA`, `ANPA`…) name a principal and grant nothing: they stay, as account ids do.
const AWS_ID_RE = /(?<![A-Za-z0-9])(?:AKIA|ASIA|A3T[A-Z0-9])[A-Z0-9]{16}(?![A-Za-z0-9])/g;
export const AWS_ID_NEEDLES = ['IA', 'A3T'];
const AWS_SECRET_RUN_RE = /(?<![A-Za-z0-9/+=])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])/g;
const isAwsSecretShape = (s: string): boolean => /[A-Z]/.test(s) && /[a-z]/.test(s) && /[\d+/]/.test(s);

export function redactAwsPairs(text: string, t: Tally): string {
  const edits: Edit[] = [];
  let scanned = 0; // where the next window's scan may start: overlapping windows are scanned once
  for (const id of text.matchAll(AWS_ID_RE)) {
    edits.push({ start: id.index, end: id.index + id[0].length, kind: 'aws-access-key-id' });
    AWS_SECRET_RUN_RE.lastIndex = Math.max(scanned, id.index - 300);
    for (;;) {
      const m = AWS_SECRET_RUN_RE.exec(text);
      scanned = m === null ? text.length : m.index;
      if (m === null || m.index > id.index + 300) break;
      if (isAwsSecretShape(m[0])) edits.push({ start: m.index, end: m.index + 40, kind: 'aws-secret-key' });
    }
  }
  return t.apply(text, edits);
}

// ---------------------------------------------------------------------------------------------------
// URLs and Azure SAS

// The user may hold `@` (`admin@server` on Azure databases); the password `#` and `?`, which people
// write unescaped (a password ends at the first `@`, as a URL parser reads it).
const URL_PASSWORD_RE = /(:\/\/[^\s:/?#'"`<>[\]]{0,128}:)([^\s/@'"`<>]{1,256})(?=@)/y;
/** GitHub's fixed password after a token given as the user (`https://<token>:x-oauth-basic@github.com`). */
const TOKEN_AS_USER_RE = /(:\/\/)[^\s:/?#'"`<>[\]]{1,128}(:x-oauth-basic)(?=@)/iy;
const AZURE_SAS_RE = /(\bSharedAccessSignature[ \t]{0,3}=[ \t]{0,3})([^\s;"'`]{10,4096})/g;
const SAS_SIG_RE = /((?<![A-Za-z0-9_.-])sig=)[A-Za-z0-9%+/_-]{10,512}={0,2}/g;

const SLACK_WEBHOOK_RE = /(hooks\.slack\.com\/(?:services|workflows|triggers)\/)[A-Za-z0-9_/-]{20,}/y;

export function redactUrlsAndSas(text: string, t: Tally): string {
  const edits: Edit[] = [];
  let atSign = -1; // the first `@` after the current `://` (only moves forward: linear)
  for (let i = text.indexOf('://'); i !== -1; i = text.indexOf('://', i + 3)) {
    const slack = text.startsWith('hooks.slack.com/', i + 3);
    if (atSign !== -2 && atSign < i) atSign = text.indexOf('@', i);
    if (atSign === -1) atSign = -2; // none left
    if (!slack && (atSign < 0 || atSign - i > 400)) continue;
    const e = slack
      ? stickyEdit(SLACK_WEBHOOK_RE, text, i + 3, ([, head = '']) => ['slack-webhook', head, ''])
      : (text.charCodeAt(atSign - 14) === 58 && // `:`, then try the rare `:x-oauth-basic@` form
          stickyEdit(TOKEN_AS_USER_RE, text, i, ([, head = '', tail = '']) => [
            'github-token',
            head,
            tail,
          ])) ||
        stickyEdit(URL_PASSWORD_RE, text, i, ([, head = '', pw = '']) =>
          isRedacted(pw) || isPlaceholder(pw) ? null : ['url-password', head, ''],
        );
    if (e !== null) edits.push(e);
  }
  let out = t.apply(text, edits);
  if (out.includes('SharedAccessSignature')) {
    out = out.replace(AZURE_SAS_RE, (m: string, head: string, v: string) =>
      isRedacted(v) || isPlaceholder(v) ? m : head + t.mark('azure-sas'),
    );
  }
  if (out.includes('&sig=') || out.includes('?sig=') || out.startsWith('sig=')) {
    out = out.replace(SAS_SIG_RE, (_m: string, head: string) => head + t.mark('azure-sas'));
  }
  return out;
}
