// A night with a real-model backend runs the LLM miner on its recurring tasks: the model's statements
// join the heuristic instances of the same cluster (split with them), malformed ones are counted, and
// the mock and `llm_mine: false` never ask.
import { afterEach, describe, expect, it } from 'vitest';
import { MockBackend } from '../src/backends/mock/mock-backend.js';
import { miningBackend, type MiningBackend } from './helpers/mining-backend.js';
import { defaultConfig } from '../src/config/schema.js';
import { cleanupDemoNights, demoNight } from './helpers/demo-night.js';

afterEach(cleanupDemoNights);

/** The mock as the target, plus a miner that proposes one good and one malformed statement per task. */
const backendThatMines = (): MiningBackend =>
  miningBackend(
    (req) => [
      {
        intent: `Do this again: ${req.intents[0] ?? ''}`,
        checks: [{ op: 'min_chars', arg: 1 }, { op: 'no_refusal' }],
      },
      { intent: 'A statement whose check cannot compile', checks: [{ op: 'regex', arg: '(' }] },
    ],
    { calls: 1, inputTokens: 100, outputTokens: 40 },
  );

const night = demoNight;

describe('LLM miner in a night', () => {
  it('asks once per recurring or corrected task, keeps the valid statements and counts the rest', async () => {
    const backend = backendThatMines();
    const report = await night(backend, defaultConfig());
    const asked = report.llm_miner?.clusters ?? 0;
    // Uncorrected one-offs are not sent, and counted.
    expect(report.llm_miner?.skipped_one_off).toBeGreaterThan(0);
    expect(asked + (report.llm_miner?.skipped_one_off ?? 0)).toBe(report.n_clusters);
    expect(backend.requests).toHaveLength(asked);
    expect(report.llm_miner).toMatchObject({ calls: asked, proposed: 2 * asked, accepted: asked });
    expect(report.llm_miner?.dropped.invalid_check).toBe(asked);
    // The model's tasks are replayed with the heuristic instances a judge scores (13 of the demo's 16
    // sessions: its three uncorrected one-offs score the same whatever is answered).
    expect(report.n_tasks).toBe(13 + asked);
    // Its calls count in the night's totals.
    expect(report.calls).toBeGreaterThanOrEqual(asked);
    // The digest never carries row ids: wordings, corrections and the latest first answer only.
    const withCorrections = backend.requests.filter((r) => r.corrections.length > 0);
    expect(withCorrections.length).toBeGreaterThan(0);
  });

  it('does not run with llm_mine off or on the offline mock', async () => {
    const backend = backendThatMines();
    const off = await night(backend, { ...defaultConfig(), llm_mine: false });
    expect(backend.requests).toHaveLength(0);
    expect(off.llm_miner).toBeNull();
    const mock = await night(new MockBackend(), defaultConfig());
    expect(mock.llm_miner).toBeNull();
    expect(mock.n_tasks).toBe(13);
  });
});
