/**
 * A `train` run stopped between two steps (as a kill there would: through runTrain's `onStep` seam,
 * the output folder copied as it was, then the run abandoned) resumes to the same final skill, best
 * skill and history as an uninterrupted run.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { MockBackend } from '../src/backends/mock/mock-backend.js';
import { silentLogger } from '../src/core/logger.js';
import { runTrain } from '../src/trainer/batch/run-train.js';
import { loadTrainConfig } from '../src/trainer/batch/train-config.js';

const DEMO = path.resolve(import.meta.dirname, '../templates/train-demo/train.yaml');

it('a train killed after its second record resumes to the same final skill as an uninterrupted run', async () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'sos-train-resume-'));
  const deps = { backend: new MockBackend(), logger: silentLogger };
  const straight = await runTrain(loadTrainConfig(DEMO), path.join(root, 'straight'), deps);

  const running = path.join(root, 'running');
  const killed = path.join(root, 'killed');
  await expect(
    runTrain(loadTrainConfig(DEMO), running, {
      ...deps,
      onStep: (records) => {
        if (records < 2) return;
        cpSync(running, killed, { recursive: true }); // what a kill here leaves on disk
        throw new Error('killed');
      },
    }),
  ).rejects.toThrow('killed');
  const state = JSON.parse(readFileSync(path.join(killed, 'state.json'), 'utf8')) as { step: number };
  expect(state.step).toBeGreaterThanOrEqual(1);
  expect(state.step).toBeLessThan(straight.steps);
  expect(existsSync(path.join(killed, 'summary.json'))).toBe(false);
  expect(existsSync(path.join(killed, 'final_skill.md'))).toBe(false);

  const resumed = await runTrain(loadTrainConfig(DEMO), killed, {
    backend: new MockBackend(),
    logger: silentLogger,
  });
  expect(resumed.resumed_from_step).toBe(state.step);
  const read = (dir: string, file: string): string => readFileSync(path.join(root, dir, file), 'utf8');
  expect(read('killed', 'best_skill.md')).toBe(read('straight', 'best_skill.md'));
  expect(read('killed', 'final_skill.md')).toBe(read('straight', 'final_skill.md'));
  expect(read('killed', 'history.jsonl')).toBe(read('straight', 'history.jsonl'));
  expect(resumed.best_val).toBe(straight.best_val);
});
