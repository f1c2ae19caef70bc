import { describe, expect, it } from 'vitest';
import { displayText, messageLine, terminalText } from './output.js';

describe('terminal output of untrusted text', () => {
  it('terminalText drops escape sequences and control characters, keeps lines and tabs', () => {
    const hostile =
      'rule\u001b[31m red\u001b[0m\n\tindented\u0007 bell\u001b]0;title\u0007 osc\r\nnext\u202e rtl\u0000 nul\n';
    expect(terminalText(hostile)).toBe('rule red\n\tindented bell osc\nnext rtl nul\n');
  });

  it('displayText makes one clean line', () => {
    expect(displayText('a\u001b[2J\nb\tc\u0085d')).toBe('a b c d');
  });

  it('messageLine keeps a message on its line, with every character but the controls', () => {
    expect(messageLine('skipped /p/x\u001b]0;t\u0007y\n[sleep] fake\tz: no  manifest')).toBe(
      'skipped /p/xy [sleep] fake z: no  manifest',
    );
  });
});
