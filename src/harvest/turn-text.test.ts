import { describe, expect, it } from 'vitest';
import { MAX_TURN_TEXT_CHARS, redactTurnText, truncationMarker } from './turn-text.js';

describe('redactTurnText', () => {
  it('leaves a text under the cap whole', () => {
    expect(redactTurnText('fix the bug')).toBe('fix the bug');
    const atCap = 'x'.repeat(MAX_TURN_TEXT_CHARS);
    expect(redactTurnText(atCap)).toBe(atCap);
  });

  it('cuts a longer text at a word boundary and marks the cut with the original length', () => {
    const text = 'alpha beta gamma delta';
    expect(redactTurnText(text, 13)).toBe(`alpha beta ${truncationMarker(text.length, 13)}`);
  });

  it('never splits a surrogate pair', () => {
    const text = `${'a'.repeat(9)}😀${'b'.repeat(10)}`;
    expect(redactTurnText(text, 10)).toBe(`${'a'.repeat(9)}${truncationMarker(text.length, 10)}`);
  });
});
