import { describe, expect, it } from 'vitest';
import type { Episode } from './episodes.js';
import { edit, run, write } from './test-helpers.js';
import { contextBeforeFirstAnswer, laterRequests, taskContext } from './task-context.js';

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

const did = (prompt: string, text: string, ...actions: Episode['actions']): Episode => ({
  turnIndex: 0,
  prompt,
  text,
  actions,
});

describe('laterRequests', () => {
  const request = did('add zod to the web app', 'Installed it.', run('npm install zod'));

  it('keeps a later prompt the agent answered with new work, labelled as a new request', () => {
    const episodes = [
      request,
      did(
        'now document the schema helpers in the README',
        'Documented.',
        edit('README.md', '', '## Schemas'),
      ),
    ];
    expect(laterRequests(episodes, 0)).toBe(
      'Later in the same session the user asked, as new requests:\n- now document the schema helpers in the README',
    );
    expect(taskContext([did('add zod', ''), ...episodes], 0)).toBe(
      [
        'The user also wrote, before any answer:',
        '- add zod to the web app',
        '',
        'Later in the same session the user asked, as new requests:',
        '- now document the schema helpers in the README',
      ].join('\n'),
    );
  });

  it('leaves out reactions: a redo of earlier work, a word the answer brought in, feedback, prose-only replies', () => {
    const commit = did('commit the change', 'Committed.', run('git commit -m "Added the parser"'));
    const cases: Episode[][] = [
      // The agent commits again: the prompt corrected the first commit.
      [
        commit,
        did('commit subjects must be imperative', 'Amended.', run('git commit --amend -m "Add the parser"')),
      ],
      // "npm" came from the answer, not from the request.
      [request, did('stop using npm, we are on pnpm workspaces', 'Redone.', run('pnpm add zod'))],
      [request, did('thanks, works now', 'Glad to help.', write('notes.md', 'x'))],
      [request, did('also the mobile app', 'Sure, I would do the same there.')],
      [request, did('continue', 'Going on.', write('b.ts', 'x'))],
    ];
    for (const episodes of cases) expect(laterRequests(episodes, 0)).toBe('');
  });

  it('never shows a prompt the miner read a correction from', () => {
    const episodes = [
      request,
      did('pin the exact version of it', 'Pinned.', edit('package.json', '^3', '3')),
    ];
    expect(laterRequests(episodes, 0)).not.toBe('');
    expect(laterRequests(episodes, 0, ['pin the exact version of it'])).toBe('');
  });
});
