import { describe, expect, it } from 'vitest';
import { isLazy, resolveLazy, skimJson } from './json-skim.js';

/** A small seeded generator (mulberry32), so a failure names its seed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PIECES = [
  'a',
  'word ',
  '"',
  '\\',
  '\\"',
  '\n',
  '\t',
  '\u0001',
  'é',
  '✓',
  '😀',
  '\ud800',
  '/',
  '}',
  ']',
  ':',
  ',',
];

function text(next: () => number): string {
  const n = Math.floor(next() ** 3 * 400);
  let s = '';
  for (let i = 0; i < n; i++) s += PIECES[Math.floor(next() * PIECES.length)] as string;
  return s;
}

function value(next: () => number, depth: number): unknown {
  const r = next();
  if (depth > 3 || r < 0.35) return text(next);
  if (r < 0.45) return [null, true, false, 0, -1.5e-7, 12345678901234][Math.floor(next() * 6)];
  if (r < 0.7) return Array.from({ length: Math.floor(next() * 5) }, () => value(next, depth + 1));
  const o: Record<string, unknown> = {};
  for (let i = Math.floor(next() * 5); i > 0; i--)
    o[next() < 0.1 ? text(next) : `k${i}`] = value(next, depth + 1);
  return o;
}

function skimParse(json: string, minStringBytes: number): unknown {
  const bytes = Buffer.from(json, 'utf8');
  const skimmed = skimJson(bytes, 0, bytes.length, minStringBytes);
  if (skimmed === null) throw new Error('not skimmed');
  return resolveLazy(JSON.parse(skimmed.text), bytes, skimmed.ranges);
}

describe('skimJson + resolveLazy', () => {
  it('give what JSON.parse gives, for random values with escapes, quotes and non-ASCII text', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const next = random(seed);
      const json = JSON.stringify(value(next, 0), null, seed % 3 === 0 ? 1 : undefined);
      for (const min of [2, 8, 64])
        expect(skimParse(json, min), `seed ${seed}, min ${min}`).toStrictEqual(JSON.parse(json));
    }
  });

  it('leave long strings as placeholders until resolved, and never replace a key', () => {
    const longKey = 'k'.repeat(50);
    const json = JSON.stringify({ [longKey]: 'v'.repeat(50), short: 'x', list: ['y'.repeat(50)] });
    const bytes = Buffer.from(json);
    const skimmed = skimJson(bytes, 0, bytes.length, 20);
    const parsed = JSON.parse(skimmed?.text ?? '') as Record<string, unknown>;
    expect(Object.keys(parsed)).toEqual([longKey, 'short', 'list']);
    expect(isLazy(parsed[longKey])).toBe(true);
    expect(parsed['short']).toBe('x');
    expect(skimmed?.ranges).toHaveLength(4);
    expect(resolveLazy(parsed, bytes, skimmed?.ranges ?? [])).toStrictEqual(JSON.parse(json));
  });

  it('keep "__proto__" an own property, as JSON.parse does', () => {
    const json = `{"__proto__":"${'p'.repeat(40)}","a":{"__proto__":{"x":"${'q'.repeat(40)}"}}}`;
    const got = skimParse(json, 10) as Record<string, unknown>;
    expect(got).toStrictEqual(JSON.parse(json));
    expect(Object.getPrototypeOf(got)).toBe(Object.prototype);
    expect(Object.getOwnPropertyNames(got)).toContain('__proto__');
  });

  it('find a string that ends after escaped backslashes', () => {
    const json = JSON.stringify(['\\', '\\\\"', `${'z'.repeat(30)}\\`, 'end']);
    expect(skimParse(json, 4)).toStrictEqual(JSON.parse(json));
  });

  it('return null for a string cut short, and parse the rest of a bad line as badly as before', () => {
    const json = JSON.stringify({ a: 'x'.repeat(100) }).slice(0, 60);
    const bytes = Buffer.from(json);
    expect(skimJson(bytes, 0, bytes.length, 10)).toBeNull();
    const broken = Buffer.from(`{"a": tru "${'x'.repeat(100)}"}`);
    const skimmed = skimJson(broken, 0, broken.length, 10);
    expect(() => JSON.parse(skimmed?.text ?? '') as unknown).toThrow();
  });

  it('decode a placeholder at the top, and leave a string that only looks like one', () => {
    const json = JSON.stringify('t'.repeat(30));
    expect(skimParse(json, 10)).toBe('t'.repeat(30));
    const lookalike = JSON.stringify({ a: '\u0000skim:000000000000:0' });
    expect(skimParse(lookalike, 1000)).toStrictEqual(JSON.parse(lookalike));
  });
});
