import { describe, expect, it } from 'vitest';
import { attemptVars, judgeVars } from '../backends/llm/llm-backend.js';
import { renderPrompt } from '../backends/llm/prompts.js';
import { describeTrajectory } from '../backends/llm/reflect-evidence.js';
import { configSchema } from '../config/schema.js';
import { emptyTask, type TaskRecord } from '../core/task.js';
import { explainSends, summarizeSends, varsAsTexts, type SendsInput } from './explain-sends.js';

const SECRET = 'sk-proj-Q7x2mN9vK4pL8rT1wZ5yB3cF6hJ0aD2e';

const config = configSchema.parse({ backend: 'openai', base_url: 'http://127.0.0.1:9/v1' });

const ruleTask = (over: Partial<TaskRecord> = {}): TaskRecord =>
  emptyTask({
    id: 't1',
    intent: 'add zod to the web app',
    context_excerpt: 'the app lives in packages/web',
    reference_kind: 'rule',
    judge: { kind: 'rule', checks: [{ op: 'contains', arg: 'pnpm', because: 'no, use pnpm' }] },
    rubric_criteria: ['keep the answer short'],
    tags: ['kind:add dependency'],
    attempted_solution: 'npm install zod',
    ...over,
  });

const input = (tasks: TaskRecord[], over: Partial<SendsInput> = {}): SendsInput => ({
  config,
  tasks,
  skill: { path: '/p/SKILL.md', text: '# Skill\nrules' },
  memory: null,
  rejected: [],
  pending: [],
  kinds: [],
  ...over,
});

const sendsOf = (e: ReturnType<typeof explainSends>, id: string, role: string) =>
  e.tasks.find((t) => t.id === id)?.sends.find((s) => s.role === role);

const squash = (s: string): string => s.replace(/\s+/g, ' ').trim();

describe('explainSends', () => {
  it('shows a secret in a task intent redacted, and counts it', () => {
    const e = explainSends(input([ruleTask({ intent: `deploy with key ${SECRET} please` })]));
    const intent = sendsOf(e, 't1', 'target')?.texts.find((t) => t.field === 'intent');
    expect(intent?.text).toContain('[REDACTED:');
    expect(intent?.chars).toBe(intent?.text.length);
    expect(JSON.stringify(e)).not.toContain(SECRET);
    expect(e.redactions).toBeGreaterThanOrEqual(2); // the target's and the reflection's copy
  });

  it('lists every stored text the attempt prompt holds, and the prompt holds nothing else', () => {
    const task = ruleTask();
    const skill = '# Skill\nrules';
    const prompt = renderPrompt('attempt', attemptVars({ task, skill, memory: '' }));
    const target = sendsOf(explainSends(input([task])), 't1', 'target');
    expect(target?.texts.map((t) => t.field)).toEqual(['intent', 'context_excerpt']);
    let rest = prompt.user;
    for (const t of target?.texts ?? []) {
      expect(prompt.user).toContain(t.text);
      rest = rest.replace(t.text, '');
    }
    const bare = renderPrompt(
      'attempt',
      attemptVars({ task: { ...task, intent: '', context_excerpt: '' }, skill, memory: '' }),
    );
    expect(squash(rest)).toBe(squash(bare.user));
    // The system prompt carries only the documents, listed apart with their size.
    expect(prompt.system).toContain(skill);
    expect(explainSends(input([task])).documents).toEqual([
      expect.objectContaining({ name: 'skill', path: '/p/SKILL.md', chars: skill.length }),
    ]);
  });

  it('names a prompt variable it has no field for instead of leaving it out', () => {
    expect(varsAsTexts({ intent: 'x', extra: 'stored text' }, { intent: 'intent' })).toEqual([
      { field: 'intent', chars: 1, text: 'x' },
      { field: 'prompt:extra', chars: 11, text: 'stored text' },
    ]);
  });

  it("sends the judge a rubric task's reference and a rule task's criteria, never the answer as a stored text", () => {
    const rubric = ruleTask({ id: 'r1', reference_kind: 'rubric', reference: 'cites the ticket', judge: {} });
    const e = explainSends(input([rubric, ruleTask()]));
    const judge = sendsOf(e, 'r1', 'optimizer-judge');
    expect(judge?.texts.map((t) => [t.field, t.text])).toEqual([
      ['intent', rubric.intent],
      ['reference (rubric)', 'cites the ticket'],
    ]);
    const prompt = renderPrompt(
      'judge',
      judgeVars({ task: rubric, rubric: 'cites the ticket', response: '' }),
    );
    for (const t of judge?.texts ?? []) expect(prompt.user).toContain(t.text);
    expect(judge?.model_parts.join(' ')).toContain("target's answer");
    expect(sendsOf(e, 't1', 'optimizer-judge')?.texts[1]).toEqual(
      expect.objectContaining({ field: 'rubric_criteria', text: '- keep the answer short' }),
    );
  });

  it('shows reflection only train tasks, with the lines reflection reads', () => {
    const train = ruleTask();
    const val = ruleTask({
      id: 'v1',
      split: 'val',
      reference_kind: 'exact',
      reference: 'VAL-ANSWER',
      judge: {},
    });
    const e = explainSends(input([train, val]));
    expect(sendsOf(e, 'v1', 'optimizer-reflect')).toBeUndefined();
    expect(JSON.stringify(e)).not.toContain('VAL-ANSWER');
    const described = describeTrajectory({
      task: train,
      response: 'npm install zod',
      score: { hard: 0, soft: 0, rationale: 'failed' },
    });
    const reflect = sendsOf(e, 't1', 'optimizer-reflect');
    expect(reflect?.texts.map((t) => t.field)).toEqual(['intent', 'checks[0] (with because)']);
    for (const t of reflect?.texts ?? []) expect(described).toContain(t.text);
  });

  it('never lists what the night does not send: the recorded answer, the system field', () => {
    const e = explainSends(
      input([ruleTask({ system: 'SYSTEM-FIELD', attempted_solution: 'RECORDED-ANSWER' })]),
    );
    expect(JSON.stringify(e)).not.toContain('SYSTEM-FIELD');
    expect(JSON.stringify(e)).not.toContain('RECORDED-ANSWER');
  });

  it('says where each role goes, and that the mock sends nothing', () => {
    const real = explainSends(input([ruleTask()]));
    expect(real.offline).toBe(false);
    expect(real.destinations[0]).toEqual({
      role: 'target',
      backend: 'openai',
      model: 'gpt-4o-mini',
      base_url: 'http://127.0.0.1:9/v1',
      leaves_machine: true,
    });
    const mock = explainSends(input([ruleTask()], { config: configSchema.parse({}) }));
    expect(mock.offline).toBe(true);
    expect(mock.tasks[0]?.sends.length).toBe(real.tasks[0]?.sends.length);
  });

  it('lists the preferences and the edits refused before once, for the whole night', () => {
    const e = explainSends(
      input([], {
        config: configSchema.parse({ backend: 'openai', preferences: 'British spelling' }),
        rejected: [{ target: 'skill', op: 'add', content: 'Always use yarn', delta: -0.2, reason: 'worse' }],
      }),
    );
    const reflect = e.night.find((s) => s.prompt === 'reflect');
    expect(reflect?.texts.map((t) => t.field)).toEqual([
      'preferences (config)',
      'rejected edits (earlier nights)',
    ]);
    expect(reflect?.texts[1]?.text).toContain('Always use yarn');
  });

  it("lists a fan-out skill's own document and the memory document beside the managed skill", () => {
    const e = explainSends(
      input([ruleTask()], {
        memory: { path: '/p/CLAUDE.md', text: 'memory' },
        skills: [{ name: 'deploy', path: '/p/deploy/SKILL.md', text: 'deploy rules', taskIds: ['t1'] }],
      }),
    );
    expect(e.documents.map((d) => [d.name, d.chars])).toEqual([
      ['skill', 13],
      ['skill deploy', 12],
      ['memory', 6],
    ]);
    expect(e.documents[1]?.sent_with).toContain('(t1)');
  });

  it('sums the sends by role for the plan', () => {
    const e = explainSends(input([ruleTask(), ruleTask({ id: 't2', split: 'val' })]));
    const s = summarizeSends(e);
    expect(s.by_role.target).toEqual({
      prompts: 2,
      texts: 4,
      chars: e.tasks.flatMap((t) => t.sends[0]?.texts ?? []).reduce((n, t) => n + t.chars, 0),
    });
    expect(s.by_role['optimizer-reflect'].prompts).toBe(1);
    expect(s.by_role['optimizer-judge'].prompts).toBe(2);
    expect(s.by_role.miner.prompts).toBe(0);
  });
});
