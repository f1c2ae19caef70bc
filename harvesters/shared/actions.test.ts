import { describe, expect, it } from 'vitest';
import {
  capText,
  MAX_ACTIONS_PER_TURN,
  MAX_TARGET_CHARS,
  MAX_TEXT_CHARS,
  pushActions,
  stripControlChars,
  toolAction,
} from './actions.js';

describe('action caps', () => {
  it('strips control characters except newline and tab', () => {
    expect(stripControlChars('a\u0000b\u0007c\td\r\ne\u001b[0mf\u007fg\u0085h')).toBe('abc\td\ne[0mfgh');
    expect(stripControlChars('plain text')).toBe('plain text');
  });

  it('cuts deterministically, never inside a surrogate pair, and drops a word straddling the cut', () => {
    expect(capText('abc', 10)).toBe('abc');
    expect(capText('x'.repeat(20), 10)).toBe('x'.repeat(10)); // one long word: a hard cut
    expect(capText('abc def ghij', 10)).toBe('abc def ');
    expect(capText('abc defgh ij', 9)).toBe('abc defgh');
    expect(capText(`${'a'.repeat(9)}😀b`, 10)).toBe('a'.repeat(9));
    // Control characters are removed before cutting, also when they fill the head of a long text.
    expect(capText(`${'\u0007'.repeat(20)}${'a'.repeat(30)}`, 10)).toBe('a'.repeat(10));
    expect(capText(`a\u0007${'b'.repeat(30)}`, 10)).toBe(`a${'b'.repeat(9)}`);
    // A key cut in half would no longer look like a key to the redaction: it goes whole.
    const text = `token ${'w '.repeat(995)}sk-ant-api03-${'A'.repeat(40)}`;
    expect(capText(text, MAX_TEXT_CHARS).includes('sk-')).toBe(false);
  });

  it('caps target, texts and the number of actions; other has no target', () => {
    const a = toolAction('edit', 'Edit', 'p'.repeat(500), 'n'.repeat(3000), 'o'.repeat(3000));
    expect([a.target.length, a.added.length, a.removed.length]).toEqual([
      MAX_TARGET_CHARS,
      MAX_TEXT_CHARS,
      MAX_TEXT_CHARS,
    ]);
    expect(toolAction('other', 'TodoWrite', 'ignored')).toEqual({
      kind: 'other',
      tool: 'TodoWrite',
      target: '',
      added: '',
      removed: '',
    });
    const list = [toolAction('run', 'Bash', 'ls')];
    pushActions(
      list,
      Array.from({ length: 100 }, () => toolAction('read', 'Read', 'f')),
    );
    expect(list).toHaveLength(MAX_ACTIONS_PER_TURN);
  });
});
