import { describe, expect, it } from 'vitest';
import { mapStrings, plainText, storedText } from './safe-text.js';

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
// eslint-disable-next-line no-control-regex
export const UNSAFE_RE =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b\u200e\u200f\u2028-\u202e\u2066-\u2069\ufeff]/;

describe('plainText', () => {
  for (const [name, seq] of Object.entries(HOSTILE_SEQUENCES)) {
    it(`removes ${name}`, () => {
      const out = plainText(`before ${seq} after`);
      expect(out).not.toMatch(UNSAFE_RE);
      expect(out.startsWith('before ')).toBe(true);
      expect(out.endsWith(' after')).toBe(true);
    });
  }

  it('drops the payload of string sequences, not only their introducer', () => {
    expect(plainText('a\u001b]52;c;SECRETPAYLOAD\u0007b')).toBe('ab');
    expect(plainText('a\u001b]0;title\u001b\\b')).toBe('ab');
    expect(plainText('a\u001b[2Jb')).toBe('ab');
  });

  it('keeps newlines, tabs, joiners and ordinary Unicode; a carriage return becomes a newline', () => {
    expect(plainText('line 1\n\tline 2 é 漢字 👨\u200d👩')).toBe('line 1\n\tline 2 é 漢字 👨\u200d👩');
    expect(plainText('a\r\nb\rc')).toBe('a\nb\nc');
  });

  it('replaces other controls by `controlsAs` when asked', () => {
    expect(plainText('a\u0007b', ' ')).toBe('a b');
  });
});

describe('storedText and mapStrings', () => {
  it('storedText strips controls and redacts secrets (a secret split by an escape included)', () => {
    const out = storedText('key ghp_\u001b[0m' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4 done');
    expect(out).not.toMatch(UNSAFE_RE);
    expect(out).toContain('[REDACTED:github-token]');
  });

  it('mapStrings cleans every string of a JSON value and leaves numbers and booleans', () => {
    const value = { a: 'x\u001b[2Jy', n: 3, ok: true, list: ['\u202ez', { deep: 'p\u0007q' }], none: null };
    expect(mapStrings(value)).toEqual({ a: 'xy', n: 3, ok: true, list: ['z', { deep: 'pq' }], none: null });
  });
});
