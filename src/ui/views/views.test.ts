import { describe, expect, it } from 'vitest';
import type { ProposalStatus, ProposalSummary } from '../../../proposals/index.js';
import type { NightPoint, ProjectNights } from '../data.js';
import { parseFilter } from '../filter.js';
import { renderProjectPage } from './project.js';
import { renderProposalPage } from './proposal.js';
import { nightsSeries } from './nights.js';

const NOW = Date.UTC(2026, 11, 7, 21, 4);
const o = { nonce: 'n', csrf: 'c'.repeat(64), now: NOW };

const summary = (status: ProposalStatus, extra: Partial<ProposalSummary> = {}): ProposalSummary => ({
  id: 'p1',
  dir: '/p/x',
  night: 1,
  createdAt: NOW - 3 * 3_600_000,
  status,
  targets: [
    {
      kind: 'skill',
      name: 'alpha',
      livePath: '/p/alpha/SKILL.md',
      adopted: status === 'adopted' || status === 'reverted',
    },
  ],
  ...extra,
});
const buttons = (page: string): string[] => [...page.matchAll(/ id="(\w+)-button"/g)].map((m) => m[1] ?? '');
const proposalPage = (s: ProposalSummary) =>
  renderProposalPage({ project: '/p', summary: s, diff: '+x', report: null, provenance: [], rules: [] }, o);

describe('the proposal page', () => {
  it('shows only the buttons its status allows', () => {
    expect(buttons(proposalPage(summary('staged')))).toEqual(['adopt', 'reject']);
    expect(buttons(proposalPage(summary('superseded', { supersededBy: 'p2' })))).toEqual(['reject']);
    expect(buttons(proposalPage(summary('adopted')))).toEqual(['revert']);
    expect(buttons(proposalPage(summary('rejected', { rejectReason: 'no' })))).toEqual([]);
    expect(buttons(proposalPage(summary('reverted')))).toEqual([]);
  });

  it('says reverted (not adopted) for a reverted proposal and its files', () => {
    const page = proposalPage(
      summary('reverted', { adoptedAt: NOW - 7_200_000, revertedAt: NOW - 3_600_000 }),
    );
    expect(page).toMatch(/<li data-testid="target">\s*reverted skill/);
    expect(page).toMatch(/data-status="reverted"\s*>reverted<\/span/);
    expect(page).toContain('Nothing to do: it was reverted.');
    expect(page).toMatch(
      /reverted <time datetime="[^"]+" title="[^"]+">2026-12-07 20:04 UTC \(1 h ago\)<\/time>/,
    );
  });

  it('shows a rejection’s reason, escaped', () => {
    const page = proposalPage(summary('rejected', { rejectReason: 'too <b>strict</b>', rejectedAt: NOW }));
    expect(page).toContain('rejected: too &lt;b&gt;strict&lt;/b&gt;');
  });

  it('dates the staging in UTC and relative to now, the ISO on hover', () => {
    expect(proposalPage(summary('staged'))).toContain(
      'staged <time datetime="2026-12-07T18:04:00.000Z" title="2026-12-07T18:04:00.000Z">2026-12-07 18:04 UTC (3 h ago)</time>',
    );
  });
});

const night = (id: number, extra: Partial<NightPoint> = {}): NightPoint => ({
  id,
  started_at: NOW - (10 - id) * 86_400_000,
  status: 'completed',
  baseline: 0.5,
  candidate: 0.75,
  gate_action: 'accept_new_best',
  cost_usd: 0,
  calls: 1,
  tokens: 2,
  cache_hits: 0,
  stopped: '',
  proposal_id: '',
  error: '',
  ...extra,
});

describe('the project page', () => {
  const nights = (list: NightPoint[], proposals: ProposalSummary[] = []): ProjectNights => ({
    project: '/p',
    nights: list,
    proposals,
    problem: '',
  });
  const render = (n: ProjectNights, q = '', status = '') =>
    renderProjectPage(
      { nights: n, live: [], lessons: { lessons: 1, active: 1, sessions: 1 } },
      o,
      parseFilter(q, status),
    );

  it('counts in words: 1 night, 1 lesson, 1 stored session', () => {
    const page = render(nights([night(1)])).replace(/\s+/g, ' ');
    expect(page).toContain('1 night;');
    expect(page).not.toContain('1 nights');
    expect(page).toContain('Lessons: 1 lesson (1 active) from the 1 stored session;');
  });

  it('words the gate and shows each night’s proposal with its status', () => {
    const page = render(
      nights([night(1, { proposal_id: 'p1' })], [summary('rejected', { rejectReason: 'not now' })]),
    );
    expect(page).toContain('<td data-testid="gate">accepted: new best</td>');
    expect(page).not.toContain('accept_new_best');
    expect(page).toMatch(/data-status="rejected"\s*>rejected: not now<\/span/);
  });

  it('filters nights and proposals by the GET form’s q and status', () => {
    const n = nights(
      [night(1, { proposal_id: 'p1' }), night(2, { gate_action: 'no_tasks' })],
      [summary('rejected', { rejectReason: 'not now' })],
    );
    const rows = (page: string) =>
      [...page.matchAll(/data-testid="night-row" data-night="(\d+)"/g)].map((m) => m[1]);
    expect(rows(render(n))).toEqual(['2', '1']);
    expect(rows(render(n, 'no tasks'))).toEqual(['2']);
    expect(rows(render(n, '', 'rejected'))).toEqual(['1']);
    expect(rows(render(n, '', 'none'))).toEqual(['2']);
    const filtered = render(n, 'no tasks').replace(/\s+/g, ' ');
    expect(filtered).toContain('1 of 2 nights match the filter');
    expect(filtered).toContain('0 of 1 proposal match the filter');
    expect(filtered).toContain('value="no tasks"');
  });

  it('says which nights have no score, rather than leaving a silent gap', () => {
    const page = render(nights([night(1), night(2, { baseline: null, candidate: null })])).replace(
      /\s+/g,
      ' ',
    );
    expect(page).toContain(
      '1 night has no validation score (— below); the chart joins the points around it.',
    );
    expect(render(nights([night(1)]))).not.toContain('no validation score');
  });

  it('gives a single night a chart range around it', () => {
    const s = nightsSeries(nights([night(1)]));
    const x = NOW - 9 * 86_400_000;
    expect(s.x_range).toEqual([x - 12 * 3_600_000, x + 12 * 3_600_000]);
  });
});
