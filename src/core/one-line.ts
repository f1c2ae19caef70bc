/** Untrusted text (transcript wording, rules) as one safe line: no escape sequences, no line breaks. */
import { plainText } from './safe-text.js';

export function oneLine(s: string): string {
  return plainText(s, ' ').replace(/\s+/g, ' ').trim();
}
