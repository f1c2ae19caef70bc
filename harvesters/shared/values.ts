import { plausibleMs } from './times.js';
import type { HarvestedTurn, ToolAction } from '../../src/core/session.js';

/** Small value helpers every harvester needs; one copy here instead of one per source. */

/** Distinct strings in first-seen order, optionally capped. */
export class OrderedSet {
  private readonly items = new Set<string>();
  private readonly cap: number;
  constructor(cap = Number.POSITIVE_INFINITY) {
    this.cap = cap;
  }
  add(value: string): void {
    if (this.items.size < this.cap) this.items.add(value);
  }
  values(): string[] {
    return [...this.items];
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value != null && !Array.isArray(value);
}

const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)(.*)$/i;
const ZONE = /^(?:Z|[+-]\d{2}:?\d{2})$/i;
/** What every agent writes (`Date.prototype.toISOString`): parsed as is, without the general path's rebuild. */
const CANONICAL_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/** Epoch values at or above this are milliseconds, below it seconds (year 2286 in seconds). */
const EPOCH_MS_THRESHOLD = 1e10;

/**
 * Timestamp → UTC epoch ms, or null. Accepts ISO 8601, the SQLite `YYYY-MM-DD HH:MM:SS` form, and epoch
 * seconds/milliseconds. A timestamp without a zone is UTC, never local time. Implausible times (not
 * finite, before 2000, past what a Date holds) are null (times.ts; the core also bounds them by the file's mtime).
 */
export function parseUtcMs(value: unknown): number | null {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value <= 0) return null;
    return plausibleMs(value >= EPOCH_MS_THRESHOLD ? value : value * 1000);
  }
  if (typeof value !== 'string') return null;
  if (value.length === 24 && CANONICAL_UTC.test(value)) return plausibleMs(Date.parse(value));
  const match = DATE_TIME.exec(value.trim());
  if (match == null) return null;
  const [, date, time, rest] = match;
  const zone = (rest ?? '').trim();
  if (zone !== '' && !ZONE.test(zone)) return null;
  return plausibleMs(Date.parse(`${date}T${time}${zone === '' ? 'Z' : zone}`));
}

/** A turn while a transcript is being read: text arrives in parts, tools one by one. */
export interface TurnDraft {
  role: 'user' | 'assistant';
  offset: number;
  textParts: string[];
  ts: number | null;
  toolNames: string[];
  /** What the tool calls did (assistant turns; user turns keep it empty). */
  actions: ToolAction[];
  toolErrors: number;
  interrupted: boolean;
}

/** A turn that has nothing yet (sources read whole start every turn at offset 0). */
export function emptyTurnDraft(role: TurnDraft['role'], ts: number | null, offset = 0): TurnDraft {
  return { role, offset, textParts: [], ts, toolNames: [], actions: [], toolErrors: 0, interrupted: false };
}

/** Finished turns: empty assistant turns (thinking only) dropped, numbered from 0 in file order. */
export function finishTurns(drafts: readonly TurnDraft[]): HarvestedTurn[] {
  return drafts
    .filter((t) => t.role === 'user' || t.textParts.length > 0 || t.toolNames.length > 0)
    .map((t, seq) => ({
      seq,
      role: t.role,
      text: t.textParts.join('\n'),
      ts: t.ts,
      toolNames: t.toolNames,
      actions: t.actions,
      toolErrors: t.toolErrors,
      interrupted: t.interrupted,
      offset: t.offset,
    }));
}

/**
 * A harvester's synchronous parse as the promise `Harvester.parse` returns: a throw becomes a
 * rejection, so callers see one kind of failure whichever way a harvester reads.
 */
export function settled<T>(work: () => T): Promise<T> {
  return new Promise((resolve) => resolve(work()));
}
