import { describe, expect, it } from 'vitest';
import { oneLine } from './one-line.js';

describe('oneLine', () => {
  it('drops escape sequences and folds control characters and line breaks into single spaces', () => {
    expect(oneLine('\u001b[31mno,\u001b[0m use\tpnpm\n\n here\u2028 ')).toBe('no, use pnpm here');
  });
});
