/**
 * An attempt with declared tools, on every kind of target: a provider that declares them natively gets
 * them with the request; any other is told to state its calls; either way the calls are read back out
 * of the reply and the answer is what is left. Without tools the prompt is the one it always was.
 */
import { describe, expect, it } from 'vitest';
import { queueBackend } from '../../test/helpers/queue-llm.js';
import { emptyTask, type TaskRecord } from '../core/task.js';
import { declaredTools } from '../core/tool-calls.js';
import { ruleJudge } from '../replay/judges/rule-checks.js';
import { MockBackend } from './mock/mock-backend.js';
import { parseRuleLine } from './mock/rule-grammar.js';

const task: TaskRecord = emptyTask({
  id: 'lf-01',
  intent: 'What did we decide about the CI provider?',
  reference_kind: 'rule',
  judge: { kind: 'rule', checks: [{ op: 'tool_called', arg: 'search' }] },
  tags: ['kind:seed-lookup-first'],
});
const tools = declaredTools([task]);

describe('an attempt on a target without native tools (agent CLIs, handoff)', () => {
  it('is told how to state a call, and the stated calls become the calls it made', async () => {
    const b = queueBackend(['TOOL_CALL: search CI provider decision\nWe picked the hosted runner.']);
    const r = await b.llm.attempt({ task, skill: 'S', memory: '', sampleId: 0, tools });
    expect(r).toMatchObject({ response: 'We picked the hosted runner.', toolsCalled: ['search'] });
    const sent = b.provider.sent[0];
    expect(sent?.tools).toBeUndefined();
    expect(sent?.system).toContain('You have these tools:\n- search: Looks a topic up');
    expect(sent?.system).toContain('`TOOL_CALL: <tool> <argument>`');
    expect(ruleJudge([{ op: 'tool_called', arg: 'SEARCH' }], r.response, r.toolsCalled).hard).toBe(1);
  });

  it('keeps the prompt it always had when the night declares no tool', async () => {
    const b = queueBackend(['TOOL_CALL: search x\nanswer']);
    const r = await b.llm.attempt({ task, skill: 'S', memory: '', sampleId: 0 });
    expect(r).toMatchObject({ response: 'TOOL_CALL: search x\nanswer', toolsCalled: [] });
    expect(b.provider.sent[0]?.system).toContain(
      'in their project. You have no tools: answer in\ntext only. Follow the skill below;',
    );
  });
});

describe('an attempt on a target with native tools (OpenAI, Azure, Anthropic)', () => {
  it('declares the tools with the request and reads the calls the provider wrote into its reply', async () => {
    const b = queueBackend(['TOOL_CALL: search CI\nWe picked the hosted runner.']);
    Object.assign(b.provider, { nativeTools: true });
    const r = await b.llm.attempt({ task, skill: 'S', memory: '', sampleId: 0, tools });
    expect(r).toMatchObject({ response: 'We picked the hosted runner.', toolsCalled: ['search'] });
    const sent = b.provider.sent[0];
    expect(sent?.tools).toEqual(tools);
    expect(sent?.system).toContain('You may call the tools declared with this request (search).');
    expect(sent?.system).not.toContain('TOOL_CALL');
  });
});

describe('the mock target', () => {
  const mock = new MockBackend();
  const rule = 'When the task is "seed-lookup-first": Always call the "search" tool.';

  it('states a call of a declared tool once its skill says so, and is read back like any target', async () => {
    expect(parseRuleLine(rule)).toMatchObject({ kind: 'call', tool: 'search' });
    const before = await mock.attempt({ task, skill: '# Team facts', memory: '', sampleId: 0, tools });
    expect(before.toolsCalled).toEqual([]);
    const after = await mock.attempt({
      task,
      skill: `# Team facts\n- ${rule}`,
      memory: '',
      sampleId: 0,
      tools,
    });
    expect(after.toolsCalled).toEqual(['search']);
    expect(after.response).not.toContain('TOOL_CALL');
  });

  it('cannot call a tool the night did not declare', async () => {
    const r = await mock.attempt({ task, skill: `- ${rule}`, memory: '', sampleId: 0 });
    expect(r.toolsCalled).toEqual([]);
  });

  it('writes the rule a failed tool, section or length check needs', async () => {
    const failed = (checks: TaskRecord['judge']) => ({
      task: { ...task, judge: checks },
      response: 'x'.repeat(50),
      score: { hard: 0, soft: 0, rationale: 'failed' },
    });
    const reflect = async (judge: TaskRecord['judge']): Promise<string[]> =>
      (
        await mock.reflect({
          target: 'skill',
          doc: '# Skill',
          otherDoc: '',
          failures: [failed(judge)],
          successes: [],
          editBudget: 4,
          rejected: [],
          preferences: '',
        })
      ).edits.map((e) => e.content);
    expect(await reflect({ kind: 'rule', checks: [{ op: 'tool_called', arg: 'Search' }] })).toEqual([rule]);
    expect(await reflect({ kind: 'rule', checks: [{ op: 'section_present', arg: 'Key Risks' }] })).toEqual([
      'When the task is "seed-lookup-first": Always include "## Key Risks".',
    ]);
    expect(await reflect({ kind: 'rule', checks: [{ op: 'max_chars', arg: 20 }] })).toEqual([
      'When the task is "seed-lookup-first": Keep the answer under 20 characters.',
    ]);
  });

  it('keeps its answer within a length rule', async () => {
    const long = { ...task, attempted_solution: 'word '.repeat(40) };
    const skill = '- Keep the answer under 20 characters.';
    const r = await mock.attempt({ task: long, skill, memory: '', sampleId: 0 });
    expect([...r.response].length).toBeLessThanOrEqual(20);
  });
});
