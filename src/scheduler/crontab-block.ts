/**
 * The one managed block in the user's crontab. Everything outside the block is kept byte for byte
 * (the text is handled as latin1 so even bytes that are not UTF-8 survive); inside it, each project has
 * one line ending with a marker that holds only a digest of the project path.
 *
 * A new block goes at the TOP of the crontab: cron applies a `SHELL=`, `PATH=` or `CRON_TZ=` line only to
 * the entries after it, so our lines always run under /bin/sh, for which they are quoted.
 */
import { sha256Hex } from '../core/hash.js';

export const BLOCK_BEGIN = '# >>> skillopt-sleep (managed by skillopt-sleep schedule/unschedule) >>>';
export const BLOCK_END = '# <<< skillopt-sleep (managed) <<<';
const MARKER_PREFIX = '# skillopt-sleep project-sha256=';

export interface ManagedEntry {
  /** SHA-256 (hex) of the absolute project path. */
  digest: string;
  /** The whole crontab line as stored (latin1 text, no newline). */
  line: string;
}

export interface ParsedCrontab {
  /** Text before the block, and after it (both exact). */
  before: string;
  after: string;
  entries: ManagedEntry[];
  /** Lines inside the block that are not ours (kept in place). */
  foreign: string[];
  hasBlock: boolean;
}

export const projectDigest = (project: string): string => sha256Hex(project);
export const markerFor = (digest: string): string => `${MARKER_PREFIX}${digest}`;

function digestOf(line: string): string | null {
  const at = line.lastIndexOf(MARKER_PREFIX);
  if (at < 0) return null;
  const hex = line.slice(at + MARKER_PREFIX.length).trim();
  return /^[0-9a-f]{64}$/.test(hex) ? hex : null;
}

/** Split a crontab into the text around the managed block and the block's entries. */
export function parseCrontab(text: string): ParsedCrontab {
  const lines = text.split('\n');
  const begin = lines.findIndex((l) => l.trimEnd() === BLOCK_BEGIN);
  const endRel = begin < 0 ? -1 : lines.slice(begin + 1).findIndex((l) => l.trimEnd() === BLOCK_END);
  if (begin < 0 || endRel < 0) return { before: text, after: '', entries: [], foreign: [], hasBlock: false };
  const end = begin + 1 + endRel;
  const before = lines
    .slice(0, begin)
    .map((l) => `${l}\n`)
    .join('');
  // The END line's own newline belongs to the block; what follows is the user's, exactly.
  const after = lines.slice(end + 1).join('\n');
  const entries: ManagedEntry[] = [];
  const foreign: string[] = [];
  for (const line of lines.slice(begin + 1, end)) {
    const digest = digestOf(line);
    if (digest) entries.push({ digest, line });
    else if (line.trim() !== '') foreign.push(line);
  }
  return { before, after, entries, foreign, hasBlock: true };
}

/** Put the block back together; an empty block disappears, leaving exactly the user's text. */
export function renderCrontab(parsed: ParsedCrontab): string {
  if (parsed.entries.length === 0 && parsed.foreign.length === 0) return parsed.before + parsed.after;
  const body = [...parsed.foreign, ...parsed.entries.map((e) => e.line)];
  const block = `${[BLOCK_BEGIN, ...body, BLOCK_END].join('\n')}\n`;
  if (!parsed.hasBlock) return block + parsed.before; // new block: at the top (see above)
  return parsed.before + block + parsed.after;
}

/** Install or replace one project's line; other entries keep their order. */
export function withEntry(parsed: ParsedCrontab, entry: ManagedEntry): ParsedCrontab {
  const at = parsed.entries.findIndex((e) => e.digest === entry.digest);
  const entries = [...parsed.entries];
  if (at >= 0) entries[at] = entry;
  else entries.push(entry);
  return { ...parsed, entries };
}

/** Remove one project's line, or every managed line when `digest` is null. */
export function withoutEntries(parsed: ParsedCrontab, digest: string | null): ParsedCrontab {
  return {
    ...parsed,
    entries: digest === null ? [] : parsed.entries.filter((e) => e.digest !== digest),
    foreign: digest === null ? [] : parsed.foreign,
  };
}
