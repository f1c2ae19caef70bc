import { describe, expect, it } from 'vitest';
import {
  checkHash,
  forgottenOf,
  lineSaysForgottenRule,
  ruleTokenHashes,
  normalisedRule,
  quotesEvidence,
  ruleKey,
  sessionHash,
  withoutForgotten,
} from './forgotten-lesson.js';
import type { Lesson } from './lesson.js';

const lesson = (
  id: string,
  rule: string,
  said: Array<[string, number]>,
  extra: Partial<Lesson> = {},
): Lesson => ({
  id,
  rule,
  rule_from: said[0]?.[0] ?? '',
  project: '/work/app',
  kind: 'add dependency',
  kinds: ['task_1'],
  evidence: said.map(([session, turn]) => ({
    session,
    turn,
    sentence: `${rule} (${session})`,
    signals: ['check'],
    rejected: 'npm install zod',
    accepted: 'pnpm add zod',
  })),
  checks: [{ op: 'contains', arg: 'pnpm', because: rule }],
  criterion: null,
  support: new Set(said.map(([s]) => s)).size,
  origin: 'structure',
  ...extra,
});

const PNPM = lesson('lesson_aaa', 'No, use pnpm not npm', [
  ['claude:s1', 1],
  ['claude:s2', 2],
]);

describe('forgottenOf', () => {
  it('keeps hashes only: no sentence, no answer, no session id', () => {
    const f = forgottenOf(PNPM);
    expect(f).toEqual({
      id: 'lesson_aaa',
      project: '/work/app',
      ruleKey: ruleKey('No, use pnpm not npm'),
      evidence: [
        { session: sessionHash('claude:s1'), turn: 1 },
        { session: sessionHash('claude:s2'), turn: 2 },
      ],
      tokens: ruleTokenHashes('No, use pnpm not npm'),
      checks: [checkHash({ op: 'contains', arg: 'pnpm' })],
      origin: 'forget',
    });
    const text = JSON.stringify(f);
    for (const secret of ['pnpm', 'npm', 'claude:s1', 's2', 'zod']) expect(text).not.toContain(secret);
  });

  it('reads a rule the same whatever its case, punctuation or width', () => {
    expect(normalisedRule('No, use PNPM — not npm!')).toBe('no use pnpm not npm');
    expect(ruleKey('No, use PNPM — not npm!')).toBe(ruleKey('no use pnpm not npm'));
    expect(ruleKey('ＰＮＰＭ only')).toBe(ruleKey('pnpm only'));
    expect(ruleKey('!!!')).toBe('');
  });
});

describe('withoutForgotten', () => {
  const forgotten = [forgottenOf(PNPM)];

  it('drops the lesson by its id', () => {
    const other = lesson('lesson_bbb', 'run the tests before committing', [['claude:s3', 1]], {
      checks: [{ op: 'runs', arg: 'vitest' }],
    });
    expect(withoutForgotten([PNPM, other], forgotten)).toEqual({ kept: [other], dropped: [PNPM] });
  });

  it('drops a lesson under a new id that holds a piece of its evidence (consolidated with more)', () => {
    const merged = lesson('lesson_ccc', 'pnpm only in this repo', [
      ['claude:s0', 4],
      ['claude:s2', 2],
    ]);
    expect(withoutForgotten([merged], forgotten).dropped).toEqual([merged]);
    // The same session at another prompt is other evidence.
    const elsewhere = lesson('lesson_ddd', 'pnpm only in this repo', [['claude:s2', 5]], {
      checks: [{ op: 'runs', arg: 'pnpm' }],
    });
    expect(withoutForgotten([elsewhere], forgotten).kept).toEqual([elsewhere]);
  });

  it('drops the same rule said again in the project, not in another project', () => {
    const again = lesson('lesson_eee', 'no: use pnpm, not npm', [['claude:s9', 1]]);
    const elsewhere = { ...again, id: 'lesson_fff', project: '/work/other' };
    expect(withoutForgotten([again, elsewhere], forgotten)).toEqual({ kept: [elsewhere], dropped: [again] });
  });

  it('lets a lesson that the forgotten one retired stand again', () => {
    const older = lesson('lesson_old', 'use npm', [['claude:s0', 1]], {
      retired_by: 'lesson_aaa',
      checks: [{ op: 'runs', arg: 'npm' }],
    });
    const kept = withoutForgotten([older, PNPM], forgotten).kept;
    expect(kept).toHaveLength(1);
    expect(kept[0]?.retired_by).toBeUndefined();
    expect(older.retired_by).toBe('lesson_aaa'); // the input is not changed
    const stillRetired = { ...older, retired_by: 'lesson_zzz' };
    expect(withoutForgotten([stillRetired], forgotten).kept[0]?.retired_by).toBe('lesson_zzz');
  });

  it('drops a rewording: the same requirement in other words, or mostly the same words without checks', () => {
    const sameCheck = lesson('lesson_r1', 'wrong package manager again', [['claude:s7', 1]]);
    const opposite = lesson('lesson_r2', 'use npm, not pnpm', [['claude:s8', 1]], {
      checks: [{ op: 'not_contains', arg: 'pnpm' }],
    });
    const reworded = lesson('lesson_r3', 'use pnpm, not npm, please', [['claude:s9', 1]], {
      checks: [],
    });
    const unrelated = lesson('lesson_r4', 'keep commit subjects short', [['claude:s6', 1]], { checks: [] });
    const { kept, dropped } = withoutForgotten([sameCheck, opposite, reworded, unrelated], forgotten);
    expect(dropped.map((l) => l.id)).toEqual(['lesson_r1', 'lesson_r3']);
    expect(kept.map((l) => l.id)).toEqual(['lesson_r2', 'lesson_r4']);
    // The corpus's common words do not make two sentences one.
    const common = lesson('lesson_r5', 'no use of it', [['claude:s5', 1]], { checks: [] });
    expect(withoutForgotten([common], forgotten, new Set(['no', 'use', 'of', 'it'])).kept).toEqual([common]);
  });

  it('knows a line that states a rejected rule: its check, or most of its words', () => {
    const f = forgottenOf(PNPM, 'reject');
    expect(lineSaysForgottenRule('Always run "pnpm".', [checkHash({ op: 'contains', arg: 'pnpm' })], f)).toBe(
      true,
    );
    expect(lineSaysForgottenRule('When the task is "deps": No, use pnpm not npm.', [], f)).toBe(true);
    expect(lineSaysForgottenRule('Keep commit subjects under 50 characters.', [], f)).toBe(false);
  });

  it('changes nothing when nothing was forgotten', () => {
    expect(withoutForgotten([PNPM], [])).toEqual({ kept: [PNPM], dropped: [] });
  });
});

describe('quotesEvidence', () => {
  it('matches a quote of the same prompt in the same session, capped either way', () => {
    const evidence = [{ session: 'claude:s1', sentence: 'No, use pnpm not npm' }];
    expect(quotesEvidence('claude:s1', 'No, use pnpm not npm', evidence)).toBe(true);
    expect(quotesEvidence('claude:s1', 'No, use pnpm', evidence)).toBe(true);
    expect(quotesEvidence('claude:s2', 'No, use pnpm not npm', evidence)).toBe(false);
    expect(quotesEvidence('claude:s1', '', evidence)).toBe(false);
  });
});
