import { describe, expect, it } from 'vitest';
import { buildCorpus } from './redact.bench.js';
import { redactSecrets } from './redact.js';
import {
  CUSTOM_KIND,
  hasUserPatterns,
  redactText,
  redactTextWithStats,
  redactUserPatterns,
  redactWithPatterns,
  setRedactPatterns,
  withRedactPatterns,
  withRedactionScope,
} from './redact-user.js';
import { storedText } from './safe-text.js';

// Assembled from fragments so this file holds no literal a secret scanner flags.
const OPENAI = ['sk', '-', 'a7Q', 'Zx9'.repeat(15)].join('');
const ACME = { name: 'acme-id', regex: 'ACME-[0-9]{6}' };

describe('the user-pattern stage', () => {
  it('replaces each match by the named marker and counts it under that name', () => {
    const kinds: Record<string, number> = {};
    const out = redactWithPatterns('ids ACME-123456 and ACME-654321, not ACME-12', [ACME], kinds);
    expect(out).toBe('ids [REDACTED:acme-id] and [REDACTED:acme-id], not ACME-12');
    expect(kinds).toEqual({ 'acme-id': 2 });
  });

  it('counts an unnamed pattern as custom', () => {
    const kinds: Record<string, number> = {};
    expect(redactWithPatterns('host db-prod-7 up', ['db-prod-[0-9]+'], kinds)).toBe(
      `host [REDACTED:${CUSTOM_KIND}] up`,
    );
    expect(kinds).toEqual({ custom: 1 });
  });

  it('is idempotent: redacting twice is the same as once, and markers are never matched into', () => {
    // `[A-Z]{8}` would match REDACTED inside every marker; `[a-z]+-key` the kind of one.
    const patterns = [ACME, '[A-Z]{8}', { name: 'k', regex: '[a-z]+-key' }];
    const input = `${redactSecrets(`key ${OPENAI}`)} ACME-123456 ABCDEFGH open-key`;
    const once = redactWithPatterns(input, patterns);
    expect(once).toContain('[REDACTED:openai-key]');
    expect(once).toBe('key [REDACTED:openai-key] [REDACTED:acme-id] [REDACTED:custom] [REDACTED:k]');
    const kinds: Record<string, number> = {};
    expect(redactWithPatterns(once, patterns, kinds)).toBe(once);
    expect(kinds).toEqual({});
  });

  it('storedText with patterns is idempotent over a corpus with secrets and planted matches', () => {
    const patterns = [ACME, 'CASE-[0-9]{4}', { name: 'word', regex: '[a-z]{6,}ing' }];
    withRedactPatterns(patterns, () => {
      for (const [i, turn] of buildCorpus({ bytes: 200_000, secretEvery: 3, seed: 9 }).entries()) {
        const text = `${turn} ACME-${String(100000 + i)} CASE-${1000 + i} password=ACME-${String(200000 + i)}`;
        const once = storedText(text);
        expect(once).not.toMatch(/ACME-[0-9]{6}|CASE-[0-9]{4}/);
        expect(storedText(once)).toBe(once);
      }
    });
  });

  it('leaves every text identical when no pattern is set', () => {
    for (const turn of buildCorpus({ bytes: 200_000, secretEvery: 3, seed: 5 })) {
      expect(redactWithPatterns(turn, [])).toBe(turn);
      expect(redactText(turn)).toBe(redactSecrets(turn));
      expect(withRedactionScope(() => redactText(turn))).toBe(redactSecrets(turn));
    }
  });
});

describe('the redaction scope', () => {
  it('applies the patterns only inside the scope that set them, across awaits', async () => {
    const text = `ticket ACME-123456 key ${OPENAI}`;
    expect(storedText(text)).toBe('ticket ACME-123456 key [REDACTED:openai-key]');
    const inside = await withRedactionScope(async () => {
      expect(hasUserPatterns()).toBe(false);
      setRedactPatterns([ACME]);
      await new Promise((r) => setTimeout(r, 1));
      return storedText(text);
    });
    expect(inside).toBe('ticket [REDACTED:acme-id] key [REDACTED:openai-key]');
    // Nothing stays set once the scope ends, nor leaks into a sibling scope.
    expect(storedText(text)).toBe('ticket ACME-123456 key [REDACTED:openai-key]');
    expect(withRedactionScope(() => hasUserPatterns())).toBe(false);
  });

  it('counts built-in kinds and pattern names together', () => {
    const r = withRedactPatterns([ACME], () => redactTextWithStats(`ACME-111111 ${OPENAI} ACME-222222`));
    expect(r.text).toBe('[REDACTED:acme-id] [REDACTED:openai-key] [REDACTED:acme-id]');
    expect(r.count).toBe(3);
    expect(r.kinds).toEqual({ 'openai-key': 1, 'acme-id': 2 });
    expect(redactUserPatterns('ACME-111111')).toBe('ACME-111111'); // outside: none
  });

  it('refuses to set patterns outside a scope (they would apply to nothing)', () => {
    expect(() => setRedactPatterns([ACME])).toThrow(/outside a redaction scope/);
  });
});
