import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MockBackend } from '../src/backends/mock/mock-backend.js';
import { silentLogger } from '../src/core/logger.js';
import { runTrain } from '../src/trainer/batch/run-train.js';
import { loadTrainConfig } from '../src/trainer/batch/train-config.js';
import { learnedRules } from '../src/trainer/learned-block.js';

const DEMO = path.resolve(import.meta.dirname, '../templates/train-demo/train.yaml');
const outDir = (): string => mkdtempSync(path.join(os.tmpdir(), 'sos-train-'));

/** A mock whose target dies after `n` answers (a crash mid-run). */
class CrashingMock extends MockBackend {
  private left: number;
  constructor(n: number) {
    super();
    this.left = n;
  }
  override attempt(req: Parameters<MockBackend['attempt']>[0]) {
    if (this.left-- <= 0) return Promise.reject(new Error('simulated crash'));
    return super.attempt(req);
  }
}

describe('runTrain on the bundled demo with the mock backend', () => {
  it('learns the house-style rules without the trap rule', async () => {
    const out = outDir();
    const s = await runTrain(loadTrainConfig(DEMO), out, {
      backend: new MockBackend(),
      logger: silentLogger,
    });
    expect(s.initial_val).toBeLessThan(0.5);
    expect(s.best_val).toBe(1);
    expect(s.test?.best).toBeGreaterThan(s.test?.initial ?? 1);
    const rules = learnedRules(readFileSync(path.join(out, 'best_skill.md'), 'utf8'));
    expect(rules).toEqual(
      expect.arrayContaining([
        'Use "pnpm" instead of "npm".',
        'Use "main" instead of "master".',
        'Never include "basically".',
        'Use "color" instead of "colour".',
      ]),
    );
    expect(rules).not.toContain('Use "master" instead of "main".');
  });

  it('rewrite mode also improves the demo (gated the same way)', async () => {
    const s = await runTrain(loadTrainConfig(DEMO, ['trainer.update_mode=rewrite']), outDir(), {
      backend: new MockBackend(),
      logger: silentLogger,
    });
    expect(s.best_val).toBeGreaterThan(s.initial_val);
  });

  it('a run that crashed mid-way resumes from its last finished step to the same result', async () => {
    const clean = outDir();
    await runTrain(loadTrainConfig(DEMO), clean, { backend: new MockBackend(), logger: silentLogger });
    const crashed = outDir();
    await expect(
      runTrain(loadTrainConfig(DEMO), crashed, { backend: new CrashingMock(40), logger: silentLogger }),
    ).rejects.toThrow('simulated crash');
    const state = JSON.parse(readFileSync(path.join(crashed, 'state.json'), 'utf8')) as { step: number };
    expect(state.step).toBeGreaterThan(0);
    const resumed = await runTrain(loadTrainConfig(DEMO), crashed, {
      backend: new MockBackend(),
      logger: silentLogger,
    });
    expect(resumed.resumed_from_step).toBe(state.step);
    const read = (dir: string, f: string): string => readFileSync(path.join(dir, f), 'utf8');
    expect(read(crashed, 'best_skill.md')).toBe(read(clean, 'best_skill.md'));
    expect(read(crashed, 'history.jsonl')).toBe(read(clean, 'history.jsonl'));
  });

  it('refuses to resume into an output folder of a different config', async () => {
    const out = outDir();
    await runTrain(loadTrainConfig(DEMO), out, { backend: new MockBackend(), logger: silentLogger });
    await expect(
      runTrain(loadTrainConfig(DEMO, ['trainer.learning_rate=1']), out, {
        backend: new MockBackend(),
        logger: silentLogger,
      }),
    ).rejects.toThrow(/different config/);
    // Same config file, but the dataset's bytes changed: another run too.
    const copy = path.join(outDir(), 'demo');
    cpSync(path.dirname(DEMO), copy, { recursive: true });
    const copied = path.join(copy, 'train.yaml');
    const run2 = outDir();
    await runTrain(loadTrainConfig(copied), run2, { backend: new MockBackend(), logger: silentLogger });
    writeFileSync(
      path.join(copy, 'tasks.jsonl'),
      readFileSync(path.join(copy, 'tasks.jsonl'), 'utf8').replace('pnpm test', 'pnpm t'),
    );
    await expect(
      runTrain(loadTrainConfig(copied), run2, { backend: new MockBackend(), logger: silentLogger }),
    ).rejects.toThrow(/different config, dataset or initial skill/);
  });

  it('stops early once the skill has not changed for trainer.patience epochs, and a resume stays stopped', async () => {
    const out = outDir();
    const config = loadTrainConfig(DEMO, ['trainer.epochs=40']);
    const s = await runTrain(config, out, { backend: new MockBackend(), logger: silentLogger });
    expect(s.best_val).toBe(1);
    expect(s.early_stop).not.toBeNull();
    const stoppedAfter = s.early_stop?.after_epoch ?? 0;
    expect(stoppedAfter).toBeLessThan(10);
    expect(s.early_stop?.unchanged_epochs).toBe(2);
    expect(s.epochs).toBe(stoppedAfter);
    const history = readFileSync(path.join(out, 'history.jsonl'), 'utf8').split('\n').filter(Boolean);
    const records = history.map((l) => JSON.parse(l) as { kind: string; epoch: number; skill_hash: string });
    expect(records.filter((r) => r.kind === 'step')).toHaveLength(s.steps);
    // The last two epochs changed nothing: every record in them has the hash the skill ended with.
    const last = records.filter((r) => r.epoch > stoppedAfter - 2);
    expect(new Set(last.map((r) => r.skill_hash)).size).toBe(1);
    const again = await runTrain(config, out, { backend: new MockBackend(), logger: silentLogger });
    expect(again.early_stop).toEqual(s.early_stop);
    expect(readFileSync(path.join(out, 'history.jsonl'), 'utf8').split('\n').filter(Boolean)).toHaveLength(
      history.length,
    );
  });

  it('trainer.patience 0 never stops early', async () => {
    const config = loadTrainConfig(DEMO, ['trainer.epochs=6', 'trainer.patience=0']);
    const s = await runTrain(config, outDir(), { backend: new MockBackend(), logger: silentLogger });
    expect(s.early_stop).toBeNull();
    expect(s.epochs).toBe(6);
  });
});
