/** Small value helpers shared by the VS Code Copilot Chat harvester modules. */
import { isRecord, OrderedSet } from '../shared/values.js';
import { plausibleMs } from '../shared/times.js';

export { isRecord, OrderedSet };

export function nonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** Epoch values below this are seconds, above it milliseconds (1e10 s is the year 2286). */
const SECONDS_LIMIT = 1e10;
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
const HAS_ZONE = /(?:Z|[+-]\d{2}:?\d{2})$/i;

/**
 * A timestamp → UTC epoch ms: epoch numbers (seconds or milliseconds) or ISO strings (a string
 * without a zone is UTC, never local time). Anything else, zero, negative or implausible (times.ts) gives null.
 */
export function epochMs(value: unknown): number | null {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value <= 0) return null;
    return plausibleMs(value < SECONDS_LIMIT ? value * 1000 : value);
  }
  if (typeof value !== 'string') return null;
  const text = value.trim();
  if (!ISO_DATE_TIME.test(text)) return null;
  return plausibleMs(Date.parse(HAS_ZONE.test(text) ? text : `${text}Z`));
}

/** Widens a [start, end] range with one more timestamp. */
export class TimeRange {
  start: number | null = null;
  end: number | null = null;
  add(ts: number | null): void {
    if (ts == null) return;
    this.start = this.start == null ? ts : Math.min(this.start, ts);
    this.end = this.end == null ? ts : Math.max(this.end, ts);
  }
}

/** The file name part of a POSIX or Windows path. */
export function baseName(p: string): string {
  const parts = p.split(/[\\/]/).filter((part) => part !== '');
  return parts.at(-1) ?? '';
}

/** The file stem: base name without its last extension. */
export function fileStem(p: string): string {
  return baseName(p).replace(/\.[^.]*$/, '');
}

const OPENING_TAG = /^<([A-Za-z][\w.:-]*)(?:\s[^>]*)?>/;

/** A prompt made only of `<tag>…</tag>` blocks is context VS Code or a tool injected, not typed. */
export function isOnlyTagBlocks(prompt: string): boolean {
  let rest = prompt.trim();
  while (rest !== '') {
    const opening = OPENING_TAG.exec(rest);
    if (opening == null) return false;
    const closing = `</${opening[1] ?? ''}>`;
    const end = rest.indexOf(closing, opening[0].length);
    if (end === -1) return false;
    rest = rest.slice(end + closing.length).trim();
  }
  return true;
}
