import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MockBackend } from '../src/backends/mock/mock-backend.js';
import { silentLogger } from '../src/core/logger.js';
import { runTrain } from '../src/train/run-train.js';
import { loadTrainConfig } from '../src/train/train-config.js';
import type { StepRecord } from '../src/trainer/step-record.js';
import { learnedRules } from '../src/trainer/learned-block.js';

const DEMO = path.resolve(import.meta.dirname, '../templates/train-demo/train.yaml');
const outDir = (): string => mkdtempSync(path.join(os.tmpdir(), 'sos-train-'));

describe('runTrain on the bundled demo with the mock backend', () => {
  it('improves the validation score and writes every output', async () => {
    const out = outDir();
    const s = await runTrain(loadTrainConfig(DEMO), out, {
      backend: new MockBackend(),
      logger: silentLogger,
    });
    console.log(JSON.stringify(s));
    const history = readFileSync(path.join(out, 'history.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as StepRecord);
    for (const h of history)
      console.log(
        h.kind,
        h.step,
        h.lr,
        h.gate,
        h.val_before,
        h.val_after,
        h.accepted_edits.map((e) => e.content),
        h.rejected_edits.map((e) => `${e.content} ${e.delta} ${e.reason}`),
      );
    console.log(readFileSync(path.join(out, 'best_skill.md'), 'utf8'));
    expect(s.best_val).toBeGreaterThan(s.initial_val);
  });
});
