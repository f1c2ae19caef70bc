/**
 * `train --list-envs`, and `train --config <benchmark fixture>` on the mock: each environment's fixture
 * (the dataset's own file format, the reference's split manifest) trains for an epoch and `eval` scores
 * the result, in-process.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, sandbox } from './cli-helpers.js';

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/envs');

describe('train --list-envs', () => {
  it('prints every environment on one line with where its data goes', async () => {
    const box = sandbox();
    const r = await runCli(box, ['train', '--list-envs']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines.map((l) => /^\[sleep\] ([a-z]+):/.exec(l)?.[1])).toEqual([
      'jsonl',
      'searchqa',
      'livemathematicianbench',
      'officeqa',
      'docvqa',
      'spreadsheetbench',
      'alfworld',
    ]);
    expect(lines.find((l) => l.includes('searchqa:'))).toMatch(/data_dir: .*lucadiliello\/searchqa/);
    const json = await runCli(box, ['train', '--list-envs', '--json']);
    expect((json.json() as unknown as Array<{ name: string }>).map((e) => e.name)).toContain('searchqa');
  });

  it('names a config without data_dir, and an unknown env with the closest name', async () => {
    const box = sandbox();
    const noData = await runCli(box, ['train', '--config', path.resolve('configs/searchqa.yaml')]);
    expect(noData.code).toBe(2);
    expect(noData.stderr).toMatch(/key "data_dir": required by env searchqa/);
    const typo = await runCli(box, [
      'train',
      '--config',
      path.resolve('configs/searchqa.yaml'),
      '--set',
      'env=serchqa',
    ]);
    expect(typo.stderr).toMatch(/no environment "serchqa" \(did you mean "searchqa"\?\)/);
  });
});

describe.each(['searchqa', 'livemathematicianbench', 'officeqa', 'docvqa'])(
  'train --config on the %s fixture (mock)',
  (env) => {
    it('runs a short training, writes its outputs, and eval scores the run', async () => {
      const box = sandbox();
      const config = path.join(FIXTURES, env, 'fixture.yaml');
      const r = await runCli(box, [
        'train',
        '--config',
        config,
        '--backend',
        'mock',
        '--out',
        'run',
        '--json',
      ]);
      expect(r.code, r.stderr).toBe(0);
      const s = r.json();
      expect(s.steps).toBeGreaterThan(0);
      expect(typeof s.initial_val).toBe('number');
      expect(s.test).not.toBeNull();
      const out = path.join(box.project, 'run');
      for (const f of ['best_skill.md', 'final_skill.md', 'history.jsonl', 'summary.json'])
        expect(existsSync(path.join(out, f))).toBe(true);
      // The run starts from the environment's initial skill.
      expect(readFileSync(path.join(out, 'snapshots', 'step-0000.md'), 'utf8')).not.toBe('');
      const e = await runCli(box, [
        'eval',
        '--config',
        config,
        '--backend',
        'mock',
        '--out',
        'run',
        '--split',
        'test',
        '--json',
      ]);
      expect(e.code, e.stderr).toBe(0);
      const reports = e.json() as Record<string, { n: number; split: string }>;
      expect(reports.best?.split).toBe('test');
      expect(reports.best?.n).toBeGreaterThan(0);
    });
  },
);
