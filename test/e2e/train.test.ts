import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnCli as runCli, sandbox } from './cli-helpers.js';

const lines = (file: string): string[] =>
  existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];

// A train killed mid-run resumes: test/train-resume.test.ts (in-process, through runTrain's onStep).
describe('skillopt-sleep train / eval (built CLI, mock backend)', () => {
  it('train --demo improves the val score and writes best skill, snapshots and history', () => {
    const box = sandbox();
    const r = runCli(box, ['train', '--demo', '--backend', 'mock', '--out', 'run', '--json']);
    expect(r.code).toBe(0);
    const s = r.json();
    expect(Object.keys(s)).toEqual(
      expect.arrayContaining(['initial_val', 'best_val', 'best_skill_path', 'steps']),
    );
    expect(s.best_val as number).toBeGreaterThan(s.initial_val as number);
    const out = path.join(box.project, 'run');
    expect(s.best_skill_path).toBe(path.join(out, 'best_skill.md'));
    expect(readFileSync(path.join(out, 'best_skill.md'), 'utf8')).toContain('Use "pnpm" instead of "npm".');
    const history = lines(path.join(out, 'history.jsonl')).map(
      (l) => JSON.parse(l) as Record<string, unknown>,
    );
    expect(history.filter((h) => h.kind === 'step')).toHaveLength(s.steps as number);
    for (const h of history) {
      expect(typeof h.step).toBe('number');
      expect(typeof h.lr).toBe('number');
      expect(typeof h.accepted).toBe('boolean');
      expect(h).toHaveProperty('val_before');
      expect(h).toHaveProperty('val_after');
      expect(h).toHaveProperty('train_score');
      expect(h).toHaveProperty('edits.proposed');
      expect(h).toHaveProperty('gate');
    }
    expect(history.some((h) => h.accepted === true)).toBe(true);
    // The trap rule from t10 was really proposed and refused because it lowered the validation score.
    const refused = history.flatMap((h) => h.rejected_edits as Array<{ content: string; delta: number }>);
    expect(refused.find((e) => e.content === 'Use "master" instead of "main".')?.delta).toBeLessThan(0);
    for (let step = 0; step <= (s.steps as number); step++)
      expect(existsSync(path.join(out, 'snapshots', `step-${String(step).padStart(4, '0')}.md`))).toBe(true);

    // eval scores the initial and the best skill on the test split.
    const initial = runCli(box, [
      'eval',
      '--demo',
      '--skill',
      path.join(out, 'snapshots', 'step-0000.md'),
      '--split',
      'test',
      '--json',
    ]);
    const best = runCli(box, [
      'eval',
      '--demo',
      '--skill',
      path.join(out, 'best_skill.md'),
      '--split',
      'test',
      '--json',
    ]);
    expect(initial.code).toBe(0);
    expect(best.json().score as number).toBeGreaterThan(initial.json().score as number);
    expect(best.json()).toMatchObject({ split: 'test', n: 4 });
    // --out scores the initial, best and final skill of the run at once.
    const all = runCli(box, ['eval', '--demo', '--out', 'run', '--split', 'test', '--json']);
    expect(all.code).toBe(0);
    const scores = all.json() as Record<string, { score: number }>;
    expect(Object.keys(scores)).toEqual(['initial', 'best', 'final']);
    expect(scores.initial?.score).toBe(initial.json().score);
    expect(scores.best?.score).toBe(best.json().score);
    expect(scores.final?.score).toBe(best.json().score);
    expect(runCli(box, ['eval', '--demo', '--split', 'test']).code).toBe(2);
  });

  it('refuses bad configs with exit 2 naming the problem', () => {
    const box = sandbox();
    const unknown = runCli(box, ['train', '--demo', '--set', 'trainer.learnig_rate=3', '--out', 'x']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown key "trainer.learnig_rate"');
    writeFileSync(path.join(box.project, 'a.yaml'), '_base_: b.yaml\n');
    writeFileSync(path.join(box.project, 'b.yaml'), '_base_: a.yaml\n');
    const cycle = runCli(box, ['train', '--config', 'a.yaml', '--out', 'x', '--json']);
    expect(cycle.code).toBe(2);
    expect(cycle.json()).toMatchObject({ ok: false, error: 'bad_config' });
    expect(cycle.stderr).toMatch(/inheritance cycle/);
    expect(runCli(box, ['train', '--out', 'x']).code).toBe(2);
  });
});
