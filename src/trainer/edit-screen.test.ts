import { describe, expect, it } from 'vitest';
import { forgottenOf } from '../core/forgotten-lesson.js';
import type { Lesson } from '../core/lesson.js';
import type { Edit } from '../core/task.js';
import { screenEdits } from './edit-screen.js';

const add = (content: string): Edit => ({ target: 'skill', op: 'add', content, anchor: '', rationale: 'r' });

const MIGRATION = 'las migraciones empiezan con la fecha y la hora, catorce cifras';
const checks = [
  { op: 'regex', arg: 'migrations/\\d{14}_', because: MIGRATION },
  { op: 'runs', arg: 'pnpm', because: 'this repo is pnpm only' },
];

const rejected: Lesson = {
  id: 'lesson_pnpm',
  rule: 'this repo is pnpm only',
  rule_from: 'claude:s1',
  project: '/p',
  kind: 'deps',
  kinds: ['k'],
  evidence: [
    {
      session: 'claude:s1',
      turn: 1,
      sentence: 'this repo is pnpm only',
      signals: [],
      rejected: '',
      accepted: '',
    },
  ],
  checks: [{ op: 'runs', arg: 'pnpm' }],
  criterion: null,
  support: 1,
  origin: 'structure',
};

describe('the screen of edits', () => {
  it("rewrites a pattern as the user's own sentence of the check it states, in their language", () => {
    const r = screenEdits([add('Always match `migrations/\\d{14}_`.')], { checks, forgotten: [] });
    expect(r.kept.map((e) => e.content)).toEqual([`${MIGRATION}.`]);
    expect(r.rewritten).toBe(1);
  });

  it('refuses a pattern no sentence stands for, and says why', () => {
    const r = screenEdits([add('Answers match `^[A-Z][a-z]+: .*$`.')], { checks, forgotten: [] });
    expect(r.kept).toEqual([]);
    expect(r.refused[0]?.reason).toMatch(/^not plain words: it holds/);
  });

  it('drops a line that states a rejected rule, in the words of the user or of a model', () => {
    const forgotten = [forgottenOf(rejected, 'reject')];
    const r = screenEdits(
      [
        add('Install packages with pnpm, never npm.'),
        add('this repo is pnpm only'),
        add('Keep commits small.'),
      ],
      { checks, forgotten },
    );
    expect(r.kept.map((e) => e.content)).toEqual(['Keep commits small.']);
    expect(r.forgottenDropped).toBe(2);
  });

  it('lets deletions through: they write nothing', () => {
    const del: Edit = { target: 'skill', op: 'delete', content: '', anchor: '^\\d+$', rationale: 'r' };
    expect(screenEdits([del], { checks, forgotten: [] }).kept).toEqual([del]);
  });
});
