/**
 * The tables and value tests `redact.ts` applies: which values look generated rather than written,
 * which are placeholders, paths or code, and the distinctive token shapes (needle and stem rules).
 */
import type { SecretKind } from './redact.js';

// ---------------------------------------------------------------------------------------------------
// Value heuristics

export const isRedacted = (v: string): boolean => v.startsWith('[REDACTED');

/** `$VAR`, `${VAR}`, `$(cmd)`, `%s`, `{{x}}`, `<your-key>`, `***`, `xxxx`, `...`, `your_api_key`, `!Ref X`. */
const PLACEHOLDER_RE = /^(?:\$|![A-Za-z]+$|%\(?[A-Za-z_]|\{\{|<[^>]*>?$|\*{3,}$|x{4,}$|\.\.\.|…|your[_-])/i;
export const isPlaceholder = (v: string): boolean => PLACEHOLDER_RE.test(v);

/**
 * Generated rather than written: 16+ characters that split (at case and digit changes) into many
 * 1-2 character pieces. `getUserAccessToken` or `parseJSONToHTTPResponse` split into words; a random
 * `bKmuLjbLDDwrBIURHKWE…` into `b Kmu Ljb LD Dwr BIURHKWE Og Zm O Szoq…`.
 */
function randomish(s: string): boolean {
  if (s.length < 16) return false;
  const pieces = s.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+/g) ?? [];
  const short = pieces.filter((p) => p.length <= 2).length;
  return short >= 3 && short * 3 >= pieces.length;
}

/** A token body that is not a word: letters with digits, or random-looking letters. */
export const looksRandom = (s: string): boolean => (/\d/.test(s) ? /[A-Za-z]/.test(s) : randomish(s));

/** Words that are code (types, literals, keywords) when they follow `name:` / `name =`. */
const CODE_WORDS = new Set(
  (
    'null nil none undefined nan true false yes no on off string str number int integer float double ' +
    'bool boolean bytes byte buffer any unknown object void never optional required secretstr text ' +
    'varchar char env os self this new await function lambda typeof get set const let var return ' +
    'if else def class static public private protected readonly default empty token secret password ' +
    'passwd pwd pass key apikey credentials option maybe value example'
  ).split(' '),
);
const STEM_RE = /pass|pwd|token|secret|key|cred|auth/i;
const IDENT_RE = /^[A-Za-z_$][\w$]*$/;
export const DOTTED_RE = /^[A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*)+!?$/; // `process.env.X!`

/** A path (`/etc/x/key.pem`, `~/.ssh/id`, `./secrets.json`) or a comment opener names a file, not a secret. */
export const PATH_RE = /^(?:(?:~|\.{1,2})?\/(?:[\w.-]+\/)+[\w.-]*|(?:~|\.{1,2})\/[\w.-]*|\/[/*].*)$/;

export interface ValueContext {
  quoted?: boolean;
  braced?: boolean;
  /**
   * Where a bare word is a literal rather than an identifier: `.env`/shell (`FOO_TOKEN=v`, `k=v` at a
   * line start), YAML (`k: v⏎`), query strings (`?token=v`), flags (`--password=v`), `;` lists.
   */
  literal?: boolean;
  /** `;`-separated `k=v` list (connection string). */
  semicolon?: boolean;
  passwordish?: boolean;
  /** The character after the value. */
  next?: string;
}

/** Words a switch takes. A value made of them (`true`, `1/true`, `0|1`, `on,off`) sets or lists a mode. */
const CHOICE_WORDS = new Set(
  'true false yes no on off y n enabled disabled enable disable auto none null'.split(' '),
);
const isChoice = (v: string): boolean =>
  v.split(/[/|,]/).every((w) => CHOICE_WORDS.has(w.toLowerCase()) || /^\d$/.test(w));

export function shouldRedactValue(v: string, c: ValueContext): boolean {
  if (v.length < 3 || isRedacted(v) || isPlaceholder(v) || isChoice(v)) return false;
  if (PATH_RE.test(v) && !randomish(v.replace(/[^A-Za-z0-9]/g, ''))) return false; // not `/K7MD/ENG…`
  if (c.quoted === true) {
    return !/\s/.test(v) && !v.includes('${') && !/^\{[\w.]*\}$/.test(v) && !CODE_WORDS.has(v.toLowerCase());
  }
  if (c.braced === true) return c.semicolon === true;
  if (/^[+-]?\d+(?:\.\d+)?$/.test(v)) return c.passwordish === true; // counts and limits, unless a PIN
  if (CODE_WORDS.has(v.toLowerCase()) || DOTTED_RE.test(v)) return false;
  const next = c.next ?? '';
  if (next !== '' && '([<{'.includes(next)) return false; // call, index, generic, JSX
  // In code a bare value is an identifier or expression (literal secrets are quoted there).
  if (c.literal !== true && IDENT_RE.test(v) && !randomish(v)) {
    return /\d/.test(v) && !v.includes('$') && !STEM_RE.test(v);
  }
  return true;
}

// ---------------------------------------------------------------------------------------------------
// Distinctive token shapes

export const NB = '(?<![A-Za-z0-9_-])'; // no token character before

/** Rules run over the whole text when it includes a needle (each starts with a rare character). */
export const NEEDLE_RULES: readonly { kind: SecretKind; needles: readonly string[]; re: RegExp }[] = [
  {
    kind: 'jwt',
    needles: ['yJ'],
    re: new RegExp(`${NB}eyJ[A-Za-z0-9_-]{5,8192}\\.[A-Za-z0-9_-]{8,65536}\\.[A-Za-z0-9_-]{0,8192}`, 'g'),
  },
  { kind: 'google-api-key', needles: ['Iza'], re: new RegExp(`${NB}AIza[0-9A-Za-z_-]{20,}`, 'g') },
  { kind: 'google-oauth', needles: ['29.'], re: new RegExp(`${NB}ya29\\.[A-Za-z0-9_-]{20,}`, 'g') },
  {
    kind: 'sendgrid-key',
    needles: ['SG.'],
    re: new RegExp(`${NB}SG\\.[A-Za-z0-9_-]{16,}\\.[A-Za-z0-9_-]{16,}`, 'g'),
  },
];

/**
 * A token body after an `sk-` prefix: its longest `-`/`_`-free run has 10+ characters and is digits, or
 * letters with digits, or random letters (so `sk-2024-annual-report-final-v2` stays).
 */
function isKeyBody(m: string): boolean {
  const run = m
    .slice(3)
    .split(/[-_]/)
    .reduce((a, b) => (b.length > a.length ? b : a), '');
  return run.length >= 10 && (/^\d+$/.test(run) || looksRandom(run));
}

/**
 * A body that may hold `_` is a token only if it mixes upper case, lower case and digits (of `length`
 * characters, when given): `npm_package_dev_dependencies_typescript` is a name, not a token.
 */
function randomWithUnderscores(body: string, length?: number): boolean {
  if (!body.includes('_')) return true;
  return (
    (length === undefined || body.length === length) &&
    /[A-Z]/.test(body) &&
    /[a-z]/.test(body) &&
    /\d/.test(body)
  );
}

/** Letters and digits after `hf_` in a Hugging Face access token. */
export const HF_TOKEN_BODY = 34;

/** Rules tried (sticky) where one of their `stem_` / `stem-` prefixes occurs. */
export const STEM_RULES: readonly {
  kind: SecretKind;
  stems: readonly string[];
  re: RegExp;
  valid?: (m: string) => boolean;
}[] = [
  {
    kind: 'slack-token',
    stems: ['xoxa-', 'xoxb-', 'xoxo-', 'xoxp-', 'xoxr-', 'xoxs-', 'xoxe-', 'xapp-'],
    re: new RegExp(`${NB}(?:xox[abopsre]-[A-Za-z0-9-]{10,}|xapp-\\d-[A-Za-z0-9-]{10,})`, 'y'),
  },
  { kind: 'google-oauth', stems: ['GOCSPX-'], re: new RegExp(`${NB}GOCSPX-[A-Za-z0-9_-]{20,}`, 'y') },
  { kind: 'anthropic-key', stems: ['sk-ant-'], re: new RegExp(`${NB}sk-ant-[A-Za-z0-9_-]{20,}`, 'y') },
  {
    kind: 'openai-key',
    stems: ['sk-'],
    re: new RegExp(`${NB}sk-(?!ant-)[A-Za-z0-9_-]{10,}`, 'y'),
    valid: isKeyBody, // `sk-` and 10 or more, as the reference; not a `/sk-2024-annual-report` slug
  },
  {
    kind: 'github-token',
    stems: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_'],
    re: /(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9_]{20,255}|github_pat_[A-Za-z0-9_]{20,255})/y,
    valid: (m) => m.startsWith('github_pat_') || randomWithUnderscores(m.slice(4), 36),
  },
  {
    kind: 'gitlab-token',
    stems: ['glpat-', 'gldt-', 'glrt-', 'glptt-', 'glcbt-', 'glft-', 'gloas-', 'glsoat-'],
    re: new RegExp(`${NB}gl[a-z]{2,4}-[A-Za-z0-9_-]{20,255}(?:\\.[A-Za-z0-9_-]{2,64}){0,3}`, 'y'),
  },
  {
    kind: 'stripe-key',
    stems: ['sk_live_', 'rk_live_', 'sk_test_', 'rk_test_', 'whsec_'],
    re: /(?<![A-Za-z0-9_])(?:[sr]k_(?:live|test)_[A-Za-z0-9]{16,}|whsec_[A-Za-z0-9+/=]{24,})/y,
  },
  {
    kind: 'huggingface-token',
    stems: ['hf_'],
    re: /(?<![A-Za-z0-9_])hf_[A-Za-z0-9]{30,}/y,
    // A token is `hf_` and 34 letters and digits: that long a run after the prefix is never a word (a
    // letters-only token can read like one to `looksRandom`); shorter runs must look random.
    valid: (m) => m.length >= 3 + HF_TOKEN_BODY || looksRandom(m.slice(3)),
  },
  {
    kind: 'npm-token',
    stems: ['npm_'],
    re: /(?<![A-Za-z0-9_])npm_[A-Za-z0-9_]{36}(?![A-Za-z0-9_])/y,
    valid: (m) => randomWithUnderscores(m.slice(4), 36), // not `npm_package_…` / `npm_config_…` names
  },
  { kind: 'pypi-token', stems: ['pypi-'], re: new RegExp(`${NB}pypi-AgE[A-Za-z0-9_-]{50,}`, 'y') },
  {
    kind: 'shopify-token',
    stems: ['shpat_', 'shpca_', 'shppa_', 'shpss_'],
    re: /(?<![A-Za-z0-9_])shp(?:at|ca|pa|ss)_[A-Za-z0-9]{32,128}/y,
  },
  {
    kind: 'linear-key',
    stems: ['lin_api_'],
    re: /(?<![A-Za-z0-9_])lin_api_[A-Za-z0-9_]{32,256}/y,
    valid: (m) => randomWithUnderscores(m.slice(8)),
  },
  // A 1Password service-account token is `ops_` and a base64 JSON object (`eyJ` is `{"`).
  {
    kind: 'onepassword-token',
    stems: ['ops_'],
    re: /(?<![A-Za-z0-9_])ops_eyJ[A-Za-z0-9+/_-]{96,8192}={0,2}/y,
  },
];
