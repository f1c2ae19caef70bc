/**
 * `train --tasks-file SEED_DIR` and `eval --tasks-file SEED_DIR`: the batch trainer on a benchmark seed
 * folder (our own, test/fixtures/seeds): benchmark tasks train and gate, held-out tasks are the test
 * split, scored before (the seed's skill) and after (the best skill), and the skill keeps its frontmatter.
 */
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, sandbox } from './cli-helpers.js';

const SEED = path.resolve(import.meta.dirname, '../fixtures/seeds/seed-release-notes');

describe('train --tasks-file SEED_DIR', () => {
  it('trains on the benchmark tasks and reports the held-out test before and after', async () => {
    const box = sandbox();
    const r = await runCli(box, ['train', '--tasks-file', SEED, '--backend', 'mock', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const summary = r.json();
    // Named after the seed folder: its output goes to ./skillopt-runs/seed-release-notes.
    const out = path.join(box.project, 'skillopt-runs', 'seed-release-notes');
    expect(summary.out_dir).toBe(out);
    expect(summary.test).toMatchObject({ before: 0, after: 1, initial: 0, best: 1 });
    const best = readFileSync(path.join(out, 'best_skill.md'), 'utf8');
    expect(best.startsWith(readFileSync(path.join(SEED, 'SKILL.md'), 'utf8'))).toBe(true);
    expect(best).toContain('## Breaking Changes');

    const scored = await runCli(box, [
      'eval',
      '--tasks-file',
      SEED,
      '--backend',
      'mock',
      '--skill',
      path.join(out, 'best_skill.md'),
      '--split',
      'test',
      '--json',
    ]);
    expect(scored.code, scored.stderr).toBe(0);
    expect(scored.json()).toMatchObject({ split: 'test', n: 5, score: 1 });
  });

  it('takes the other keys from --config, the dataset and skill from the seed', async () => {
    const box = sandbox();
    const config = path.join(box.root, 'train.yaml');
    writeFileSync(
      config,
      'name: tuned\ndata: {path: elsewhere.jsonl}\ntrainer: {epochs: 1, batch_size: 4}\n',
    );
    const r = await runCli(box, ['train', '--config', config, '--tasks-file', SEED, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toMatchObject({ epochs: 1, test: { before: 0 } });
    expect(existsSync(path.join(box.project, 'skillopt-runs', 'tuned', 'best_skill.md'))).toBe(true);
  });

  it('refuses a file, and a real backend until the seed is marked reviewed', async () => {
    const box = sandbox();
    const file = await runCli(box, ['train', '--tasks-file', path.join(SEED, 'benchmark.jsonl')]);
    expect(file.code).toBe(2);
    expect(file.stderr).toContain('train and eval take a seed folder');
    const seed = path.join(box.root, 'seed');
    cpSync(SEED, seed, { recursive: true });
    const real = await runCli(box, ['train', '--tasks-file', seed, '--backend', 'openai'], {
      OPENAI_API_KEY: 'test-key-not-secret',
    });
    expect(real.code).toBe(2);
    expect(real.stderr.trim().split('\n')).toHaveLength(1);
    expect(real.stderr).toContain('it is not marked reviewed');
  });
});
