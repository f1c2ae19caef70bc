/**
 * Small building blocks shared by the two GitHub Copilot CLI readers (`copilot-cli-events.ts` for
 * `events.jsonl` streams, `copilot-cli-store.ts` for the SQLite session store).
 */
import { isRecord, OrderedSet, parseUtcMs } from '../shared/values.js';

export { isRecord, OrderedSet, parseUtcMs };

/** Claude keeps the same cap; a long session edits hundreds of files and only the first ones matter. */
export const MAX_FILES_TOUCHED = 50;

/** A string with something other than whitespace in it, trimmed; otherwise undefined. */
export function trimmedString(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  return text === '' ? undefined : text;
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
