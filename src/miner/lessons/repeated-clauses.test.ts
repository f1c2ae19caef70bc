import { describe, expect, it } from 'vitest';
import { repeatedClauses, type PromptRef } from './repeated-clauses.js';

const ref = (sessionKey: string, kind: number, prompt: string, paused: boolean): PromptRef => ({
  sessionKey,
  kind,
  episode: 0,
  prompt,
  paused,
});

describe('repeatedClauses', () => {
  const instruction = 'list your plan first, then wait for my approval';

  it('keeps an instruction repeated around different requests of two kinds, where the agent paused', () => {
    const found = repeatedClauses([
      ref('s1', 0, `rename the user table columns. ${instruction}`, true),
      ref('s2', 1, `fix the header layout on mobile. ${instruction}`, true),
      ref('s3', 1, `bump the version. ${instruction}`, false),
    ]);
    expect(found.map((r) => [r.text, r.occurrences.map((o) => o.sessionKey)])).toEqual([
      ['list your plan first', ['s1', 's2', 's3']],
      ['then wait for my approval', ['s1', 's2', 's3']],
    ]);
  });

  it('drops a clause the agent just worked through, one kind alone, or the same prompt sent again', () => {
    expect(
      repeatedClauses([
        ref('s1', 0, `rename the user table columns. ${instruction}`, false),
        ref('s2', 1, `fix the header layout on mobile. ${instruction}`, false),
      ]),
    ).toEqual([]);
    expect(
      repeatedClauses([
        ref('s1', 0, 'install zod, and make sure the lockfile is updated', true),
        ref('s2', 0, 'install dayjs, and make sure the lockfile is updated', true),
      ]),
    ).toEqual([]);
    expect(
      repeatedClauses([
        ref('s1', 0, `rename the columns. ${instruction}`, true),
        ref('s2', 1, `rename the columns. ${instruction}`, true),
      ]),
    ).toEqual([]);
  });

  it('never keeps a phrase of common words or a clause naming a path', () => {
    const common = new Set(['where', 'do', 'i', 'start']);
    expect(
      repeatedClauses(
        [
          ref('s1', 0, 'kafka keeps failing, where do I start', true),
          ref('s2', 1, 'vim is slow, where do I start', true),
        ],
        common,
      ),
    ).toEqual([]);
    expect(
      repeatedClauses([
        ref('s1', 0, 'fix it, see ./docs/spec.md for the rules', true),
        ref('s2', 1, 'add it, see ./docs/spec.md for the rules', true),
      ]),
    ).toEqual([]);
  });
});
