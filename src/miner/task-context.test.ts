import { describe, expect, it } from 'vitest';
import type { Episode } from './episodes.js';
import { run } from './test-helpers.js';
import { contextBeforeFirstAnswer } from './task-context.js';

const silent = (prompt: string): Episode => ({ turnIndex: 0, prompt, text: '', actions: [] });
const answered = (prompt: string): Episode => ({ ...silent(prompt), text: 'Done.', actions: [run('make')] });

describe('contextBeforeFirstAnswer', () => {
  it('keeps what the user added before the first answer, without nudges or feedback', () => {
    const episodes = [
      silent('write the release notes'),
      silent('go on'),
      silent('thanks'),
      answered('cover the 2.3 changes only'),
      answered('no, use the changelog format we agreed on'),
    ];
    expect(contextBeforeFirstAnswer(episodes, 0)).toBe(
      'The user also wrote, before any answer:\n- cover the 2.3 changes only',
    );
  });

  it('adds nothing when the request itself was answered, or never answered', () => {
    expect(contextBeforeFirstAnswer([answered('fix the build'), answered('use pnpm, not npm')], 0)).toBe('');
    expect(contextBeforeFirstAnswer([silent('fix the build'), silent('and the lint')], 0)).toBe('');
  });
});
