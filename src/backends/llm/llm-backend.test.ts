import { describe, expect, it } from 'vitest';
import { REPLAY_MARKER } from '../../core/machine-sessions.js';
import { emptyTask } from '../../core/task.js';
import { z } from 'zod';
import { queueBackend } from '../../../test/helpers/queue-llm.js';
import { labelSessions } from '../../miner/model/label-sessions.js';
import { mineWithModel } from '../../miner/llm-miner.js';
import { memorySessionLabels } from '../../store/session-labels-repo.js';
import { proposeTasksVars } from './llm-backend.js';

const backend = queueBackend;

const failure = {
  task: emptyTask({ id: 't1', intent: 'Add zod' }),
  response: 'npm install zod',
  score: { hard: 0, soft: 0, rationale: 'failed: contains=pnpm' },
};
const reflectReq = {
  target: 'skill' as const,
  doc: '# Skill',
  otherDoc: '',
  failures: [failure],
  successes: [],
  editBudget: 1,
  rejected: [],
  preferences: '',
};

describe('LlmBackend', () => {
  it('repairs an invalid JSON reply with one more request and counts it', async () => {
    const b = backend([
      'Sure! I would add a rule about pnpm.',
      '{"edits": [{"op": "add", "content": "Use pnpm.", "rationale": "r"}, {"op": "add", "content": "Two"}]}',
    ]);
    const r = await b.llm.reflect(reflectReq);
    expect(r.edits).toEqual([
      { target: 'skill', op: 'add', content: 'Use pnpm.', anchor: '', rationale: 'r' },
    ]);
    expect(b.provider.sent).toHaveLength(2);
    expect(b.provider.sent[1]?.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(b.provider.sent[1]?.messages[2]?.content).toContain('it contained no JSON value');
    expect(b.meter.summary()).toMatchObject({ repaired_replies: 1, invalid_replies: 0 });
  });

  it('counts a reply that stays invalid and proposes nothing', async () => {
    const b = backend(['{"edits": [{"op": "rewrite", "content": "x"}]}', 'still no json']);
    expect((await b.llm.reflect(reflectReq)).edits).toEqual([]);
    expect(b.meter.summary().invalid_replies).toBe(1);
  });

  it('validates judge scores and marks attempts as replays', async () => {
    const b = backend(['{"hard": 1, "soft": 0.9, "rationale": "fine"}', 'answer text']);
    const score = await b.llm.judgeRubric({ task: failure.task, response: 'x', rubric: 'uses pnpm' });
    expect(score).toMatchObject({ hard: 1, soft: 0.9 });
    const attempt = await b.llm.attempt({ task: failure.task, skill: 'S', memory: '', sampleId: 0 });
    expect(attempt.response).toBe('answer text');
    const sent = b.provider.sent.at(-1);
    expect(`${sent?.system}${sent?.messages[0]?.content}`).toContain(REPLAY_MARKER);
    expect(sent?.messages[0]?.content).toContain('Add zod');
  });

  it('merges edits through the optimizer; an unusable reply gives no edits (the trainer falls back)', async () => {
    const edit = {
      target: 'skill' as const,
      op: 'add' as const,
      anchor: '',
      rationale: '',
      source: 'failure' as const,
    };
    const req = {
      doc: '# Skill',
      edits: [
        { ...edit, content: 'Use pnpm.', support: 2 },
        { ...edit, content: 'Always use pnpm, not npm.', support: 1 },
      ],
    };
    const b = backend([
      '{"edits": [{"op": "add", "content": "Use pnpm, never npm.", "rationale": "merged 2"}]}',
    ]);
    const merged = await b.llm.mergeEdits(req);
    expect(merged.edits).toEqual([
      { op: 'add', content: 'Use pnpm, never npm.', anchor: '', rationale: 'merged 2' },
    ]);
    const prompt = b.provider.sent[0]?.messages[0]?.content ?? '';
    expect(prompt).toContain('- [add] Use pnpm. — supported by 2');
    expect(prompt).toContain('- [add] Always use pnpm, not npm. — supported by 1');

    const bad = backend(['no json', 'still none']);
    expect((await bad.llm.mergeEdits(req)).edits).toEqual([]);
    expect(bad.meter.summary().invalid_replies).toBe(1);
  });

  it('rewrites the learned rules as a list of strings; an unusable reply gives none', async () => {
    const req = {
      doc: '# Skill',
      rules: ['Use pnpm.'],
      suggestions: [
        {
          target: 'skill' as const,
          op: 'add' as const,
          content: 'Write Refs: #N.',
          anchor: '',
          rationale: '',
        },
      ],
      metaNote: 'pnpm rules keep coming back',
    };
    const b = backend([
      '```json\n{"rules": ["Use pnpm, never npm.", "End commit messages with Refs: #N."]}\n```',
    ]);
    expect((await b.llm.rewrite(req)).rules).toEqual([
      'Use pnpm, never npm.',
      'End commit messages with Refs: #N.',
    ]);
    const prompt = b.provider.sent[0]?.messages[0]?.content ?? '';
    expect(prompt).toContain('- Use pnpm.');
    expect(prompt).toContain('- [add] Write Refs: #N.');
    expect(prompt).toContain('pnpm rules keep coming back');
    const bad = backend(['{"rules": [1, 2]}', '{"rules": "x"}']);
    expect((await bad.llm.rewrite(req)).rules).toEqual([]);
  });

  it('labels sessions and reads rules from corrections through askJson; the same request again is a cache hit', async () => {
    const b = backend([
      '{"labels": [{"id": 1, "label": "add dependency"}]}',
      '{"checks": [{"op": "contains", "arg": "pnpm"}], "rubric": ""}',
    ]);
    const store = memorySessionLabels();
    const stopsOn = (): boolean => false;
    const sessions = [{ sessionKey: 'claude:s1', request: 'add zod to the web app' }];
    const labelled = await labelSessions({ sessions, backend: b.llm, store, stopsOn });
    expect(labelled.labels.get('claude:s1')).toBe('add dependency');
    const prompt = b.provider.sent[0]?.messages[0]?.content ?? '';
    expect(prompt).toContain(REPLAY_MARKER);
    expect(prompt).toContain('1. add zod to the web app');
    const vars = {
      kind: 'add dependency',
      correction: 'use pnpm',
      rejected: 'npm i zod',
      accepted: 'pnpm add zod',
    };
    const shape = '{"checks": [], "rubric": ""}';
    const schema = z.object({ checks: z.array(z.unknown()), rubric: z.string() });
    const first = await b.llm.askJson('optimizer', 'rule-from-correction', vars, schema, shape);
    expect(first.value?.checks).toEqual([{ op: 'contains', arg: 'pnpm' }]);
    expect(b.provider.sent[1]?.messages[0]?.content).toContain('pnpm add zod');
    const again = await b.llm.askJson('optimizer', 'rule-from-correction', vars, schema, shape);
    expect(again).toMatchObject({ value: first.value, usage: { calls: 0 } });
    expect(b.provider.sent).toHaveLength(2);
  });
});

describe('LlmBackend: mine-tasks', () => {
  it("sends the corrections and the other follow-ups, asks to keep preferences out of the intent, and a natural reply's not_contains is word-bounded", async () => {
    const reply = JSON.stringify([
      {
        intent: 'Add the zod package to the web app',
        checks: [
          { op: 'contains', arg: 'pnpm' },
          { op: 'not_contains', arg: 'npm' },
        ],
        rubric: '',
        satisfied: false,
      },
    ]);
    const { provider, llm } = backend([reply]);
    const out = await mineWithModel({
      project: '/p',
      clusters: [
        {
          id: 'task_a',
          label: 'add dependency',
          normalizedIntent: 'add dependency',
          intent: 'add zod to the web app',
          members: ['s1', 's2'],
          occurrences: 2,
          firstSeen: 1,
          lastSeen: 2,
          outcomes: { success: 1, fail: 1, mixed: 0, unknown: 0 },
          checks: [],
          corrections: [],
          correctionReports: [
            {
              sessionKey: 's1',
              sentence: 'stop using npm, we are on pnpm workspaces',
              result: 'none',
              checks: [],
              reason: 'said once, and the answer only grew',
              rejected: 'npm install zod',
              accepted: 'pnpm add zod',
            },
          ],
          criteria: [],
          checkSources: [],
        },
      ],
      instances: [emptyTask({ id: 'i1', intent: 'add zod to the web app', derived_from: 'task_a' })],
      backend: llm,
    });
    const sent = provider.sent[0];
    const user = sent?.messages[0]?.content ?? '';
    expect(user).toContain('# What the user corrected\n\n- stop using npm, we are on pnpm workspaces');
    expect(user).toContain("# Other follow-ups after the agent's first answer");
    expect(sent?.system).toContain('never states the user');
    expect(out.tasks[0]?.judge.checks).toEqual([
      { op: 'contains', arg: 'pnpm' },
      { op: 'not_mentions', arg: 'npm' },
    ]);
  });
});

describe('proposeTasksVars', () => {
  it("names the project by its folder's name, never its path, on any OS", () => {
    const vars = (project: string): string =>
      proposeTasksVars({
        project,
        intents: [],
        corrections: [],
        followUps: [],
        lastAnswer: '',
        outcomes: { success: 1, fail: 0, mixed: 0, unknown: 0 },
      }).project ?? '';
    expect(vars('/home/ann/work/acme-web')).toBe('acme-web');
    expect(vars('/home/ann/work/acme-web/')).toBe('acme-web');
    expect(vars('C:\\Users\\ann\\acme-web')).toBe('acme-web');
  });
});
