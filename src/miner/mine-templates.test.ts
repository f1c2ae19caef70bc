import { describe, expect, it } from 'vitest';
import { sessionFollowUps } from './llm-miner.js';
import { mineSessions } from './mine.js';
import { locateCorrection } from './model/locate-correction.js';
import { edit, run, session, write } from './test-helpers.js';

/** Invented prompt commands: each expands to a heading, a fenced argument and its own instructions. */
const command = (title: string, steps: readonly string[]) => (argument: string) =>
  [`# ${title}`, '', '## Input', '', '```text', argument, '```', '', ...steps].join('\n');

const releaseNotes = command('Draft release notes', [
  'Read the input above before anything else.',
  '1. Collect the changes merged since the last tag.',
  '2. Group them by area: features, fixes, chores.',
  '3. Write one line per change, in the past tense.',
  '4. Link each line to its pull request.',
  '5. Put breaking changes first, under their own heading.',
  '6. Save the result as RELEASE_NOTES.md and show it.',
]);

const revise = command('Revise your last answer', [
  'Read the input above before anything else.',
  'Apply it to the answer you gave last, and to nothing else.',
  'Keep every part the input does not mention as it was.',
  'Say in one line what you changed.',
  'Do not start over from scratch.',
  'Do not ask for confirmation first.',
  'Show the revised result in full.',
]);

const notesSession = (key: string, minute: number, version: string, feedback?: string) =>
  session(
    [
      {
        prompt: releaseNotes(version),
        reply: 'Drafted.',
        actions: [
          run('git log --oneline v2.2..HEAD'),
          write('/work/app/RELEASE_NOTES.md', 'chore: bump deps'),
        ],
      },
      ...(feedback === undefined
        ? []
        : [
            {
              prompt: revise(feedback),
              reply: 'Revised.',
              actions: [edit('/work/app/RELEASE_NOTES.md', 'chore: bump deps', '')],
            },
          ]),
    ],
    { key, minute },
  );

describe('mineSessions on prompt commands', () => {
  const night = [
    notesSession('claude:r1', 1, 'v2.3: the upload rework', 'leave out the chores'),
    notesSession('claude:r2', 2, 'v2.4, the billing fixes', 'group the fixes by service'),
    notesSession('claude:r3', 3, 'v3.0 (breaking: new auth)'),
    notesSession('claude:r4', 4, 'v3.1 with the export feature'),
  ];

  it('states each request in the user words under the command it ran', () => {
    const mined = mineSessions(night, { project: '/work/app', maxTasks: 10 });
    expect(mined.tasks.map((t) => t.intent).sort()).toEqual([
      'Draft release notes\nv2.3: the upload rework',
      'Draft release notes\nv2.4, the billing fixes',
      'Draft release notes\nv3.0 (breaking: new auth)',
      'Draft release notes\nv3.1 with the export feature',
    ]);
    expect(mined.clusters).toHaveLength(1);
  });

  it('reads a follow-up command as the words the user typed into it', () => {
    const mined = mineSessions(night, { project: '/work/app', maxTasks: 10 });
    const sentences = mined.clusters.flatMap((c) => c.correctionReports.map((r) => r.sentence));
    expect(sentences.sort()).toEqual(['group the fixes by service', 'leave out the chores']);
  });

  it('finds the request again by its stated intent, and hands the model the typed follow-ups', () => {
    const mined = mineSessions(night, { project: '/work/app', maxTasks: 10 });
    const followUps = sessionFollowUps(mined.tasks, new Map(night.map((s) => [s.key, s])));
    expect(followUps.get('claude:r1')).toEqual(['leave out the chores']);
    expect(followUps.get('claude:r3')).toEqual([]);
    const [first] = night;
    const intent = mined.tasks.find((t) => t.source_sessions[0] === 'claude:r1')?.intent ?? '';
    if (first === undefined) throw new Error('no session');
    expect(locateCorrection(first, intent, 'leave out the chores')).not.toBeNull();
  });
});
