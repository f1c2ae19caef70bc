import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { InputError } from '../core/errors.js';
import { ruleChecks, type TaskRecord } from '../core/task.js';
import { ruleJudge } from '../replay/judges/rule-checks.js';
import { isFolder, loadSeedFolder, SEED_LIMITS, type LoadSeedOptions } from './seed-folder.js';

const SEEDS = path.resolve(import.meta.dirname, '../../test/fixtures/seeds');
const seedDir = (name: string): string => path.join(SEEDS, name);

let warnings: string[] = [];
const opts = (): LoadSeedOptions => ({ seed: 42, valFraction: 0.34, warn: (m) => warnings.push(m) });
const temps: string[] = [];

afterEach(() => {
  warnings = [];
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A copy of a fixture seed to break, in a temporary folder. */
function copySeed(name = 'seed-release-notes'): string {
  const dir = path.join(mkdtempSync(path.join(os.tmpdir(), 'sos-seed-')), name);
  temps.push(path.dirname(dir));
  cpSync(seedDir(name), dir, { recursive: true });
  return dir;
}

const line = (task: Record<string, unknown>): string => `${JSON.stringify(task)}\n`;
const ruleTask = (id: string, checks: unknown[]): string =>
  line({ task_id: id, task: `Do ${id}.`, judge: { kind: 'rule', checks } });

const bySplit = (tasks: TaskRecord[], split: string): TaskRecord[] => tasks.filter((t) => t.split === split);

describe('loadSeedFolder on seeds in the gbrain shape', () => {
  it('reads the skill as written, frontmatter included, and keeps held-out tasks for the test only', () => {
    const seed = loadSeedFolder(seedDir('seed-release-notes'), opts());
    expect(seed.skill).toBe(readFileSync(path.join(seedDir('seed-release-notes'), 'SKILL.md'), 'utf8'));
    expect(seed.skill.startsWith('---\nname: release-notes-example\n')).toBe(true);
    expect(seed).toMatchObject({ name: 'seed-release-notes', nTraining: 12, nHeldOut: 5, reviewed: false });
    const test = bySplit(seed.tasks, 'test');
    expect(test.map((t) => t.id)).toEqual(['rn-h1', 'rn-h2', 'rn-h3', 'rn-h4', 'rn-h5']);
    const training = seed.tasks.filter((t) => t.split !== 'test');
    expect(training.every((t) => t.id.startsWith('rn-') && !t.id.startsWith('rn-h'))).toBe(true);
    expect(bySplit(training, 'train').length).toBeGreaterThan(0);
    expect(bySplit(training, 'val').length).toBeGreaterThan(0);
    for (const t of seed.tasks) {
      expect(t.reference_kind).toBe('rule');
      expect(t.tags).toEqual(['kind:seed-release-notes']);
    }
  });

  it('splits training tasks by hash, the same way every time', () => {
    const a = loadSeedFolder(seedDir('seed-lookup-first'), opts()).tasks.map((t) => `${t.id}:${t.split}`);
    const b = loadSeedFolder(seedDir('seed-lookup-first'), opts()).tasks.map((t) => `${t.id}:${t.split}`);
    expect(a).toEqual(b);
    const other = loadSeedFolder(seedDir('seed-lookup-first'), { ...opts(), seed: 7 }).tasks;
    expect(bySplit(other, 'test')).toHaveLength(4);
  });

  it('reads every op of the published format and scores it with the rule judge', () => {
    const checksOf = (name: string, split: 'train' | 'test'): unknown =>
      ruleChecks(
        loadSeedFolder(seedDir(name), opts()).tasks.find((t) => (split === 'test') === (t.split === 'test'))!,
      );
    expect(checksOf('seed-release-notes', 'train')).toEqual([
      { op: 'contains', arg: '## Breaking Changes' },
      { op: 'contains', arg: 'Upgrade:' },
    ]);
    expect(checksOf('seed-release-notes', 'test')).toEqual([
      { op: 'section_present', arg: 'Breaking Changes' },
      { op: 'regex', arg: '(?i)upgrade\\s*:' },
    ]);
    expect(checksOf('seed-lookup-first', 'test')).toEqual([{ op: 'tool_called', arg: 'SEARCH' }]);
    // A bound written as a string is read as the number it names.
    expect(checksOf('seed-rambling', 'test')).toEqual([
      { op: 'max_chars', arg: 1000 },
      { op: 'regex', arg: '^Verdict\\s*:' },
    ]);
    const notes = 'Faster parsing.\n\n## Breaking Changes\n- none\n\nUpgrade: run npm i.';
    expect(ruleJudge(checksOf('seed-release-notes', 'train') as never, notes, []).hard).toBe(1);
    expect(ruleJudge(checksOf('seed-release-notes', 'test') as never, notes, []).hard).toBe(1);
    expect(ruleJudge(checksOf('seed-release-notes', 'test') as never, 'Faster parsing.', []).soft).toBe(0);
    expect(ruleJudge(checksOf('seed-lookup-first', 'test') as never, 'We chose X.', ['search']).hard).toBe(1);
    expect(ruleJudge(checksOf('seed-lookup-first', 'test') as never, 'We chose X.', []).hard).toBe(0);
    const review = 'Verdict: ship it.';
    expect(ruleJudge(checksOf('seed-rambling', 'test') as never, review, []).hard).toBe(1);
    expect(
      ruleJudge(checksOf('seed-rambling', 'test') as never, `${review}\n${'x'.repeat(1000)}`, []).soft,
    ).toBe(0.5);
  });

  it("reports a training task's warnings and never a held-out task's (they would describe its judge)", () => {
    const dir = copySeed();
    const shapeOnly = [{ op: 'max_chars', arg: 500 }];
    writeFileSync(path.join(dir, 'benchmark.jsonl'), ruleTask('b1', shapeOnly) + ruleTask('b2', shapeOnly));
    writeFileSync(path.join(dir, 'held-out.jsonl'), ruleTask('h1', shapeOnly));
    loadSeedFolder(dir, opts());
    expect(warnings).toHaveLength(2);
    expect(warnings.every((w) => /^task b\d: judge is shape-only/.test(w))).toBe(true);
  });

  it('counts as reviewed only with a REVIEWED file in the folder', () => {
    const dir = copySeed();
    writeFileSync(path.join(dir, 'REVIEWED'), '');
    expect(loadSeedFolder(dir, opts()).reviewed).toBe(true);
  });

  it('cleans control characters out of the skill and the tasks, keeping the frontmatter', () => {
    const dir = copySeed();
    writeFileSync(path.join(dir, 'SKILL.md'), '---\nname: x\n---\n\n# X\u001b[31m red\u0007\n');
    writeFileSync(
      path.join(dir, 'benchmark.jsonl'),
      line({
        task_id: 'b\u00071',
        task: 'Say \u001b]0;title\u0007hi',
        judge: { kind: 'rule', checks: [{ op: 'contains', arg: 'hi' }] },
      }) + ruleTask('b2', [{ op: 'contains', arg: 'hi' }]),
    );
    const seed = loadSeedFolder(dir, opts());
    expect(seed.skill).toBe('---\nname: x\n---\n\n# X red\n');
    const first = seed.tasks.find((t) => t.id.startsWith('b') && t.id !== 'b2');
    expect(first?.id).toBe('b 1');
    expect(first?.intent).toBe('Say hi');
  });
});

describe('loadSeedFolder refuses a bad seed folder with one line naming what is wrong', () => {
  const refused = (dir: string, message: RegExp): void => {
    let caught: unknown;
    try {
      loadSeedFolder(dir, opts());
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(InputError);
    const text = (caught as Error).message;
    expect(text).toMatch(message);
    expect(text).not.toContain('\n');
    expect(text.startsWith(`seed folder ${dir}: `)).toBe(true);
  };

  it('a missing file', () => {
    const dir = copySeed();
    rmSync(path.join(dir, 'held-out.jsonl'));
    refused(
      dir,
      /no held-out\.jsonl \(a seed folder holds SKILL\.md, benchmark\.jsonl and held-out\.jsonl\)/,
    );
  });

  it('a symbolic link in place of a file', () => {
    const dir = copySeed();
    rmSync(path.join(dir, 'SKILL.md'));
    // The link points inside the folder: it is refused all the same (it could point anywhere).
    symlinkSync(path.join(dir, 'benchmark.jsonl'), path.join(dir, 'SKILL.md'));
    refused(dir, /SKILL\.md is a symbolic link/);
  });

  it('a file over its size bound, and more tasks than a file may hold', () => {
    const big = copySeed();
    writeFileSync(path.join(big, 'SKILL.md'), 'x'.repeat(SEED_LIMITS.skillBytes + 1));
    refused(big, /cannot read SKILL\.md: .*over the 262144-byte limit/);
    const many = copySeed();
    const tasks = Array.from({ length: SEED_LIMITS.tasksPerFile + 1 }, (_, i) =>
      ruleTask(`t${i}`, [{ op: 'contains', arg: 'x' }]),
    );
    writeFileSync(path.join(many, 'benchmark.jsonl'), tasks.join(''));
    refused(many, /benchmark\.jsonl holds more than 1000 tasks/);
  });

  it.each([
    ['not JSON', '{"task_id": "a",\n', /benchmark\.jsonl:1: invalid JSON/],
    [
      'no task_id',
      line({ task: 'x', judge: { kind: 'rule', checks: [] } }),
      /field "task_id" must be a non-empty string/,
    ],
    ['a blank task', line({ task_id: 'a', task: ' ', judge: {} }), /field "task" must be a non-empty string/],
    [
      'a judge of another kind',
      line({ task_id: 'a', task: 'x', judge: { kind: 'llm' } }),
      /"judge\.kind" must be "rule", got "llm"/,
    ],
    ['no check', ruleTask('a', []), /"judge\.checks" needs at least one check/],
    ['an unknown op', ruleTask('a', [{ op: 'sounds_good' }]), /unknown op "sounds_good"/],
    ['a regex that does not compile', ruleTask('a', [{ op: 'regex', arg: '(' }]), /regex does not compile/],
    [
      'a bound that is not a number',
      ruleTask('a', [{ op: 'max_chars', arg: 'short' }]),
      /max_chars needs an integer arg/,
    ],
    [
      'a repeated id',
      ruleTask('a', [{ op: 'contains', arg: 'x' }]).repeat(2),
      /benchmark\.jsonl:2: task id "a" is already used on line 1/,
    ],
  ])('%s', (_label, text, message) => {
    const dir = copySeed();
    writeFileSync(path.join(dir, 'benchmark.jsonl'), text);
    refused(dir, message);
  });

  it('a held-out task that is also a training task, and an empty held-out file', () => {
    const shared = copySeed();
    writeFileSync(path.join(shared, 'held-out.jsonl'), ruleTask('rn-01', [{ op: 'contains', arg: 'x' }]));
    refused(shared, /task id "rn-01" is in both benchmark\.jsonl and held-out\.jsonl/);
    const empty = copySeed();
    writeFileSync(path.join(empty, 'held-out.jsonl'), '\n');
    refused(empty, /held-out\.jsonl holds no task/);
  });

  it('a file that is not UTF-8', () => {
    const dir = copySeed();
    writeFileSync(path.join(dir, 'SKILL.md'), Buffer.from([0xff, 0xfe, 0x41]));
    refused(dir, /SKILL\.md is not valid UTF-8/);
  });
});

describe('isFolder', () => {
  it('tells a seed folder from a tasks file', () => {
    expect(isFolder(seedDir('seed-rambling'))).toBe(true);
    expect(isFolder(path.join(seedDir('seed-rambling'), 'SKILL.md'))).toBe(false);
    expect(isFolder(path.join(SEEDS, 'nothing-here'))).toBe(false);
  });
});
