// A night with `llm_refine` on a real-model backend labels its sessions and reads rules from the
// corrections offline mining left unchecked, and reports both; on the mock it changes nothing.
import { afterEach, describe, expect, it } from 'vitest';
import { MockBackend } from '../src/backends/mock/mock-backend.js';
import { BudgetExhaustedError } from '../src/core/errors.js';
import { defaultConfig } from '../src/config/schema.js';
import { cleanupDemoNights, demoNight } from './helpers/demo-night.js';
import type { NightReport } from '../src/night/night-report.js';
import { askingBackend, labelPromptRequests } from './helpers/json-asker.js';

afterEach(cleanupDemoNights);

const night = demoNight;

/** What a night decides, without its clock and paths (task ids hash the project's temporary folder). */
const decided = (r: NightReport) => ({
  n_tasks: r.n_tasks,
  n_clusters: r.n_clusters,
  recurring_tasks: r.recurring_tasks.map(({ id: _id, ...rest }) => rest),
  edits: r.edits,
  baseline: r.baseline,
  candidate: r.candidate,
  learned_rules: r.learned_rules,
});

describe('llm_refine in a night', () => {
  it('changes nothing on the offline mock', async () => {
    const off = await night(new MockBackend(), defaultConfig());
    const on = await night(new MockBackend(), { ...defaultConfig(), llm_refine: true });
    expect(decided(on)).toEqual(decided(off));
    expect('llm_labels' in on || 'llm_rules' in on).toBe(false);
  });

  it('reports what the labelling and rules passes did', async () => {
    const backend = askingBackend((req) =>
      req.template === 'label-sessions'
        ? { labels: labelPromptRequests(req.vars).map((_, i) => ({ id: i + 1, label: 'demo work' })) }
        : { checks: [], rubric: '' },
    );
    const report = await night(backend, { ...defaultConfig(), llm_refine: true });
    expect(report.llm_labels).toMatchObject({
      labelled: report.llm_labels?.sessions,
      reused: 0,
      stopped: false,
    });
    expect(report.llm_labels?.sessions).toBeGreaterThan(0);
    expect(report.llm_rules?.sent).toBe(
      backend.asked.filter((a) => a.template === 'rule-from-correction').length,
    );
    // Their calls count in the night's totals.
    expect(report.calls).toBeGreaterThanOrEqual(backend.asked.length);
  });

  it('stops the labelling cleanly when the budget is spent and still trains on the offline kinds', async () => {
    const backend = askingBackend(() => {
      throw new BudgetExhaustedError('max_calls reached', 'max_calls');
    });
    const report = await night(backend, { ...defaultConfig(), llm_refine: true });
    expect(report.llm_labels).toMatchObject({ labelled: 0, stopped: true });
    expect(report.llm_labels?.skipped_budget).toBe(report.llm_labels?.sessions);
    // The demo's corrections all gave checks offline: there is nothing for the rules pass to send.
    expect(report.llm_rules).toMatchObject({ sent: 0, skipped_budget: 0 });
    // The demo's 16 sessions, less its three unjudged one-offs.
    expect(report.n_tasks).toBe(13);
  });
});
