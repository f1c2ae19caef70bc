import { describe, expect, it } from 'vitest';
import { commonPromptWords } from './rules/literal.js';
import { commandWordsOf, stopWords } from './stop-words.js';

describe('stop words', () => {
  it('are function words of many languages', () => {
    const stop = stopWords();
    for (const word of ['the', 'und', 'что', 'no']) expect(stop.has(word)).toBe(true);
    expect(stop.has('pnpm')).toBe(false);
  });

  it('never hide a word the project runs as a command (Polish "jest" is the test runner here)', () => {
    expect(stopWords().has('jest')).toBe(true);
    const commands = commandWordsOf(['pnpm exec jest src/a.test.ts', 'FOO=1 /usr/bin/make test']);
    expect([...commands].sort()).toEqual(['exec', 'jest', 'make', 'pnpm', 'test']);
    expect(stopWords(commands).has('jest')).toBe(false);
    const common = commonPromptWords(['we run the tests with vitest, not jest'], commands);
    expect(common.has('jest')).toBe(false);
    expect(common.has('the')).toBe(true);
  });
});
