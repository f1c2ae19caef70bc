import { describe, expect, it } from 'vitest';
import { jsonCandidates } from './json-reply.js';

/** The best candidate, as `askJson` reads it first. */
function extractJson(text: string): { value: unknown } | null {
  for (const value of jsonCandidates(text)) return { value };
  return null;
}

describe('jsonCandidates', () => {
  it('reads a fenced block, ignoring brackets in the prose around it', () => {
    const text = 'Here [as asked]:\n```json\n{"edits": [{"op": "add"}]}\n```\nSee [1].';
    expect(extractJson(text)?.value).toEqual({ edits: [{ op: 'add' }] });
  });

  it('finds the first valid value in bare prose, skipping bracketed words and braces inside strings', () => {
    const text =
      'I looked at [the failures] and {thought}. {"hard": 1, "soft": 0.5, "rationale": "a } b ] c"} trailing ]';
    expect(extractJson(text)?.value).toEqual({ hard: 1, soft: 0.5, rationale: 'a } b ] c' });
  });

  it('reads a bare array and escaped quotes', () => {
    expect(extractJson('[{"a": "say \\"hi\\" [x]"}]')?.value).toEqual([{ a: 'say "hi" [x]' }]);
  });

  it('returns null when there is no JSON value', () => {
    expect(extractJson('no json here {not: json} [nor this')).toBeNull();
    expect(extractJson('')).toBeNull();
  });
});
