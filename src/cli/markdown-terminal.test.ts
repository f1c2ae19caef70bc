import { describe, expect, it } from 'vitest';
import { renderReportMd } from '../night/render-report.js';
import type { NightReport } from '../night/night-report.js';
import { markdownForTerminal } from './markdown-terminal.js';

describe('markdownForTerminal', () => {
  it('takes the escapes out of untrusted text and keeps it as written', () => {
    expect(markdownForTerminal('- [skill/add] Use inst\\_1 and \\[\\\\s\\\\S\\] \\*not\\* a\\|b')).toBe(
      '- [skill/add] Use inst_1 and [\\s\\S] *not* a|b',
    );
  });

  it('drops the emphasis and code-span markup but keeps what is inside', () => {
    expect(markdownForTerminal('- gate: **accept_new_best** (accepted=true)')).toBe(
      '- gate: accept_new_best (accepted=true)',
    );
    expect(markdownForTerminal('  _why: it failed on snake\\_case_')).toBe('  why: it failed on snake_case');
    expect(markdownForTerminal('- project: `/home/u/my_app`')).toBe('- project: /home/u/my_app');
    expect(markdownForTerminal('| Task | Baseline |')).toBe('| Task | Baseline |');
  });

  it('gives back the rules of a rendered report exactly', () => {
    const rule = 'Match ids like inst_1 with `[\\s\\S]*` <never> a|b';
    const report = {
      night: 1,
      project: '/p',
      backend: 'mock',
      edits: [{ target: 'skill', op: 'add', content: rule, rationale: 'seen_twice' }],
      rejected_edits: [],
      pending_edits: [],
      unmatched_edits: [],
      gate_trials: [],
      recurring_tasks: [],
      one_off_tasks: [],
      learned_rules: [rule],
      notes: [],
      baseline: 0.5,
      candidate: 1,
      accepted: true,
      gate_action: 'accept_new_best',
      test_score: null,
      spend: null,
      memory: null,
    } as unknown as NightReport;
    const md = renderReportMd(report);
    expect(md).toContain('inst\\_1');
    const text = markdownForTerminal(md);
    expect(text).toContain(`- [skill/add] ${rule}`);
    expect(text).toContain('  why: seen_twice');
    expect(text).toContain(`- ${rule}`);
    expect(text).not.toMatch(/\\[_[\]\\]/);
  });
});
