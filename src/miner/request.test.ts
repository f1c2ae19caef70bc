import { describe, expect, it } from 'vitest';
import type { Episode } from './episodes.js';
import { chooseRequest, corpusPreambles, isPlaceholder } from './request.js';
import { read, run } from './test-helpers.js';

const ep = (prompt: string, actions: Episode['actions'] = [], text = 'ok'): Episode => ({
  turnIndex: 0,
  prompt,
  text,
  actions,
});

describe('chooseRequest', () => {
  const preambleSessions: Episode[][] = [
    'fix the build',
    'add a flag',
    'rename the module',
    'write the docs',
  ].map((request) => [ep('load claude.md', [read('/p/CLAUDE.md')]), ep(request, [run('make build')])]);

  it('skips an opener this corpus repeats before other requests', () => {
    const preambles = corpusPreambles(preambleSessions);
    expect([...preambles]).toEqual(['load claude.md']);
    expect(chooseRequest(preambleSessions[0] ?? [], preambles)).toEqual({
      index: 1,
      skipped: [{ index: 0, reason: 'preamble' }],
    });
  });

  it('never takes a request that recurs word for word for a preamble: the agent works on it at once', () => {
    const repeated = [1, 2, 3, 4].map(() => [
      ep('suggest a commit message for what is staged', [run('git diff --staged')]),
      ep('thanks'),
    ]);
    expect(corpusPreambles(repeated).size).toBe(0);
  });

  it('skips a shell command the user typed and the agent ran, when a later prompt picks the job', () => {
    const job = ep('bump the api version and tag a release', [run('npm version minor')]);
    expect(chooseRequest([ep('git status', [run('git status')]), job], new Set())).toEqual({
      index: 1,
      skipped: [{ index: 0, reason: 'command' }],
    });
    expect(chooseRequest([ep('touch notes.md', [run('touch /p/notes.md')]), job], new Set()).index).toBe(1);
    // A command alone is the job; a short request the agent carried out with another program is too.
    expect(chooseRequest([ep('git status', [run('git status')])], new Set()).index).toBe(0);
    expect(chooseRequest([ep('bump zod', [run('pnpm add zod@latest')]), job], new Set()).index).toBe(0);
  });

  it('skips a short opener the agent only looked around for, when a later prompt asks for the job', () => {
    const job = ep('the invoice export drops its last row, find out why and fix it', [run('npm test')]);
    expect(chooseRequest([ep('you there?', [read('/p/README.md')]), job], new Set())).toEqual({
      index: 1,
      skipped: [{ index: 0, reason: 'greeting' }],
    });
    // Alone, a short request answered by reading is the request.
    expect(chooseRequest([ep('explain auth.ts', [read('/p/auth.ts')])], new Set()).index).toBe(0);
  });

  it('skips greetings and placeholders; a session with nothing else asked for nothing', () => {
    expect(chooseRequest([ep('hi'), ep('add zod to the app', [run('pnpm add zod')])], new Set()).index).toBe(
      1,
    );
    expect(
      chooseRequest([ep('[REDACTED_PROMPT]'), ep('add zod', [run('pnpm add zod')])], new Set()).index,
    ).toBe(1);
    expect(chooseRequest([ep('hi')], new Set())).toEqual({
      index: -1,
      skipped: [{ index: 0, reason: 'greeting' }],
    });
    expect(chooseRequest([ep('[REDACTED_PROMPT]')], new Set()).index).toBe(-1);
    expect(chooseRequest([ep('你好')], new Set()).index).toBe(-1);
  });

  it('keeps a short request the agent worked on', () => {
    expect(chooseRequest([ep('fix lint', [run('make lint')])], new Set()).index).toBe(0);
  });

  it('recognises placeholder-only prompts', () => {
    expect(isPlaceholder('[REDACTED_PROMPT]')).toBe(true);
    expect(isPlaceholder(' [REDACTED:api_key] [REDACTED:token] ')).toBe(false);
    expect(isPlaceholder('[REDACTED_PROMPT] and more')).toBe(false);
  });
});
