/**
 * The user's own redaction patterns (`redact_patterns` in their config), applied after the built-in
 * redactor: every match becomes `[REDACTED:<name>]` (`custom` for an unnamed pattern). A pattern never
 * sees a marker: it runs on the text between markers, so what is already redacted is left alone and
 * redacting twice is the same as once.
 *
 * The patterns reach every place that stores or sends a text through a redaction scope
 * (AsyncLocalStorage), not through every function's arguments: the CLI opens an empty scope per command
 * (`runCli`) and fills it once the config is loaded; the daemon runs each harvest inside one. Outside any
 * scope (a unit test of a helper), only the built-in redactor runs; nothing stays set between commands.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { InputError } from './errors.js';
import { redactSecretsWithStats } from './redact.js';

/** A pattern as the config spells it: `"regex"` or `{ name, regex }`. */
export type UserRedactPattern = string | { name: string; regex: string };

/** The kind an unnamed pattern's matches are counted under. */
export const CUSTOM_KIND = 'custom';

interface CompiledPattern {
  kind: string;
  re: RegExp;
}

interface RedactionScope {
  patterns: readonly CompiledPattern[];
}

const scope = new AsyncLocalStorage<RedactionScope>();

/** A marker of any redaction stage (`[REDACTED:kind]`); user kinds are short names of `[A-Za-z0-9._-]`. */
const MARKER_RE = /\[REDACTED:[A-Za-z0-9._-]{1,64}\]/g;

function compile(patterns: readonly UserRedactPattern[]): CompiledPattern[] {
  return patterns.map((p) => {
    const source = typeof p === 'string' ? p : p.regex;
    try {
      return { kind: typeof p === 'string' ? CUSTOM_KIND : p.name, re: new RegExp(source, 'g') };
    } catch (err) {
      // Validated when the config is read; this guards a caller that skipped the schema.
      throw new InputError(`redact_patterns: ${err instanceof Error ? err.message : String(err)}`);
    }
  });
}

/** Runs `fn` (and everything it awaits) in a scope of its own, with no user pattern until one is set. */
export function withRedactionScope<T>(fn: () => T): T {
  return scope.run({ patterns: [] }, fn);
}

/** Runs `fn` (and everything it awaits) with `patterns` redacted from every stored or sent text. */
export function withRedactPatterns<T>(patterns: readonly UserRedactPattern[], fn: () => T): T {
  return scope.run({ patterns: compile(patterns) }, fn);
}

/**
 * Sets the current scope's patterns (the CLI, once the config is loaded). Outside a scope this throws:
 * patterns set there would apply to nothing, silently.
 */
export function setRedactPatterns(patterns: readonly UserRedactPattern[]): void {
  const current = scope.getStore();
  if (current === undefined) throw new Error('setRedactPatterns called outside a redaction scope');
  current.patterns = compile(patterns);
}

/**
 * The current scope's patterns as the config spells them, for another thread to open the same scope
 * (the harvest's parse workers redact what they parse).
 */
export function currentRedactPatterns(): Array<{ name: string; regex: string }> {
  return (scope.getStore()?.patterns ?? []).map(({ kind, re }) => ({ name: kind, regex: re.source }));
}

/** Whether the current scope has user patterns (callers can skip work when it has none). */
export function hasUserPatterns(): boolean {
  return (scope.getStore()?.patterns.length ?? 0) > 0;
}

/**
 * `text` with the current scope's patterns redacted; counts go into `kinds` (by name) when given.
 * With no pattern the text is returned as it is, untouched.
 */
export function redactUserPatterns(text: string, kinds?: Record<string, number>): string {
  const patterns = scope.getStore()?.patterns;
  if (patterns === undefined || patterns.length === 0) return text;
  return applyPatterns(text, patterns, kinds);
}

/** The built-in redactor, then the current scope's patterns: what every stored or sent text gets. */
export function redactText(text: string): string {
  return redactTextWithStats(text).text;
}

/** `redactText` with the number of values replaced, per kind (built-in kinds and pattern names). */
export function redactTextWithStats(text: string): {
  text: string;
  count: number;
  kinds: Record<string, number>;
} {
  const builtIn = redactSecretsWithStats(text);
  const patterns = scope.getStore()?.patterns;
  if (patterns === undefined || patterns.length === 0) return builtIn;
  const kinds: Record<string, number> = { ...builtIn.kinds };
  const out = applyPatterns(builtIn.text, patterns, kinds);
  let count = 0;
  for (const n of Object.values(kinds)) count += n;
  return { text: out, count, kinds };
}

/** Exported for tests: the stage itself, on explicit patterns. */
export function redactWithPatterns(
  text: string,
  patterns: readonly UserRedactPattern[],
  kinds?: Record<string, number>,
): string {
  return applyPatterns(text, compile(patterns), kinds);
}

function applyPatterns(
  text: string,
  patterns: readonly CompiledPattern[],
  kinds: Record<string, number> | undefined,
): string {
  let out = text;
  for (const { kind, re } of patterns) {
    re.lastIndex = 0;
    if (!re.test(out)) continue; // most texts match no pattern: no closures, no copy
    const marker = `[REDACTED:${kind}]`;
    const replace = (m: string): string => {
      if (m === '') return m; // a pattern that matches empty somewhere (`\b`): nothing to hide there
      if (kinds) kinds[kind] = (kinds[kind] ?? 0) + 1;
      return marker;
    };
    out = outsideMarkers(out, (plain) => {
      re.lastIndex = 0;
      return plain.replace(re, replace);
    });
  }
  return out;
}

/** `text` with `edit` applied to each stretch between redaction markers (the markers kept as they are). */
function outsideMarkers(text: string, edit: (plain: string) => string): string {
  if (!text.includes('[REDACTED:')) return edit(text);
  let out = '';
  let last = 0;
  MARKER_RE.lastIndex = 0;
  for (let m = MARKER_RE.exec(text); m !== null; m = MARKER_RE.exec(text)) {
    if (m.index > last) out += edit(text.slice(last, m.index));
    out += m[0];
    last = m.index + m[0].length;
  }
  return out + (last < text.length ? edit(text.slice(last)) : '');
}
