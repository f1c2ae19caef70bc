import { describe, expect, it } from 'vitest';
import type { Episode } from './episodes.js';
import { chooseRequest } from './request.js';
import { corpusTemplates, statedRequest, statesPrompt, typedEpisodes, typedPrompt } from './templates.js';
import { run } from './test-helpers.js';

const ep = (prompt: string, actions: Episode['actions'] = [], text = 'ok'): Episode => ({
  turnIndex: 0,
  prompt,
  text,
  actions,
});

/** An invented prompt command whose argument goes in a fence under a heading at the top. */
const releaseNotes = (argument: string): string =>
  [
    '# Draft release notes',
    '',
    '## Request',
    '',
    '```text',
    argument,
    '```',
    '',
    'Read the request above before anything else.',
    '',
    '## Steps',
    '',
    '1. Collect the changes merged since the last tag.',
    '2. Group them by area: features, fixes, chores.',
    '3. Write one line per change, in the past tense.',
    '4. Link each line to its pull request.',
    '5. Put breaking changes first, under their own heading.',
    '6. Save the result as RELEASE_NOTES.md and show it.',
  ].join('\n');

/** An invented template with no argument: the user runs it, then says what to look at. */
const reviewChecklist = [
  'You are reviewing code for this team. Apply the checklist below to what the user names next.',
  '- Names say what a thing is, not how it is built.',
  '- Every public function has a test that would fail without it.',
  '- Errors carry enough context to act on.',
  '- No secret, token or key is written to a log.',
  '- Comments say why, not what.',
  '- Dead code is removed, not commented out.',
  '- The change does one thing.',
  'Ask which files to review if the user has not said.',
].join('\n');

describe('typedPrompt', () => {
  it('takes the fenced argument under a heading at the top, named by the template', () => {
    const args = ['v2.3: the upload rework', 'v2.4, the billing fixes', 'v3.0 (breaking: new auth)'];
    const index = corpusTemplates(args.map((a) => [ep(releaseNotes(a)), ep('thanks')]));
    expect(typedPrompt(releaseNotes('v2.4, the billing fixes'), index)).toEqual({
      text: 'v2.4, the billing fixes',
      template: { name: 'Draft release notes' },
    });
  });

  it('takes a differing fence for the argument even when the user fills in the same form each time', () => {
    // One form with only its item number changing: its lines recur, but the fence still differs.
    const form = (n: number) => `Write the spec for item ${n}.\nKeep it short.\nCite the source file.`;
    const sessions = [1, 2, 3, 4].map((n) => [ep(releaseNotes(form(n)))]);
    const index = corpusTemplates(sessions);
    expect(typedPrompt(releaseNotes(form(3)), index).text).toBe(form(3));
  });

  it('keeps the user lines that remain around a template that has no argument slot', () => {
    const appended = (args: string) => `${reviewChecklist}\n\nArguments: ${args}`;
    const index = corpusTemplates([
      [ep(appended('src/upload.ts'))],
      [ep(appended('the retry logic in billing'))],
      [ep(appended('everything under api/'))],
    ]);
    expect(typedPrompt(appended('the retry logic in billing'), index)).toEqual({
      text: 'Arguments: the retry logic in billing',
      template: {
        name: 'You are reviewing code for this team. Apply the checklist below to what the user names next.',
      },
    });
  });

  it('reduces a long prompt that opens many sessions to nothing typed', () => {
    const index = corpusTemplates([1, 2, 3].map(() => [ep(reviewChecklist), ep('src/upload.ts please')]));
    expect(typedPrompt(reviewChecklist, index).text).toBe('');
  });

  it('never takes a short instruction the user pastes into every session for a template', () => {
    const pasted = 'Use pnpm, keep commits small.\nRun the tests before you say done.\nAdd a CSV export.';
    const index = corpusTemplates([1, 2, 3, 4, 5].map(() => [ep(pasted)]));
    expect(typedPrompt(pasted, index)).toEqual({ text: pasted, template: null });
  });

  it('keeps long prompts that merely share a greeting and a signature', () => {
    const letter = (topic: string, n: number) =>
      [
        'Hi!',
        `I need a hand with ${topic}.`,
        `It started failing after release ${n}, only on the staging cluster.`,
        `The logs show a timeout in the ${topic} worker after about thirty seconds.`,
        `Could you find out why the ${topic} worker stalls there?`,
        `Please do not touch the ${topic} schema while you are at it.`,
        `A short note on the cause of the ${topic} stall is enough.`,
        'Thanks,',
        'Dana',
      ].join('\n');
    const topics = ['search', 'billing', 'upload', 'export'];
    const index = corpusTemplates(topics.map((topic, n) => [ep(letter(topic, n))]));
    expect(typedPrompt(letter('billing', 1), index)).toEqual({ text: letter('billing', 1), template: null });
  });
});

describe('a template run bare', () => {
  const sessions = [
    [
      ep(reviewChecklist, [], 'Which files should I review?'),
      ep('the retry logic in billing', [run('git diff')]),
    ],
    [ep(reviewChecklist, [], 'What should I look at?'), ep('src/upload.ts, the new part', [run('git log')])],
    [ep(reviewChecklist, [run('git diff --stat')], 'Reviewed the staged change.')],
  ];
  const index = corpusTemplates(sessions);

  it('leaves the request to the turn where the user picks the job', () => {
    const typed = typedEpisodes(sessions[0] ?? [], index);
    expect(typed[0]?.prompt).toBe('');
    expect(chooseRequest(typed, new Set())).toEqual({
      index: 1,
      skipped: [{ index: 0, reason: 'template' }],
    });
  });

  it('is the request itself when the agent worked on it, stated by its name', () => {
    const typed = typedEpisodes(sessions[2] ?? [], index);
    const choice = chooseRequest(typed, new Set());
    expect(choice.index).toBe(0);
    const stated = statedRequest(typed[0] ?? ep(''));
    expect(stated).toBe(
      'You are reviewing code for this team. Apply the checklist below to what the user names next.',
    );
    expect(statesPrompt(reviewChecklist, stated)).toBe(true);
  });
});

describe('statesPrompt', () => {
  it('finds the expansion a stated request was read from, and only a long one', () => {
    const args = ['v2.3: the upload rework', 'v2.4, the billing fixes', 'v3.0 (breaking: new auth)'];
    const index = corpusTemplates(args.map((a) => [ep(releaseNotes(a))]));
    const [typed] = typedEpisodes([ep(releaseNotes('v2.3: the upload rework'))], index);
    const stated = statedRequest(typed ?? ep(''));
    expect(stated).toBe('Draft release notes\nv2.3: the upload rework');
    expect(statesPrompt(releaseNotes('v2.3: the upload rework'), stated)).toBe(true);
    expect(statesPrompt(releaseNotes('v2.4, the billing fixes'), stated)).toBe(false);
    expect(statesPrompt('no, use pnpm', 'no')).toBe(false);
  });
});
