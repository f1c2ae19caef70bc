/**
 * How much of one turn's text the store keeps. A pasted log or file can make a prompt tens of megabytes;
 * mining needs what the user asked, not all of it, and every stored byte is read again by every night.
 */
import { storedText } from '../core/safe-text.js';

/** Characters of one turn's text kept (256 Ki); the rest is dropped and the cut is marked. */
export const MAX_TURN_TEXT_CHARS = 256 * 1024;
/** Read past the cut before redacting, so a secret straddling it is still recognised whole. */
const REDACT_SLACK_CHARS = 4096;
/** A cut inside a word moves back to the whitespace before it, when that is this close. */
const WORD_BACKOFF_CHARS = 256;

/** The marker that ends a cut text; it says how long the original was. */
export function truncationMarker(originalChars: number, keptChars = MAX_TURN_TEXT_CHARS): string {
  return `\n[truncated by skillopt-sleep: ${originalChars} characters, the first ${keptChars} kept]`;
}

/**
 * The redacted text of a turn, at most `max` characters plus the marker. Only the head is redacted when
 * the text is over the cap (redacting 50 MB to keep 256 KiB of it is wasted work).
 */
export function redactTurnText(text: string, max = MAX_TURN_TEXT_CHARS): string {
  if (text.length <= max) return storedText(text);
  const head = storedText(text.slice(0, max + REDACT_SLACK_CHARS));
  return `${cutAtWord(head, max)}${truncationMarker(text.length, max)}`;
}

/** The first `max` characters, never splitting a surrogate pair and preferring a word boundary. */
function cutAtWord(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  if (!/\s/.test(text.charAt(end)) && !/\s/.test(text.charAt(end - 1))) {
    for (let i = end - 1; i >= 0 && i >= end - WORD_BACKOFF_CHARS; i--) {
      if (/\s/.test(text.charAt(i))) return text.slice(0, i + 1);
    }
  }
  return text.slice(0, end);
}
