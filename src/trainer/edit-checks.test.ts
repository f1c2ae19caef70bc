import { describe, expect, it } from 'vitest';
import { negativeWordCheck } from '../core/negative-check.js';
import type { Check } from '../core/task.js';
import { statesCheck } from './edit-checks.js';

const says = (content: string, check: Check): boolean => statesCheck({ content }, check);

describe('statesCheck', () => {
  it('reads a term as a whole word, in any of its forms', () => {
    expect(says('Use `pnpm add` for dependencies.', { op: 'contains', arg: 'pnpm' })).toBe(true);
    expect(says('Use pnpm for dependencies.', { op: 'not_contains', arg: 'npm' })).toBe(false);
    expect(says('Never use npm here.', negativeWordCheck('npm'))).toBe(true);
    expect(
      says('Run the tests as `vitest run`.', { op: 'runs', arg: 'vitest --run', any_of: ['vitest run'] }),
    ).toBe(true);
    expect(says('End with a **Verdict:** line.', { op: 'section_present', arg: 'Verdict' })).toBe(true);
    expect(says('Search before answering.', { op: 'tool_called', arg: 'search' })).toBe(true);
  });

  it('reads a length limit as its number, however the digits are grouped', () => {
    const limit = { op: 'max_chars', arg: 1200 };
    expect(says('Keep the entire answer under 1,200 characters.', limit)).toBe(true);
    expect(says('Keep the entire answer under 1200 characters.', limit)).toBe(true);
    expect(says('Keep the entire answer under 12,000 characters.', limit)).toBe(false);
    expect(says('Use at most five short bullet points.', limit)).toBe(false);
  });

  it('reads the user’s sentence a check was learned from', () => {
    const check = { op: 'regex', arg: '^feat', because: 'Commit subjects start with the change type.' };
    expect(says('When the task is "commit": commit subjects start with the change type.', check)).toBe(true);
    expect(says('Write good commit messages.', check)).toBe(false);
  });

  it('says nothing for a check without a stated requirement', () => {
    expect(says('Answer the question.', { op: 'no_refusal' })).toBe(false);
    expect(says('a', { op: 'contains', arg: 'a' })).toBe(false);
  });
});
