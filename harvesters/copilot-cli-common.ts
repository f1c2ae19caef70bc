/**
 * Small building blocks shared by the two GitHub Copilot CLI readers (`copilot-cli-events.ts` for
 * `events.jsonl` streams, `copilot-cli-store.ts` for the SQLite session store).
 */

/** Claude keeps the same cap; a long session edits hundreds of files and only the first ones matter. */
export const MAX_FILES_TOUCHED = 50;

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

/** A string with something other than whitespace in it, trimmed; otherwise undefined. */
export function trimmedString(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  return text === '' ? undefined : text;
}

const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)(.*)$/i;
const ZONE = /^(?:Z|[+-]\d{2}:?\d{2})$/i;
/** Epoch values at or above this are milliseconds, below it seconds (year 2286 in seconds). */
const EPOCH_MS_THRESHOLD = 1e10;

/**
 * Timestamp → UTC epoch ms, or null. Accepts ISO 8601, the SQLite `YYYY-MM-DD HH:MM:SS` form the
 * session store mixes in, and epoch seconds/milliseconds. A timestamp without a zone is UTC, never
 * local time.
 */
export function parseUtcMs(value: unknown): number | null {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value <= 0) return null;
    return Math.round(value >= EPOCH_MS_THRESHOLD ? value : value * 1000);
  }
  if (typeof value !== 'string') return null;
  const match = DATE_TIME.exec(value.trim());
  if (match == null) return null;
  const [, date, time, rest] = match;
  const zone = (rest ?? '').trim();
  if (zone !== '' && !ZONE.test(zone)) return null;
  const ms = Date.parse(`${date}T${time}${zone === '' ? 'Z' : zone}`);
  return Number.isFinite(ms) ? ms : null;
}

/** Widens a [start, end] range with one timestamp. */
export function widenRange(
  range: { startedAt: number | null; endedAt: number | null },
  ts: number | null,
): void {
  if (ts == null) return;
  range.startedAt = range.startedAt == null ? ts : Math.min(range.startedAt, ts);
  range.endedAt = range.endedAt == null ? ts : Math.max(range.endedAt, ts);
}

/** Leading blocks the harness wraps around a prompt (`<system-reminder>…</system-reminder>` etc.). */
const LEADING_TAG_BLOCK = /^\s*<([A-Za-z][\w:-]*)(?:\s[^>]*)?>[\s\S]*?<\/\1>\s*/;
/** A slash command such as `/model gpt-5` or `/clear`: harness control, not a task. */
const SLASH_COMMAND = /^\/\S+(?:\s+\S+){0,2}$/;

/**
 * The user's own words in a prompt, or undefined when nothing of the user is left: leading
 * injected tag blocks are stripped (the prompt after them is kept, harvest-spec §6.2), then a
 * prompt that is still entirely wrapped in markup or is a short slash command is dropped.
 */
export function userPromptText(raw: unknown): string | undefined {
  let text = typeof raw === 'string' ? raw.replace(/\0/g, '').trim() : '';
  for (let block = LEADING_TAG_BLOCK.exec(text); block != null; block = LEADING_TAG_BLOCK.exec(text)) {
    text = text.slice(block[0].length).trim();
  }
  if (text === '') return undefined;
  if (text.startsWith('<') && text.endsWith('>')) return undefined;
  if (SLASH_COMMAND.test(text)) return undefined;
  return text;
}

export function describeError(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
