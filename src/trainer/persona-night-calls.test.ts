import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MockBackend } from '../backends/mock/mock-backend.js';
import { RULE_TABLE } from '../backends/mock/rule-grammar.js';
import type { AttemptRequest, AttemptResult, ReflectRequest, ReflectResult } from '../backends/types.js';
import { defaultConfig } from '../config/schema.js';
import { loadTasksFile } from '../miner/tasks-file.js';
import { runNightStep } from '../night/night-step.js';

const PERSONAS = path.resolve(import.meta.dirname, '../../test/fixtures/personas');

/** The mock, counting the requests that reach it. */
class CountingMock extends MockBackend {
  requests = 0;
  override attempt(req: AttemptRequest): Promise<AttemptResult> {
    this.requests += 1;
    return super.attempt(req);
  }
  override reflect(req: ReflectRequest): Promise<ReflectResult> {
    this.requests += 1;
    return super.reflect(req);
  }
}

async function personaNight(name: string) {
  const config = defaultConfig();
  const { tasks } = loadTasksFile(path.join(PERSONAS, `${name}.tasks.json`), {
    seed: config.seed,
    valFraction: config.val_fraction,
    testFraction: config.test_fraction,
    warn: () => undefined,
  });
  const backend = new CountingMock();
  const result = await runNightStep({
    tasks,
    skill: '# Skill\n',
    memory: '',
    backend,
    rejected: [],
    options: {
      editBudget: config.edit_budget,
      metric: { metric: config.gate_metric, mixedWeight: config.gate_mixed_weight },
      noRegression: config.gate_no_regression,
      preferences: '',
    },
  });
  return { result, requests: backend.requests };
}

describe('model calls of a persona night (mock backend)', () => {
  it('researcher: the leave-one-out trials stop at the first task that shows the edit, same decisions', async () => {
    const { result, requests } = await personaNight('researcher');
    expect(result.gateAction).toBe('accept_new_best');
    expect(result.baseline).toBe(0.5);
    expect(result.candidate).toBe(1);
    expect(result.edits.map((e) => e.content)).toEqual([RULE_TABLE['wrap-answer'], RULE_TABLE['units-si']]);
    // 5 baseline + 7 train + 1 reflect + 5 gate = 18, then one validation task per kept edit. Re-running
    // the 5 validation tasks for each of the 2 edits was 28.
    expect(result.counts).toEqual({ train: 7, val: 5, test: 0, unscored: 0 });
    expect(requests).toBe(20);
    expect(result.usage.calls).toBe(requests);
  });

  it('researcher with a harmful rule: the harmful edit is still dropped, with fewer calls', async () => {
    const { result, requests } = await personaNight('researcher-with-harmful');
    expect(result.edits.map((e) => e.content)).toEqual([RULE_TABLE['wrap-answer'], RULE_TABLE['units-si']]);
    expect(result.rejectedEdits.map((e) => e.content)).toEqual([RULE_TABLE.__harmful__]);
    expect(requests).toBe(36);
  });
});
