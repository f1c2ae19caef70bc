import { describe, expect, it } from 'vitest';
import { negativeWordCheck } from '../core/negative-check.js';
import { nightReportSchema, storedReportSchema, type LessonReport } from './night-report.js';
import { renderReportMd } from './render-report.js';

const lesson: LessonReport = {
  id: 'lesson_0123456789ab',
  rule: 'No, use *pnpm* not npm',
  project: '/work/app',
  kind: 'add dependency',
  support: 2,
  evidence: [
    { session: 'claude:s1', turn: 1, sentence: 'No, use *pnpm* not npm', signals: ['check'] },
    { session: 'claude:s2', turn: 3, sentence: 'pnpm <b>only</b>', signals: [] },
  ],
  checks: [{ op: 'contains', arg: 'pnpm' }, negativeWordCheck('npm')],
  criterion: null,
  origin: 'structure',
};

const report = (extra: Record<string, unknown>) =>
  nightReportSchema.parse({
    night: 1,
    project: '/work/app',
    started_at: 0,
    ended_at: 1,
    gate_action: 'reject',
    ...extra,
  });

describe('the report lists the lessons', () => {
  it('with how each is judged and its evidence, escaped', () => {
    const md = renderReportMd(
      report({
        lessons: [lesson, { ...lesson, id: 'lesson_b', checks: [], criterion: 'x', retired_by: 'lesson_c' }],
      }),
    );
    expect(md).toContain('## Lessons: what you taught the agent');
    expect(md).toContain(
      '- **No, use \\*pnpm\\* not npm** (lesson_0123456789ab; 2 sessions, kind add dependency, judged by 2 checks: contains "pnpm"; never mentions "npm" (regex))',
    );
    expect(md).toContain('  - “pnpm \\<b\\>only\\</b\\>” (claude:s2, prompt 3)');
    expect(md).toContain('judged by criterion) — _retired by lesson_c_');
  });

  it('says nothing of lessons when the night had none to report (a tasks file)', () => {
    expect(renderReportMd(report({}))).not.toContain('## Lessons');
    expect(storedReportSchema.parse(report({})).lessons).toBeUndefined();
  });
});
