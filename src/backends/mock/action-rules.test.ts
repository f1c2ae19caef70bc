import { describe, expect, it } from 'vitest';
import { emptyTask, type Check, type TaskRecord } from '../../core/task.js';
import { evaluateCheck } from '../../replay/judges/rule-checks.js';
import { applyActionRule } from './action-rules.js';
import { MockBackend } from './mock-backend.js';
import { formatRule, parseRuleLine } from './rule-grammar.js';

const FIRST = [
  'Fixed the type; it was missing in the shipped typings.',
  '$ npm install',
  '--- packages/shared/dist/index.d.ts',
  'export interface Profile { discountCents?: number }',
  '--- etl/report.py',
  'print(total)',
  '$ npm test',
].join('\n');

describe('the mock target keeps rules about what it does', () => {
  it('parses and formats the action rules', () => {
    for (const line of [
      'Never run "npm".',
      'Always edit "src/".',
      'When the task is "x": Never write "print".',
    ]) {
      const rule = parseRuleLine(line);
      expect(rule?.kind, line).toBe('act');
      expect(rule && formatRule(rule)).toBe(line);
    }
  });

  it('drops the commands and file blocks a "never" rule names, and adds what an "always" rule asks', () => {
    const noNpm = applyActionRule(FIRST, 'run', true, 'npm');
    expect(noNpm).not.toContain('$ npm');
    expect(noNpm).toContain('Fixed the type');
    const noDist = applyActionRule(FIRST, 'edit', true, 'dist/');
    expect(noDist).not.toContain('dist/');
    expect(noDist).toContain('--- etl/report.py\nprint(total)');
    expect(applyActionRule(FIRST, 'write', true, 'print')).toContain('--- etl/report.py\n(total)');
    expect(applyActionRule(FIRST, 'run', false, 'pnpm install')).toMatch(/\n\$ pnpm install$/);
    expect(applyActionRule(FIRST, 'write', false, 'import logging')).toContain(
      'print(total)\nimport logging\n$ npm test',
    );
    expect(applyActionRule('No file.', 'write', false, 'x')).toBe('No file.');
  });

  it('an optimizer that reads failed action checks writes rules the target then meets', async () => {
    const checks: Check[] = [
      { op: 'runs', arg: 'pnpm' },
      { op: 'not_runs', arg: 'npm' },
      { op: 'not_edits', arg: 'dist/' },
      { op: 'not_writes', arg: 'print' },
    ];
    const task: TaskRecord = emptyTask({
      id: 't',
      intent: 'fix the profile type',
      attempted_solution: FIRST,
      reference_kind: 'rule',
      judge: { kind: 'rule', checks },
      tags: ['kind:fix type'],
    });
    const mock = new MockBackend();
    const before = await mock.attempt({ task, skill: '', memory: '', sampleId: 0 });
    const score = { hard: 0, soft: 0, rationale: '' };
    const reflected = await mock.reflect({
      target: 'skill',
      doc: '',
      otherDoc: '',
      failures: [{ task, response: before.response, score }],
      successes: [],
      rejected: [],
      editBudget: 5,
      preferences: '',
    });
    const skill = reflected.edits.map((e) => e.content).join('\n');
    expect(skill).toBe(
      [
        'When the task is "fix type": Use "pnpm" instead of "npm".',
        'When the task is "fix type": Never edit "dist/".',
        'When the task is "fix type": Never write "print".',
      ].join('\n'),
    );
    const after = await mock.attempt({ task, skill, memory: '', sampleId: 0 });
    for (const check of checks) expect(evaluateCheck(check, after.response, []).pass, check.op).toBe(true);
  });
});
