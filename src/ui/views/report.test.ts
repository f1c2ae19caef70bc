/** Markup planted in every text a page shows stays text: the static report, and the live page's attributes. */
import { describe, expect, it } from 'vitest';
import type { ProposalView } from '../data.js';
import { renderProposalPage } from './proposal.js';
import { renderStaticReport } from './report.js';

const EVIL = `"'><script>alert(1)</script><img src=x onerror=y>`;
const ESCAPED = '&quot;&#39;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=y&gt;';

const view: ProposalView = {
  project: `/p/${EVIL}`,
  summary: {
    id: 'p1',
    dir: '/p/x',
    night: 1,
    createdAt: 0,
    status: 'staged',
    targets: [{ kind: 'skill', name: EVIL, livePath: `/p/${EVIL}/SKILL.md`, adopted: false }],
  },
  diff: `--- a/SKILL.md\n+++ b/SKILL.md\n@@ -1,1 +1,1 @@\n-${EVIL}\n+</pre>${EVIL}`,
  report: null,
  provenance: [
    {
      task_label: EVIL,
      kind: 'check',
      detail: EVIL,
      sentence: EVIL,
      session: EVIL,
      session_started_at: null,
    },
  ],
  rules: [],
};

/** No tag or attribute of the planted text survives; every copy of it is escaped. */
function expectInert(page: string): void {
  expect(page).not.toContain('<script>alert');
  expect(page).not.toContain('<img');
  expect(page).not.toContain(`"'>`);
  expect(page.split('</pre>').length - 1).toBe(1);
  expect(page).toContain(ESCAPED);
}

describe('pages escape what they show', () => {
  it('report --html: project, targets, diff, provenance and nights', () => {
    const night = {
      id: 1,
      started_at: 0,
      status: 'failed' as const,
      baseline: null,
      candidate: null,
      gate_action: EVIL,
      cost_usd: 0,
      calls: 0,
      tokens: 0,
      cache_hits: 0,
      stopped: EVIL,
      proposal_id: EVIL,
      error: EVIL,
    };
    const page = renderStaticReport({
      proposal: view,
      nights: { project: view.project, nights: [night], proposals: [], problem: '' },
    });
    expectInert(page);
    // The nights chart's data is JSON in a script element: its `<` stays escaped too.
    expect(page).not.toContain('</script><img');
  });

  it('the live proposal page: its forms and links carry the project path as an escaped attribute', () => {
    const page = renderProposalPage(view, { nonce: 'n', csrf: 'c'.repeat(64) });
    expectInert(page);
    expect(page).toContain(`name="dir" value="/p/${ESCAPED}"`);
  });
});
