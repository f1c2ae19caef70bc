import { describe, expect, it } from 'vitest';
import { negativeWordCheck } from '../../core/negative-check.js';
import { emptyTask, type TaskRecord } from '../../core/task.js';
import { scoreAnswer } from '../../replay/score.js';
import { MockBackend } from '../mock/mock-backend.js';
import type { ReflectRequest, Trajectory } from '../types.js';
import { checkInWords } from './reflect-evidence.js';
import { queueBackend } from '../../../test/helpers/queue-llm.js';

// Replies in the shape a strong model gives: a short JSON object with one scoped rule.
const EDIT_REPLY =
  '{"edits": [{"op": "add", "content": "When installing packages: use pnpm, never npm.", "anchor": "", "rationale": "t-pnpm"}]}';

const pnpmTask = emptyTask({
  id: 't-pnpm',
  intent: 'Add zod to the api package',
  reference_kind: 'rule',
  judge: {
    kind: 'rule',
    checks: [
      { op: 'contains', arg: 'pnpm', because: 'stop using npm, we are on pnpm workspaces' },
      { op: 'not_contains', arg: 'npm', because: 'stop using npm, we are on pnpm workspaces' },
    ],
  },
});
const vitestTask = emptyTask({
  id: 't-vitest',
  intent: 'Run the tests',
  reference_kind: 'rule',
  judge: {
    kind: 'rule',
    checks: [{ op: 'contains', arg: 'vitest --run', because: 'use `vitest --run`, watch mode just hangs' }],
  },
});
const commitTask = emptyTask({ id: 't-commit', intent: 'Commit the fix', outcome: 'fail' });
const capitalTrain = emptyTask({
  id: 'q-train',
  intent: 'What is the capital of Australia?',
  reference_kind: 'exact',
  reference: 'Canberra',
});

/** A trajectory scored by the real judges, as a night or a train step hands it to reflect. */
async function judged(task: TaskRecord, response: string): Promise<Trajectory> {
  const { usage: _usage, ...score } = await scoreAnswer(task, response, [], new MockBackend());
  return { task, response, score };
}

function request(over: Partial<ReflectRequest>): ReflectRequest {
  return {
    target: 'skill',
    doc: '# Skill\n\nAnswer briefly.\n',
    otherDoc: '',
    failures: [],
    successes: [],
    editBudget: 2,
    rejected: [],
    preferences: '',
    ...over,
  };
}

async function reflectBody(req: ReflectRequest): Promise<string> {
  const b = queueBackend([EDIT_REPLY]);
  const result = await b.llm.reflect(req);
  expect(result.edits.map((e) => e.content)).toEqual(['When installing packages: use pnpm, never npm.']);
  const sent = b.provider.sent[0];
  return `${sent?.system ?? ''}\n${sent?.messages.map((m) => m.content).join('\n') ?? ''}`;
}

describe('checkInWords', () => {
  it('says the miner\'s word-bounded "never X" as the rule, whatever its form', () => {
    const said = 'must not mention the word `npm` anywhere (as a whole word), not even to say it was avoided';
    expect(checkInWords(negativeWordCheck('npm'))).toBe(said);
    expect(checkInWords({ op: 'not_mentions', arg: 'npm' })).toBe(said);
    expect(checkInWords({ op: 'mentions', arg: 'pnpm' })).toBe(
      'must mention the word `pnpm` (as a whole word)',
    );
  });

  it('says an action check as what the answer must do, with every form it accepts', () => {
    expect(checkInWords({ op: 'runs', arg: 'vitest --run', any_of: ['vitest run'] })).toBe(
      'must run a command with `vitest --run` (or `vitest run`) in it (a "$ <command>" line)',
    );
    expect(checkInWords({ op: 'not_edits', arg: 'dist/' })).toBe(
      'must not write, edit or delete any file at `dist/` (saying so in prose is fine)',
    );
    expect(checkInWords({ op: 'not_writes', arg: 'print' })).toBe(
      'must not write `print` into any file (saying so in prose is fine)',
    );
    expect(checkInWords({ op: 'not_mentions', arg: 'npm', any_of: ['npx'] })).toBe(
      'must not mention the word `npm` (or `npx`) anywhere (as a whole word), not even to say it was avoided',
    );
  });
});

describe('the reflect request', () => {
  it('states every failed check in words with the user sentence it came from, never as a code', async () => {
    const body = await reflectBody(
      request({
        failures: [
          await judged(pnpmTask, 'Run `npm install zod` in packages/api.'),
          await judged(vitestTask, 'Run `npx vitest` and wait for the results.'),
        ],
      }),
    );
    expect(body).toContain(
      'The answer must not mention `npm` anywhere, not even to say it was avoided — from the user\'s words: "stop using npm, we are on pnpm workspaces"',
    );
    expect(body).toContain('The answer must contain the literal text `pnpm`');
    expect(body).toContain(
      'The answer must contain the literal text `vitest --run` — from the user\'s words: "use `vitest --run`, watch mode just hangs"',
    );
    expect(body).not.toContain('contains=');
    expect(body).not.toContain('failed:');
  });

  it('keeps answers scored by their old session apart, labelled, not among the failures', async () => {
    const body = await reflectBody(
      request({
        failures: [
          await judged(pnpmTask, 'npm install zod'),
          await judged(commitTask, 'git commit -m "Fixed the bug"'),
        ],
      }),
    );
    const failuresSection = body.slice(
      body.indexOf('# Failed replays'),
      body.indexOf('# Replays that passed'),
    );
    expect(failuresSection).toContain('t-pnpm');
    expect(failuresSection).not.toContain('t-commit');
    const unchecked = body.slice(body.indexOf('# Replays without a check'));
    expect(unchecked).toContain('## Task t-commit');
    expect(unchecked).toContain("No check: the user's original session did not end well");
    expect(body).not.toContain('outcome-derived');
  });

  it('shows the expected answer of a train task, never of a val or test task', async () => {
    const response = 'The capital is Sydney.';
    const body = await reflectBody(
      request({
        failures: [
          await judged(capitalTrain, response),
          await judged({ ...capitalTrain, id: 'q-val', split: 'val', reference: 'Wellington' }, response),
          await judged({ ...capitalTrain, id: 'q-test', split: 'test', reference: 'Ottawa' }, response),
        ],
      }),
    );
    expect(body).toContain('Expected answer:\nCanberra');
    expect(body).toContain('The answer does not contain the expected answer (partial credit 0.00).');
    expect(body).not.toContain('exact-match=');
    expect(body).not.toContain('Wellington');
    expect(body).not.toContain('Ottawa');
  });

  it('renders the meta note', async () => {
    const body = await reflectBody(
      request({
        failures: [await judged(pnpmTask, 'npm i zod')],
        metaNote: 'Epoch 2: the pnpm rule helped; rules about commit length did not.',
      }),
    );
    expect(body).toContain('# Note from earlier epochs\n\nEpoch 2: the pnpm rule helped');
  });

  it('says when the skill has no learned block yet instead of naming markers that do not exist', async () => {
    const failures = [await judged(pnpmTask, 'npm i zod')];
    const absent = await reflectBody(request({ failures, learnedBlock: 'absent' }));
    expect(absent).toContain('it has no learned block yet');
    expect(absent).not.toContain('LEARNED START');
    const empty = await reflectBody(request({ failures, learnedBlock: 'empty' }));
    expect(empty).toContain('it has no rule yet');
  });

  it('reflects on successes alone (reflect_successes) on a real backend', async () => {
    const body = await reflectBody(request({ successes: [await judged(vitestTask, 'npx vitest --run')] }));
    const failuresSection = body.slice(
      body.indexOf('# Failed replays'),
      body.indexOf('# Replays that passed'),
    );
    expect(failuresSection).toContain('(none)');
    expect(body).toContain('## Task t-vitest');
    expect(body).toContain('Every check passed.');
  });
});
