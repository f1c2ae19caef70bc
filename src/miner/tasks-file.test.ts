import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InputError } from '../core/errors.js';
import { emptyTask, ruleChecks } from '../core/task.js';
import type { TaskRecord } from '../core/task.js';
import { loadTasksFile, serializeTasksFile } from './tasks-file.js';
import type { LoadTasksOptions } from './tasks-file.js';

const PERSONAS_DIR = path.resolve(import.meta.dirname, '../../test/fixtures/personas');

let dir: string;
let warnings: string[];
let opts: LoadTasksOptions;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skillopt-tasks-file-'));
  warnings = [];
  opts = { seed: 42, valFraction: 0.34, testFraction: 0, warn: (message) => warnings.push(message) };
});

afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

function writeFile(name: string, content: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, content);
  return file;
}

function writeTasks(tasks: unknown, name = 'tasks.json'): string {
  return writeFile(name, JSON.stringify(tasks));
}

function v1(tasks: unknown[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { format: 'skillopt_sleep.tasks.v1', project: '/p', tasks, ...extra };
}

function loadError(file: string): InputError {
  try {
    loadTasksFile(file, opts);
  } catch (err) {
    if (err instanceof InputError) return err;
    throw err;
  }
  throw new Error('expected loadTasksFile to throw');
}

function valIndexes(tasks: readonly TaskRecord[]): number[] {
  return tasks.filter((t) => t.split === 'val').map((t) => Number(t.id.split('_').pop()));
}

/** Appendix B researcher persona: the spec's split test vector. */
function researcherTasks(): TaskRecord[] {
  return Array.from({ length: 12 }, (_, i) =>
    emptyTask({
      id: `persona_wrap-answer_${i}`,
      project: '/personas/demo',
      intent: `arXiv id question ${i}`,
      outcome: 'fail',
      reference_kind: 'exact',
      reference: `arXiv:0000.0000${i}`,
      tags: ['rule:wrap-answer', 'rule:arxiv-id'],
      source_sessions: [`sess_${i}`],
    }),
  );
}

describe('persona tasks files (test/fixtures/personas)', () => {
  it('loads the researcher file, which names no val task, and splits it by hash', () => {
    const loaded = loadTasksFile(path.join(PERSONAS_DIR, 'researcher.tasks.json'), opts);
    expect(loaded.tasks).toHaveLength(12);
    expect(valIndexes(loaded.tasks)).toEqual([2, 3, 6, 7, 9]);
    expect(loaded).toMatchObject({
      reviewed: true,
      project: '/fixtures/physics-lab',
      targetSkillPath: '',
      format: 'v1',
    });
    expect(warnings).toEqual([]);
  });

  it('loads the programmer file and splits it by hash', () => {
    const loaded = loadTasksFile(path.join(PERSONAS_DIR, 'programmer.tasks.json'), opts);
    expect(loaded.tasks).toHaveLength(8);
    expect(valIndexes(loaded.tasks)).toEqual([2, 5, 7]);
  });

  it('keeps the explicit splits of the researcher-with-harmful file', () => {
    const file = path.join(PERSONAS_DIR, 'researcher-with-harmful.tasks.json');
    const raw = JSON.parse(fs.readFileSync(file, 'utf8')) as { tasks: { id: string; split: string }[] };
    const loaded = loadTasksFile(file, opts);
    expect(loaded.tasks.map((t) => [t.id, t.split])).toEqual(raw.tasks.map((t) => [t.id, t.split]));
    // Hashing would have put other tasks in val: the file's own choice won.
    expect(valIndexes(loaded.tasks.filter((t) => t.id.startsWith('lab_constant_')))).toEqual([0, 2, 5, 7, 9]);
    const harmful = loaded.tasks.filter((t) => t.tags.includes('rule:__harmful__'));
    expect(harmful.map((t) => t.split)).toEqual(['train']);
  });
});

describe('loadTasksFile: formats and defaults', () => {
  it('assigns hash splits to a generated researcher file', () => {
    const file = writeFile(
      'r.json',
      serializeTasksFile({
        project: '/personas/demo',
        transcriptSource: 'claude',
        nSessions: 0,
        tasks: researcherTasks(),
      }),
    );
    const loaded = loadTasksFile(file, opts);
    expect(valIndexes(loaded.tasks)).toEqual([0, 1, 2, 4, 6, 7]);
    expect(loaded.reviewed).toBe(false);
  });

  it('accepts a bare array and fills defaults from emptyTask', () => {
    const loaded = loadTasksFile(writeTasks([{ id: 'a', intent: 'do the thing' }]), opts);
    expect(loaded).toMatchObject({ format: 'array', reviewed: false, project: '', targetSkillPath: '' });
    expect(loaded.tasks).toEqual([emptyTask({ id: 'a', intent: 'do the thing' })]);
  });

  it('drops unknown keys and treats null as missing', () => {
    const loaded = loadTasksFile(
      writeTasks([{ id: 'a', intent: 'x', extra: 1, system: null, tags: null }]),
      opts,
    );
    expect(loaded.tasks[0]).toEqual(emptyTask({ id: 'a', intent: 'x' }));
  });

  it('keeps a file with hand-made splits as given', () => {
    const loaded = loadTasksFile(
      writeTasks(
        v1([
          { id: 'persona_wrap-answer_0', intent: 'x', split: 'train' },
          { id: 'persona_wrap-answer_3', intent: 'y', split: 'val' },
        ]),
      ),
      opts,
    );
    // Bucket 31 would be val and bucket 64 train by hash; the file's own choice wins.
    expect(loaded.tasks.map((t) => t.split)).toEqual(['train', 'val']);
  });

  it('reads target_skill_path and only a literal true as reviewed', () => {
    const file = writeTasks(
      v1([{ id: 'a', intent: 'x' }], { target_skill_path: 'skills/x/SKILL.md', reviewed: 'true' }),
    );
    expect(loadTasksFile(file, opts)).toMatchObject({
      targetSkillPath: 'skills/x/SKILL.md',
      reviewed: false,
    });
  });

  it('accepts a valid rule judge and forwards its warnings', () => {
    const loaded = loadTasksFile(
      writeTasks([
        {
          id: 'r1',
          intent: 'x',
          reference_kind: 'rule',
          judge: {
            kind: 'rule',
            checks: [
              { op: 'section_present', arg: 'Summary' },
              { op: 'max_chars', arg: '300' },
            ],
          },
        },
      ]),
      opts,
    );
    expect(loaded.tasks[0]?.judge).toEqual({
      kind: 'rule',
      checks: [
        { op: 'section_present', arg: 'Summary' },
        { op: 'max_chars', arg: 300 },
      ],
    });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^task r1: judge is shape-only/);
  });

  it("never describes a test task's judge: its warnings are not reported, a training task's are", () => {
    const shapeOnly = { kind: 'rule', checks: [{ op: 'max_chars', arg: 300 }] };
    const task = (id: string, split: string) => ({
      id,
      intent: 'x',
      reference_kind: 'rule',
      judge: shapeOnly,
      split,
    });
    loadTasksFile(writeTasks([task('t1', 'train'), task('v1', 'val'), task('h1', 'test')]), opts);
    expect(warnings).toHaveLength(2);
    expect(warnings.join('\n')).not.toContain('h1');
    // Split by hash instead: a task that lands in test is not described either.
    warnings = [];
    const many = Array.from({ length: 30 }, (_, i) => ({
      id: `k${i}`,
      intent: 'x',
      reference_kind: 'rule',
      judge: shapeOnly,
    }));
    const loaded = loadTasksFile(writeTasks(many), { ...opts, testFraction: 0.3 });
    const tested = loaded.tasks.filter((t) => t.split === 'test').map((t) => t.id);
    expect(tested.length).toBeGreaterThan(0);
    expect(warnings).toHaveLength(30 - tested.length);
    for (const id of tested) expect(warnings.join('\n')).not.toContain(`task ${id}:`);
  });

  it('ignores a judge on a non-rule task, with a warning', () => {
    const loaded = loadTasksFile(
      writeTasks([
        { id: 'e1', intent: 'x', reference_kind: 'exact', judge: { checks: [{ op: 'contains', arg: 'a' }] } },
      ]),
      opts,
    );
    expect(loaded.tasks[0]?.judge).toEqual({});
    expect(warnings).toEqual(["task e1: judge is ignored because reference_kind is 'exact'"]);
  });

  it('accepts a UTF-8 byte-order mark', () => {
    const file = writeFile('bom.json', `\uFEFF${JSON.stringify([{ id: 'a', intent: 'x' }])}`);
    expect(loadTasksFile(file, opts).tasks).toHaveLength(1);
  });
});

describe('loadTasksFile: errors', () => {
  it('reports a missing file', () => {
    const err = loadError(path.join(dir, 'nope.json'));
    expect(err.message).toContain('tasks file not found');
    expect(err.message).toContain('nope.json');
  });

  it('reports invalid JSON with its position', () => {
    const file = writeFile('bad.json', '{\n  "tasks": [\n    {"id": "a",}\n  ]\n}');
    const err = loadError(file);
    expect(err.message).toContain(file);
    expect(err.message).toMatch(/invalid JSON at line 3, column 16 \(position 30\)/);
    expect(err.message).toContain('Expected {"format": "skillopt_sleep.tasks.v1"');
  });

  it('finds the position even when the JSON error message omits it', () => {
    const err = loadError(writeFile('bad.json', '[\n {"id": x}]'));
    expect(err.message).toMatch(/invalid JSON at line 2, column 9 \(position 10\)/);
    expect(err.message).not.toContain('\n');
  });

  it('reports truncated JSON at its end', () => {
    const err = loadError(writeFile('cut.json', '[{"id": "a"'));
    expect(err.message).toMatch(/invalid JSON at line 1, column 12 \(position 11\)/);
  });

  it('reports a file that is not UTF-8', () => {
    const file = path.join(dir, 'latin1.json');
    fs.writeFileSync(file, Buffer.from([0x5b, 0xe9, 0x5d]));
    expect(loadError(file).message).toContain('not valid UTF-8');
  });

  it.each([
    ['a string', '"tasks"', 'got string'],
    ['null', 'null', 'got null'],
    ['a number', '42', 'got number'],
  ])('rejects %s at the top level', (_label, json, got) => {
    const err = loadError(writeFile('top.json', json));
    expect(err.message).toContain('top level must be an object or an array');
    expect(err.message).toContain(got);
  });

  it('rejects an unknown format', () => {
    const err = loadError(writeTasks({ format: 'skillopt_sleep.tasks.v9', tasks: [] }));
    expect(err.message).toContain('unknown "format" "skillopt_sleep.tasks.v9"');
  });

  it('rejects a v1 object without a tasks array', () => {
    const err = loadError(writeTasks({ format: 'skillopt_sleep.tasks.v1', tasks: {} }));
    expect(err.message).toContain('field "tasks": must be an array of tasks');
  });

  it.each([
    ['id', { intent: 'x' }, 'task #0: field "id": required, a non-empty string'],
    ['intent', { id: 'a' }, 'task #0 (id "a"): field "intent": required, a non-empty string'],
    ['blank id', { id: '  ', intent: 'x' }, 'task #0: field "id": must not be blank'],
    ['blank intent', { id: 'a', intent: '' }, 'field "intent": must not be blank'],
    ['a string intent', { id: 'a', intent: 5 }, 'field "intent": must be a string, got number'],
    ['a string id', { id: ['a'], intent: 'x' }, 'task #0: field "id": must be a string, got array'],
  ])('rejects a task without %s', (_label, raw, message) => {
    const err = loadError(writeTasks(v1([raw])));
    expect(err.message).toContain(message);
    expect(err.message).toContain('Expected {"id": "t1"');
  });

  it('rejects a task that is not an object', () => {
    expect(loadError(writeTasks(['just text'])).message).toContain('task #0: must be an object, got string');
  });

  it.each([
    ['outcome', 'great'],
    ['reference_kind', 'fuzzy'],
    ['split', 'holdout2'],
    ['origin', 'imagined'],
  ])('rejects an unknown %s', (field, value) => {
    const err = loadError(writeTasks([{ id: 'a', intent: 'x', [field]: value }]));
    expect(err.message).toContain(`task #0 (id "a"): field "${field}"`);
  });

  it('rejects a wrongly typed optional field', () => {
    const err = loadError(writeTasks([{ id: 'a', intent: 'x', tags: 'one,two' }]));
    expect(err.message).toContain('field "tags"');
  });

  it('rejects duplicate ids, naming both tasks', () => {
    const err = loadError(
      writeTasks([
        { id: 'a', intent: 'x' },
        { id: 'b', intent: 'y' },
        { id: 'a', intent: 'z' },
      ]),
    );
    expect(err.message).toContain('task #2 (id "a"): duplicate id, already used by task #0');
  });

  it('rejects invalid rule-judge checks, listing every error', () => {
    const err = loadError(
      writeTasks([
        {
          id: 'r1',
          intent: 'x',
          reference_kind: 'rule',
          judge: {
            kind: 'rule',
            checks: [
              { op: 'regex', arg: '(' },
              { op: 'max_chars', arg: true },
            ],
          },
        },
      ]),
    );
    expect(err.message).toContain('task #0 (id "r1"): field "judge": check #0 regex does not compile');
    expect(err.message).toContain('check #1 max_chars needs an integer arg, got true');
  });

  it.each([
    ['holdout', 'val'],
    ['replay', 'train'],
  ])('rejects the old split name %s, naming the task, the field and the name to write', (old, now) => {
    const err = loadError(writeTasks(v1([{ id: 'a', intent: 'x', split: old }])));
    expect(err.message).toContain(
      `task #0 (id "a"): field "split": must be "train", "val" or "test", got "${old}" (an old name: write "${now}")`,
    );
  });

  it('rejects a judge on a task without reference_kind instead of dropping its checks', () => {
    const judge = { kind: 'rule', checks: [{ op: 'contains', arg: 'pnpm' }] };
    const err = loadError(writeTasks([{ id: 'j1', intent: 'x', judge }]));
    expect(err.message).toContain(
      'task #0 (id "j1"): field "reference_kind" is missing but the task has a "judge": set "reference_kind": "rule"',
    );
    expect(warnings).toEqual([]);
    // An empty judge (what the reference writes for tasks without checks) stays valid.
    expect(loadTasksFile(writeTasks([{ id: 'j2', intent: 'x', judge: {} }]), opts).tasks).toHaveLength(1);
  });

  it('rejects an unknown check op, which would pass every answer', () => {
    const judge = { kind: 'rule', checks: [{ op: 'frobnicate', arg: 'x' }] };
    const err = loadError(writeTasks([{ id: 'r1', intent: 'x', reference_kind: 'rule', judge }]));
    expect(err).toBeInstanceOf(InputError);
    expect(err.message).toContain('task #0 (id "r1"): field "judge": check #0 has unknown op "frobnicate"');
  });

  it('rejects a rule task without checks', () => {
    const err = loadError(writeTasks([{ id: 'r1', intent: 'x', reference_kind: 'rule' }]));
    expect(err.message).toContain('field "judge.checks": reference_kind "rule" needs at least one check');
  });

  it('rejects a rule task whose judge is not a rule judge', () => {
    const err = loadError(
      writeTasks([{ id: 'r1', intent: 'x', reference_kind: 'rule', judge: { kind: 'llm', checks: [] } }]),
    );
    expect(err.message).toContain('field "judge.kind" must be "rule"');
  });

  it('rejects bad split fractions', () => {
    const file = writeTasks([{ id: 'a', intent: 'x' }]);
    expect(() => loadTasksFile(file, { ...opts, valFraction: 0.7, testFraction: 0.3 })).toThrow(InputError);
  });
});

describe('serializeTasksFile', () => {
  it('writes the v1 format, unreviewed by default, and round-trips', () => {
    const tasks = [emptyTask({ id: 'a', intent: 'x', split: 'val' }), emptyTask({ id: 'b', intent: 'y' })];
    const text = serializeTasksFile({ project: '/p', transcriptSource: 'claude', nSessions: 3, tasks });
    expect(text.startsWith('{\n  "format": "skillopt_sleep.tasks.v1",\n  "project": "/p",')).toBe(true);
    expect(JSON.parse(text)).toMatchObject({
      transcript_source: 'claude',
      n_sessions: 3,
      target_skill_path: '',
      reviewed: false,
    });
    const loaded = loadTasksFile(writeFile('out.json', text), opts);
    expect(loaded.tasks).toEqual(tasks);
  });

  it('round-trips action checks and their other forms, and reads a file written before any_of', () => {
    const checks = [
      { op: 'runs', arg: 'vitest --run', any_of: ['vitest run'], because: 'use vitest --run' },
      { op: 'not_edits', arg: 'dist/' },
      { op: 'writes', arg: 'logging', any_of: ['logger'] },
      { op: 'not_writes', arg: 'print' },
    ];
    const rule = emptyTask({
      id: 'r',
      intent: 'fix the test',
      reference_kind: 'rule',
      judge: { kind: 'rule', checks },
    });
    const text = serializeTasksFile({
      project: '/p',
      transcriptSource: 'claude',
      nSessions: 1,
      tasks: [rule],
    });
    expect(loadTasksFile(writeFile('actions.json', text), opts).tasks).toEqual([rule]);
    const old = [
      { id: 'o', intent: 'x', reference_kind: 'rule', judge: { checks: [{ op: 'contains', arg: 'pnpm' }] } },
    ];
    expect(ruleChecks(loadTasksFile(writeFile('old.json', JSON.stringify(old)), opts).tasks[0]!)).toEqual([
      { op: 'contains', arg: 'pnpm' },
    ]);
  });

  it('writes reviewed and the target skill path when given', () => {
    const text = serializeTasksFile({
      project: '/p',
      transcriptSource: 'codex',
      nSessions: 0,
      targetSkillPath: '/s/SKILL.md',
      reviewed: true,
      tasks: [],
    });
    expect(JSON.parse(text)).toMatchObject({ target_skill_path: '/s/SKILL.md', reviewed: true, tasks: [] });
  });
});
