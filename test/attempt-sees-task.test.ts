// The target sees the task, not the answer: over a corpus with planted corrections and feedback, no
// attempt request a real backend sends holds a correction, a thanks or a "continue" line; what the
// user asked before the first answer is there, and a later new request labelled as one.
import { describe, expect, it } from 'vitest';
import { ruleChecks } from '../src/core/task.js';
import { mineSessions } from '../src/miner/mine.js';
import { edit, run, session } from '../src/miner/test-helpers.js';
import { queueBackend } from './helpers/queue-llm.js';

const CORRECTIONS = [
  'No, use pnpm not npm',
  'stop using npm, we are on pnpm workspaces',
  'wrong package manager: it has to be pnpm',
  'use `vitest --run`, watch mode just hangs',
  'run it with vitest --run please, the watcher never exits',
];
const FEEDBACK = ['thanks, works now', 'lgtm', 'continue'];
const BEFORE_ANSWER = 'and pin it to the exact version, no caret range';
const LATER_REQUEST = 'then write a changelog entry for release 2.4';

const install = (key: string, minute: number, pkg: string, correction: string, early = false) =>
  session(
    [
      { prompt: `add ${pkg} to the web app` },
      ...(early ? [{ prompt: 'continue' }, { prompt: BEFORE_ANSWER }] : []),
      {
        prompt: early ? 'continue' : `install ${pkg} there`,
        reply: `Installed ${pkg}.`,
        actions: [run(`npm install ${pkg}`)],
      },
      {
        prompt: correction,
        reply: 'Redone with pnpm.',
        actions: [run('rm -f package-lock.json'), run(`pnpm add ${pkg}`)],
      },
      { prompt: 'thanks, works now', reply: 'Glad to help.' },
    ],
    { key, minute },
  );

const tests = (key: string, minute: number, file: string, correction: string) =>
  session(
    [
      { prompt: `run the tests for ${file}`, reply: 'Running.', actions: [run(`npx vitest ${file}`)] },
      { prompt: correction, reply: 'Ran once.', actions: [run(`npx vitest --run ${file}`)] },
      { prompt: 'lgtm', reply: 'Thanks.' },
    ],
    { key, minute },
  );

const corpus = [
  install('claude:i1', 1, 'zod', CORRECTIONS[0] as string),
  install('claude:i2', 2, 'dayjs', CORRECTIONS[1] as string, true),
  install('claude:i3', 3, 'lodash', CORRECTIONS[2] as string),
  tests('claude:t1', 4, 'src/a.test.ts', CORRECTIONS[3] as string),
  tests('claude:t2', 5, 'src/b.test.ts', CORRECTIONS[4] as string),
  tests('claude:t3', 6, 'src/c.test.ts', CORRECTIONS[3] as string),
  session(
    [
      { prompt: 'rename the helper', reply: 'Done.', actions: [edit('/work/app/a.ts', 'old', 'new')] },
      { prompt: LATER_REQUEST, reply: 'Added.', actions: [edit('/work/app/CHANGELOG.md', '', '- 2.4')] },
    ],
    {
      key: 'claude:r1',
      minute: 7,
    },
  ),
];

describe('attempt requests over a corpus with planted corrections', () => {
  it('hold the request and what was asked before the first answer, never a correction or feedback', async () => {
    const mined = mineSessions(corpus, { project: '/work/app', maxTasks: 20 });
    // The corpus's corrections were mined (so the test can fail): each check names its sentence.
    const because = mined.tasks.flatMap((t) => ruleChecks(t).map((c) => c.because));
    expect(because.filter((s) => s !== undefined && CORRECTIONS.includes(s)).length).toBeGreaterThan(0);

    const b = queueBackend(mined.tasks.map(() => 'pnpm add zod'));
    for (const task of mined.tasks) await b.llm.attempt({ task, skill: '# Skill', memory: '', sampleId: 0 });
    const bodies = b.provider.sent.map((req) => req.messages.map((m) => m.content).join('\n'));
    expect(bodies).toHaveLength(mined.tasks.length);
    for (const body of bodies) {
      for (const sentence of [...CORRECTIONS, ...FEEDBACK]) expect(body).not.toContain(sentence);
      expect(body).not.toMatch(/follow-up/i);
    }
    const early = b.provider.sent.find((_, i) => mined.tasks[i]?.source_sessions[0] === 'claude:i2');
    expect(early?.messages[0]?.content).toContain(
      `add dayjs to the web app\n\nThe user also wrote, before any answer:\n- ${BEFORE_ANSWER}`,
    );
    // A later prompt answered with new work is a new request, and says so.
    const rename = b.provider.sent.find((_, i) => mined.tasks[i]?.source_sessions[0] === 'claude:r1');
    expect(rename?.messages[0]?.content).toContain(
      `Later in the same session the user asked, as new requests:\n- ${LATER_REQUEST}`,
    );
  });
});
