import { describe, expect, it } from 'vitest';
import { simpleCommands } from './shell-words.js';

describe('simpleCommands', () => {
  it('splits at &&, ||, ;, | and newlines and drops environment assignments', () => {
    expect(
      simpleCommands('CI=1 FOO=bar pnpm vitest --run && git status --short | head -3; echo ok\nls'),
    ).toEqual([
      { program: 'pnpm', args: ['vitest', '--run'] },
      { program: 'git', args: ['status', '--short'] },
      { program: 'head', args: ['-3'] },
      { program: 'echo', args: ['ok'] },
      { program: 'ls', args: [] },
    ]);
  });

  it('keeps quoted words whole and takes the base name of the program', () => {
    expect(simpleCommands(`/usr/bin/git commit -m "fix: a; b && c" 'x y'`)).toEqual([
      { program: 'git', args: ['commit', '-m', 'fix: a; b && c', 'x y'] },
    ]);
  });

  it('returns nothing for an empty or assignment-only line', () => {
    expect(simpleCommands('')).toEqual([]);
    expect(simpleCommands('A=1')).toEqual([]);
  });
});
