import { describe, expect, it } from 'vitest';
import type { Backend, ReflectRequest, RejectedEditMemory } from '../backends/types.js';
import { zeroUsage } from '../core/usage.js';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { emptyTask, type Edit } from '../core/task.js';
import { LEGACY_REGRESSION_REASON, REGRESSION_REASON } from '../core/rejected-edit.js';
import { openStore } from '../store/db.js';
import { recordRejectedEdit, rejectedEdits } from '../store/learning-repo.js';
import { queueBackend } from '../../test/helpers/queue-llm.js';
import { proposeEdits } from './propose.js';
import { reflectionBuffer, withoutRefused } from './rejected-buffer.js';
import { TIE_REASON } from './select-edits.js';

const refused = (content: string, delta: number, reason: string, at: number): RejectedEditMemory => ({
  target: 'skill',
  op: 'add',
  content,
  delta,
  reason,
  at,
});
const add = (content: string): Edit => ({ target: 'skill', op: 'add', content, anchor: '', rationale: '' });

// What a night's store holds after a few nights: the right pnpm rule only "did not help" (0.000), a
// wrong npm rule lowered the score, one rule regressed a task without moving the mean, one is pending.
const PNPM = refused(
  'Use pnpm for installs; this is a pnpm workspace.',
  0,
  'did not help on validation tasks',
  30,
);
const NPM = refused('Run `npm ci` before tests.', -0.25, 'lowered the validation score', 10);
const REGRESSED = refused('Always answer in one line.', 0, REGRESSION_REASON, 20);
const TIED = refused('Run `vitest --run`, never watch mode.', 0, TIE_REASON, 40);

describe('the rejected-edit buffer', () => {
  it('splits made-worse from no-effect, leaves pending re-tests out, and bans only the harmful', () => {
    const buffer = reflectionBuffer([PNPM, NPM, REGRESSED, TIED], [add(TIED.content)]);
    expect(buffer.map((r) => r.content)).toEqual([NPM.content, REGRESSED.content, PNPM.content]);
    const kept = withoutRefused(
      [add(PNPM.content), add(NPM.content), add('run `npm CI`  before tests.'), add(REGRESSED.content)],
      [PNPM, NPM, REGRESSED],
    );
    expect(kept.map((e) => e.content)).toEqual([PNPM.content]);
  });

  it('is capped: the most harmful, then the most recent, first', () => {
    const many = [
      ...Array.from({ length: 20 }, (_, i) =>
        refused(`worse ${i}`, -0.01 * (i % 5) - 0.01, 'lowered the validation score', i),
      ),
      ...Array.from({ length: 20 }, (_, i) => refused(`flat ${i}`, 0, 'did not help on validation tasks', i)),
    ];
    const buffer = reflectionBuffer(many, [], { worse: 3, noEffect: 2 });
    expect(buffer.map((r) => r.content)).toEqual(['worse 19', 'worse 14', 'worse 9', 'flat 19', 'flat 18']);
  });

  it('reaches the reflect prompt as two lists with their reasons, pending edits not among them', async () => {
    const q = queueBackend(['{"edits": []}']);
    const sent: ReflectRequest[] = [];
    const backend: Backend = {
      name: 'real-reflect',
      offline: false,
      attempt: () => Promise.reject(new Error('unused')),
      judgeRubric: () => Promise.reject(new Error('unused')),
      reflect: (req) => {
        sent.push(req);
        return q.llm.reflect(req);
      },
    };
    await proposeEdits({
      backend,
      doc: '# Skill\n',
      otherDoc: '',
      failures: [
        {
          task: emptyTask({ id: 't1', intent: 'Add zod to the web app' }),
          response: 'npm install zod',
          score: { hard: 0, soft: 0, rationale: 'failed' },
        },
      ],
      successes: [],
      minibatchSize: 0,
      reflectSuccesses: false,
      reflectBudget: 2,
      select: 2,
      rejected: [PNPM, NPM, REGRESSED, TIED],
      pending: [add(TIED.content)],
      preferences: '',
      workers: 1,
      seed: 0,
      usage: zeroUsage(),
    });
    const prompt = q.provider.sent[0]?.messages[0]?.content ?? '';
    const section = prompt.slice(prompt.indexOf('# Edits the gate refused before'));
    const never = section.indexOf('## Made validation scores worse');
    const flat = section.indexOf('## No measurable effect');
    expect(never).toBeGreaterThan(0);
    expect(flat).toBeGreaterThan(never);
    expect(section.slice(never, flat)).toContain(
      `${NPM.content} (score change -0.250: lowered the validation score)`,
    );
    expect(section.slice(never, flat)).toContain(REGRESSED.content);
    expect(section.slice(flat)).toContain(
      `${PNPM.content} (score change 0.000: did not help on validation tasks)`,
    );
    expect(prompt).not.toContain(TIED.content);
    expect(prompt).not.toContain('do not propose them again');
    expect(sent[0]?.rejected).toHaveLength(3);
  });
});

describe('rejected edits in the store', () => {
  it('keeps the reason and time, and a harmful verdict outlives a later tie', () => {
    const db = openStore(path.join(mkdtempSync(path.join(os.tmpdir(), 'sos-rej-')), 'store.sqlite'));
    const edit = { target: 'skill' as const, op: 'add', content: 'Run `npm ci` before tests.' };
    recordRejectedEdit(db, '/p', { ...edit, reason: 'did not help on validation tasks' }, 0, null, 5);
    expect(rejectedEdits(db, '/p')[0]).toMatchObject({
      reason: 'did not help on validation tasks',
      delta: 0,
      at: 5,
    });
    // A store written before validation was named so still holds the old wording of a regression.
    recordRejectedEdit(db, '/p', { ...edit, reason: LEGACY_REGRESSION_REASON }, 0, null, 6);
    recordRejectedEdit(db, '/p', { ...edit, reason: TIE_REASON }, 0, null, 7);
    expect(rejectedEdits(db, '/p')[0]).toMatchObject({
      reason: LEGACY_REGRESSION_REASON,
      delta: 0,
      at: 7,
      times: 3,
    });
    recordRejectedEdit(db, '/p', { ...edit, reason: 'lowered the validation score' }, -0.2, null, 8);
    recordRejectedEdit(db, '/p', { ...edit, reason: TIE_REASON }, 0, null, 9);
    expect(rejectedEdits(db, '/p')[0]).toMatchObject({ reason: 'lowered the validation score', delta: -0.2 });
    db.close();
  });
});
