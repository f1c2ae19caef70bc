import { describe, expect, it } from 'vitest';
import { html, jsonForScript, raw } from './html.js';
import { renderProposalPage, diffHtml } from './views/proposal.js';
import { renderStaticReport } from './views/report.js';

describe('ui html', () => {
  it('escapes every interpolated value unless it is Html', () => {
    const evil = '<script>alert("x")</script>&\'';
    expect(html`<p>${evil}</p>`.toString()).toBe(
      '<p>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;</p>',
    );
    expect(html`<p>${raw('<b>ok</b>')}${[1, ' ', null, html`<i>${'<'}</i>`]}</p>`.toString()).toBe(
      '<p><b>ok</b>1 <i>&lt;</i></p>',
    );
  });

  it('keeps JSON in a script element from closing it', () => {
    const text = jsonForScript({ s: '</script><script>x()</script>' }).toString();
    expect(text).not.toContain('</script');
    expect(JSON.parse(text)).toEqual({ s: '</script><script>x()</script>' });
  });

  it('colours diff lines and escapes their text', () => {
    const out = diffHtml('--- a\n+++ b\n@@ -1 +1 @@\n-old <b>\n+new').toString();
    expect(out).toContain('<span class="del">-old &lt;b&gt;</span>');
    expect(out).toContain('<span class="add">+new</span>');
    expect(out).toContain('<span class="hunk">');
  });

  it('renders static pages without buttons, links or asset URLs', () => {
    const night = {
      id: 1,
      started_at: 0,
      status: 'completed' as const,
      baseline: 0.5,
      candidate: 0.75,
      gate_action: 'accept_new_best',
      cost_usd: 0,
      calls: 1,
      tokens: 2,
      cache_hits: 0,
      stopped: '',
      proposal_id: 'p1',
      error: '',
    };
    const nights = renderStaticReport({
      proposal: null,
      nights: { project: '/p', nights: [night], proposals: [], problem: '' },
    });
    expect(nights).not.toMatch(/(src|href)="/);
    expect(nights).toContain('uPlot');
    const proposal = renderProposalPage(
      {
        project: '/p',
        summary: { id: 'p1', dir: '/p/x', night: 1, createdAt: 0, status: 'staged', targets: [] },
        diff: '+x',
        report: null,
        provenance: [],
        rules: [],
      },
      { nonce: 'n', static: true },
    );
    expect(proposal).not.toContain('<form');
    expect(proposal).toContain('id="diff"');
    const live = renderProposalPage(
      {
        project: '/p',
        summary: { id: 'p1', dir: '/p/x', night: 1, createdAt: 0, status: 'staged', targets: [] },
        diff: '+x',
        report: null,
        provenance: [],
        rules: [],
      },
      { nonce: 'n', csrf: 'c'.repeat(64) },
    );
    expect(live).toContain('id="adopt-button"');
    expect(live).toContain(`value="${'c'.repeat(64)}"`);
  });
});
