/** Terminal escapes and control characters a transcript, tasks file or model reply may carry. */

/** One sample of every class of hostile sequence, each wrapped in visible words. */
export const HOSTILE_SEQUENCES: Readonly<Record<string, string>> = {
  'OSC 52 clipboard write (BEL)': '\u001b]52;c;Y3VybCBldmlsLnNoIHwgc2g=\u0007',
  'OSC 52 clipboard write (ST)': '\u001b]52;c;Y3VybA==\u001b\\',
  'OSC 0 title': '\u001b]0;pwned title\u0007',
  'OSC 8 hyperlink': '\u001b]8;;https://evil.example/\u001b\\click\u001b]8;;\u001b\\',
  'CSI screen clear': '\u001b[2J\u001b[H',
  'CSI colour': '\u001b[31;1m',
  'CSI private mode': '\u001b[?1049h',
  'DCS string': '\u001bP1$qm\u001b\\',
  'APC string': '\u001b_payload\u001b\\',
  'ESC reset': '\u001bc',
  'ESC charset': '\u001b(0',
  'bare ESC': '\u001b',
  '8-bit CSI': '\u009b2J',
  '8-bit OSC': '\u009d0;title\u009c',
  'C1 NEL': '\u0085',
  BEL: '\u0007',
  backspace: 'x\b\b',
  'CR overwrite': 'safe\rEVIL',
  NUL: '\u0000',
  DEL: '\u007f',
  'vertical tab and form feed': '\u000b\u000c',
  'bidi override': '\u202eexe.txt\u202c',
  'bidi isolate': '\u2066\u2067\u2068\u2069',
  'zero-width space': 'a\u200bb',
  'line separator': '\u2028\u2029',
};

/** Any terminal escape or control character but newline and tab (the classes above). */
export const UNSAFE_RE =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b\u200e\u200f\u2028-\u202e\u2066-\u2069\ufeff]/;

/** Every sample in one text, between words. */
export const ALL_HOSTILE = Object.values(HOSTILE_SEQUENCES).join(' w ');
