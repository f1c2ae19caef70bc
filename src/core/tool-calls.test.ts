import { describe, expect, it } from 'vitest';
import { emptyTask, type Check, type Split } from './task.js';
import { declaredTools, splitStatedCalls, statedCallLine } from './tool-calls.js';

const task = (id: string, checks: Check[], split: Split = 'train') =>
  emptyTask({ id, intent: id, reference_kind: 'rule', judge: { kind: 'rule', checks }, split });

describe('declaredTools', () => {
  it('declares each tool a judge checks once, by its lower-case name, with what it does', () => {
    const tools = declaredTools([
      task('a', [{ op: 'tool_called', arg: 'Search' }]),
      task('b', [
        { op: 'tool_called', arg: 'search' },
        { op: 'tool_called', arg: 'calendar' },
      ]),
      task('c', [{ op: 'contains', arg: 'search' }]),
    ]);
    expect(tools.map((t) => t.name)).toEqual(['calendar', 'search']);
    expect(tools[1]?.description).toMatch(/notes and knowledge base/);
    expect(tools[0]?.description).toBe(
      'A tool of this project named "calendar"; the argument is what to ask it.',
    );
  });

  it('skips a name no provider would take as a function name', () => {
    const tools = declaredTools([task('a', [{ op: 'tool_called', arg: 'web search' }])]);
    expect(tools).toEqual([]);
  });

  it('declares nothing for tasks without a tool check (their prompts stay as they were)', () => {
    expect(
      declaredTools([task('a', [{ op: 'max_chars', arg: 10 }]), emptyTask({ id: 'b', intent: 'b' })]),
    ).toEqual([]);
  });
});

describe('stated calls', () => {
  const search = declaredTools([task('a', [{ op: 'tool_called', arg: 'search' }])]);

  it('writes one call on one line', () => {
    expect(statedCallLine('search', 'free tier\npricing ')).toBe('TOOL_CALL: search free tier pricing');
    expect(statedCallLine('search', '')).toBe('TOOL_CALL: search');
  });

  it("takes a declared tool's call lines out of the answer and records them", () => {
    const text = 'TOOL_CALL: search pricing notes\n- tool_call: SEARCH pilots\nWe chose a paid pilot.';
    expect(splitStatedCalls(text, search)).toEqual({
      answer: 'We chose a paid pilot.',
      calls: ['search', 'search'],
    });
  });

  it('leaves an undeclared tool, a longer name and prose about calls in the answer', () => {
    const text = 'TOOL_CALL: browse x\nTOOL_CALL: searcher y\nI would use TOOL_CALL: search here.';
    expect(splitStatedCalls(text, search)).toEqual({ answer: text, calls: [] });
  });

  it('reads nothing without declared tools', () => {
    expect(splitStatedCalls('TOOL_CALL: search x\nanswer', [])).toEqual({
      answer: 'TOOL_CALL: search x\nanswer',
      calls: [],
    });
  });
});
