import { describe, expect, it } from 'vitest';
import { HOSTILE_SEQUENCES, UNSAFE_RE } from '../../test/helpers/hostile-text.js';
import { mapStrings, plainJson, plainText, storedText } from './safe-text.js';

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

  it('mapStrings cleans keys, keeps key order, and returns what did not change as it is', () => {
    const clean = { list: ['a', { b: 'c' }], n: 1 };
    expect(mapStrings(clean)).toBe(clean);
    const mixed = { first: clean, 'k\u001b[1m': 'v', last: ['x', 'y\u0007'] };
    const out = mapStrings(mixed);
    expect(Object.keys(out)).toEqual(['first', 'k', 'last']);
    expect(out.first).toBe(clean);
    expect(out).toEqual({ first: clean, k: 'v', last: ['x', 'y'] });
    expect(mixed['k\u001b[1m']).toBe('v'); // the input is never changed
  });

  it('mapStrings keeps an own __proto__ key a property, never a prototype', () => {
    const parsed = JSON.parse('{"__proto__": {"polluted": "y\\u0007"}, "a": "b\\u0007"}') as Record<
      string,
      unknown
    >;
    const out = mapStrings(parsed);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect((out as { polluted?: unknown }).polluted).toBeUndefined();
    expect(Object.getOwnPropertyDescriptor(out, '__proto__')?.value).toEqual({ polluted: 'y' });
  });
});

describe('plainJson', () => {
  const slow = (v: unknown, indent?: number) => JSON.stringify(mapStrings(v), null, indent);

  it('gives the bytes of stringify(mapStrings(value)) for every UTF-16 code unit, in values and keys', () => {
    const differ: number[] = [];
    for (let c = 0; c <= 0xffff; c++) {
      const ch = String.fromCharCode(c);
      const value = { [`k${ch}`]: [`a${ch}b`, { deep: `\\${ch}` }], n: c };
      if (plainJson(value, 2) !== slow(value, 2)) differ.push(c);
    }
    expect(differ).toEqual([]);
  });

  it('tells an escaped backslash before b, f, r or u00 from an escape, however many backslashes', () => {
    for (let k = 0; k <= 5; k++) {
      for (const tail of ['b', 'f', 'r', 'u0001', '\b', '\f', '\r', '\u0001', '\u001f', '\t', '\n']) {
        const value = { check: `(?i)${'\\'.repeat(k)}${tail}npm`, [`${'\\'.repeat(k)}${tail}`]: 1 };
        expect(plainJson(value, 2)).toBe(slow(value, 2));
      }
    }
  });

  it('reads a clean value once: a regex word boundary (an escaped backslash and a b) is not an escape', () => {
    let reads = 0;
    const value = {
      get check() {
        reads++;
        return '(?i)\\bnpm\\b C:\\\\rules';
      },
    };
    expect(plainJson(value)).toBe(JSON.stringify({ check: '(?i)\\bnpm\\b C:\\\\rules' }));
    expect(reads).toBe(1);
  });

  it('removes escapes, C1 controls and bidi marks, and keeps a clean value as plain JSON', () => {
    const dirty = { a: 'x\u001b[2Jy', b: 'p\u009b1mq', c: '\u202eevil', d: 'tab\tand\r\nline' };
    expect(JSON.parse(plainJson(dirty))).toEqual({ a: 'xy', b: 'pq', c: 'evil', d: 'tab\tand\nline' });
    const clean = {
      path: 'C:\\bin\\run',
      text: 'é 漢字 👨\u200d👩',
      list: [1, null, true],
      when: new Date(0),
    };
    expect(plainJson(clean, 2)).toBe(JSON.stringify(clean, null, 2));
  });

  it('passes what JSON.stringify gives for a value without JSON', () => {
    expect(plainJson(undefined)).toBeUndefined();
    expect(plainJson('\u0007')).toBe('""');
  });
});
