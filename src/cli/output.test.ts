import { describe, expect, it } from 'vitest';
import { displayText, terminalText } from './output.js';

describe('terminal output of untrusted text', () => {
  it('terminalText drops escape sequences and control characters, keeps lines and tabs', () => {
    const hostile =
      'rule\u001b[31m red\u001b[0m\n\tindented\u0007 bell\u001b]0;title\u0007 osc\r\nnext\u202e rtl\u0000 nul\n';
    expect(terminalText(hostile)).toBe('rule red\n\tindented bell osc\nnext rtl nul\n');
  });

  it('displayText makes one clean line', () => {
    expect(displayText('a\u001b[2J\nb\tc\u0085d')).toBe('a b c d');
  });
});
