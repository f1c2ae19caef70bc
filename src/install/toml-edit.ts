/**
 * Codex's config.toml: checked with a real TOML parser, never re-serialised. Our table is appended as
 * one marked block at the end and an uninstall cuts out exactly that block, so every other byte of the
 * file (comments, spacing, key order) stays as the user wrote it.
 */
import { parse, TomlError } from 'smol-toml';

export class TomlEditError extends Error {}

export const BLOCK_START =
  '# >>> skillopt-sleep (added by `skillopt-sleep install codex`; uninstall removes this block)';
export const BLOCK_END = '# <<< skillopt-sleep';

type Table = Record<string, unknown>;

export function parseToml(text: string): Table {
  try {
    return parse(text);
  } catch (err) {
    const where = err instanceof TomlError ? ` on line ${err.line}` : '';
    const why = err instanceof Error ? (err.message.split('\n')[0] ?? '') : String(err);
    throw new TomlEditError(`does not parse as TOML${where} (${why})`);
  }
}

/** The value of a dotted table path (`['mcp_servers', 'skillopt-sleep']`) in the parsed file. */
export function tomlTableAt(text: string, path: readonly string[]): unknown {
  let at: unknown = parseToml(text);
  for (const key of path) {
    if (at === null || typeof at !== 'object' || Array.isArray(at)) return undefined;
    at = (at as Table)[key];
  }
  return at;
}

/** A TOML basic string (JSON escapes are TOML escapes for the characters we allow). */
function tomlString(s: string): string {
  return JSON.stringify(s);
}

function tomlValue(v: unknown): string {
  if (typeof v === 'string') return tomlString(v);
  if (Array.isArray(v)) return `[${v.map(tomlValue).join(', ')}]`;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  throw new TomlEditError(`cannot write ${typeof v} values`);
}

/** Our block, lines joined with the file's own line ending. */
export function tomlBlock(path: readonly string[], entries: Record<string, unknown>, eol = '\n'): string {
  const lines = [
    BLOCK_START,
    `[${path.join('.')}]`,
    ...Object.entries(entries).map(([k, v]) => `${k} = ${tomlValue(v)}`),
    BLOCK_END,
  ];
  return lines.join(eol) + eol;
}

interface BlockSpan {
  start: number;
  end: number;
}

/** Where our block is (from its start marker line to the end of its end marker line), if present. */
export function findTomlBlock(text: string): BlockSpan | undefined {
  const start = text.indexOf(BLOCK_START);
  if (start < 0 || (start > 0 && text[start - 1] !== '\n')) return undefined;
  const endMarker = text.indexOf(BLOCK_END, start);
  if (endMarker < 0) return undefined;
  const newline = text.indexOf('\n', endMarker);
  return { start, end: newline < 0 ? text.length : newline + 1 };
}

/**
 * The file with our block appended (after one blank line), verified by parsing the result: the
 * user's tables must come out exactly as they went in, plus ours.
 */
export function appendTomlBlock(
  text: string,
  path: readonly string[],
  entries: Record<string, unknown>,
): string {
  const before = parseToml(text);
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const separator = text === '' ? '' : text.endsWith('\n') ? eol : eol + eol;
  const out = text + separator + tomlBlock(path, entries, eol);
  const after = parseToml(out);
  if (!sameAfterRemoving(after, before, path))
    throw new TomlEditError(`cannot take a [${path.join('.')}] table appended at its end`);
  return out;
}

function sameAfterRemoving(after: Table, before: Table, path: readonly string[]): boolean {
  const copy = structuredClone(after);
  let at: Table = copy;
  for (const key of path.slice(0, -1)) at = at[key] as Table;
  delete at[path[path.length - 1] ?? ''];
  // A parent table we created by appending is empty now; the original did not have it.
  if (path.length > 1 && before[path[0] ?? ''] === undefined) {
    const top = copy[path[0] ?? ''] as Table;
    if (Object.keys(top).length === 0) delete copy[path[0] ?? ''];
  }
  return JSON.stringify(sorted(copy)) === JSON.stringify(sorted(before));
}

function sorted(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sorted);
  if (v instanceof Date) return v.toISOString();
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, sorted((v as Table)[k])]),
    );
  return v;
}

/** The file without our block and the one blank line we put before it. */
export function removeTomlBlock(text: string): string {
  const span = findTomlBlock(text);
  if (!span) return text;
  let start = span.start;
  if (text.slice(0, start).endsWith('\n\n')) start -= 1;
  else if (text.slice(0, start).endsWith('\r\n\r\n')) start -= 2;
  return text.slice(0, start) + text.slice(span.end);
}
