/**
 * Building `ToolAction`s (types.ts): the caps that keep the store small and the cleaning every
 * harvester applies, so each source only decides a call's kind, target and text. Shared by all sources;
 * the per-source mapping of tool names lives beside each harvester.
 */
import type { ActionKind, ToolAction } from '../../src/core/session.js';

/** At most this many actions per turn: the first ones are kept, later calls are dropped. */
export const MAX_ACTIONS_PER_TURN = 64;
/** `target` (a command line, a path, a pattern) is cut to this many characters. */
export const MAX_TARGET_CHARS = 400;
/** `added` and `removed` (file text) are cut to this many characters each. */
export const MAX_TEXT_CHARS = 2000;
/** Tool names longer than this are not names (the Codex rule, harvest-spec §3.6). */
export const MAX_TOOL_CHARS = 80;
/**
 * A cut that falls inside a word moves back to the whitespace before it when that is this close, so a
 * token (a key, a password) straddling the cut is dropped whole instead of leaving a prefix that the
 * redaction, which runs on the cut text, could no longer recognise.
 */
const WORD_BACKOFF_CHARS = 256;
/** Characters past the cap cleaned before cutting a long text (only the one after the cap is looked at). */
const HEAD_SLACK_CHARS = 16;

// C0 controls except \t and \n, DEL and the C1 controls: never stored (\r goes too, so \r\n becomes \n).
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARS = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g;
// eslint-disable-next-line no-control-regex -- as above, without the global flag for `test`
const HAS_CONTROL_CHAR = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/;

/** Control characters other than `\n` and `\t` removed. */
export function stripControlChars(text: string): string {
  return HAS_CONTROL_CHAR.test(text) ? text.replace(CONTROL_CHARS, '') : text;
}

/**
 * `text` without control characters, cut to at most `max` characters. Deterministic: the cut never
 * splits a surrogate pair and, inside a word, moves back to the preceding whitespace when that is near.
 */
export function capText(text: string, max: number): string {
  if (text === '') return '';
  if (text.length <= max) return stripControlChars(text);
  // Only the head survives: clean a little more than the cap (all of it if control characters ate into it).
  const head = stripControlChars(text.slice(0, max + HEAD_SLACK_CHARS));
  const clean = head.length > max ? head : stripControlChars(text);
  return clean.length <= max ? clean : cutAt(clean, max);
}

function cutAt(text: string, max: number): string {
  let end = max;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--; // a high surrogate whose pair is past the cut
  if (!isSpace(text.charCodeAt(end)) && !isSpace(text.charCodeAt(end - 1))) {
    for (let i = end - 1; i >= 0 && i >= end - WORD_BACKOFF_CHARS; i--) {
      if (isSpace(text.charCodeAt(i))) {
        end = i + 1;
        break;
      }
    }
  }
  return text.slice(0, end);
}

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x09;
}

/** One action with the caps applied. Missing texts are ''. */
export function toolAction(
  kind: ActionKind,
  tool: string,
  target = '',
  added = '',
  removed = '',
): ToolAction {
  return {
    kind,
    tool: capText(tool, MAX_TOOL_CHARS),
    target: kind === 'other' ? '' : capText(target, MAX_TARGET_CHARS),
    added: capText(added, MAX_TEXT_CHARS),
    removed: capText(removed, MAX_TEXT_CHARS),
  };
}

/** A turn's list can take another action (the first `MAX_ACTIONS_PER_TURN` are kept). */
export function hasActionRoom(list: readonly ToolAction[]): boolean {
  return list.length < MAX_ACTIONS_PER_TURN;
}

/** Appends actions to a turn's list while it has room. */
export function pushActions(list: ToolAction[], actions: readonly ToolAction[]): void {
  for (const action of actions) {
    if (list.length >= MAX_ACTIONS_PER_TURN) return;
    list.push(action);
  }
}

/** A string argument, or '' for anything else. */
export function stringArg(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** Strings of a list joined by newlines (the other entries ignored). */
export function joinStrings(values: readonly unknown[]): string {
  return values.filter((v): v is string => typeof v === 'string' && v !== '').join('\n');
}
