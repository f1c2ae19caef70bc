import { describe, expect, it } from 'vitest';
import { MockBackend } from '../../backends/mock/mock-backend.js';
import type { Backend } from '../../backends/types.js';
import { zeroUsage } from '../../core/usage.js';
import { BackendError, BudgetExhaustedError } from '../../core/errors.js';
import { emptyTask, type Split } from '../../core/task.js';
import { applyEdits, learnedRules } from '../learned-block.js';
import type { Dataset, DatasetItem } from './dataset.js';
import { epochBoundary } from './epoch-boundary.js';
import { Rollouts } from './rollout.js';
import { trainStep, type StepContext } from './train-step.js';
import { trainConfigSchema, type TrainConfig } from './train-config.js';
import type { TrainState } from './train-state.js';

const item = (id: string, draft: string, answer: string, split: Split): DatasetItem => ({
  task: emptyTask({
    id,
    intent: `question ${id}`,
    attempted_solution: draft,
    reference_kind: 'exact',
    reference: answer,
    split,
  }),
  answers: [answer],
});

function dataset(items: DatasetItem[]): Dataset {
  const of = (s: Split) => items.filter((i) => i.task.split === s);
  return { file: 'mem', items, train: of('train'), val: of('val'), test: of('test') };
}

function context(
  items: DatasetItem[],
  over: Partial<TrainConfig['trainer']> = {},
  backend: Backend = new MockBackend(),
): StepContext {
  const config = trainConfigSchema.parse({
    data: { path: 'mem' },
    gate: { metric: 'hard' },
    trainer: { learning_rate: 2, minibatch_size: 4, ...over },
  });
  const usage = zeroUsage();
  return {
    config,
    backend,
    rollouts: new Rollouts(backend, 2, usage, '', null),
    data: dataset(items),
    usage,
  };
}

function state(skill: string, score: number): TrainState {
  return {
    version: 1,
    config_hash: 'x',
    step: 0,
    boundary_epoch: 0,
    current_skill: skill,
    current_score: score,
    best_skill: skill,
    best_score: score,
    best_step: 0,
    initial_skill: skill,
    initial_val: score,
    epoch_start_skill: skill,
    rejected: [],
    pending: [],
    stale_epochs: 0,
    meta_note: '',
    history_count: 0,
    calls: 0,
  };
}

const rule = (content: string) => ({
  target: 'skill' as const,
  op: 'add' as const,
  content,
  anchor: '',
  rationale: '',
});
const SKILL = '# Skill\n';
const NPM = 'Use "pnpm" instead of "npm".';
const COLOUR = 'Use "color" instead of "colour".';

const items = [
  item('t1', 'npm test', 'pnpm test', 'train'),
  item('t2', 'colour red', 'color red', 'train'),
  item('v1', 'npm run dev', 'pnpm run dev', 'val'),
  item('v2', 'colour blue', 'color blue', 'val'),
];

describe('trainStep', () => {
  it('selects the learning rate worth of edits and accepts what the gate confirms', async () => {
    const ctx = context(items);
    const s = state(SKILL, 0);
    const one = await trainStep(ctx, s, ctx.data.train, 1, 1, 1);
    expect(one.edits).toMatchObject({ proposed: 2, selected: 1, applied: 1, accepted: 1 });
    expect(one.accepted).toBe(true);
    expect(one.val_before).toBe(0);
    expect(one.val_after).toBe(0.5);
    expect(learnedRules(s.current_skill)).toHaveLength(1);
    const two = await trainStep(ctx, s, ctx.data.train, 2, 1, 2);
    expect(two.accepted).toBe(true);
    expect(s.best_score).toBe(1);
    expect(s.best_step).toBe(2);
  });

  it('reports edits whose anchor is not in the skill as unmatched, not rejected, and skips the gate', async () => {
    const backend = new MockBackend();
    backend.reflect = () =>
      Promise.resolve({
        edits: [{ target: 'skill', op: 'replace', content: 'x', anchor: 'no such rule', rationale: '' }],
        usage: zeroUsage(),
      });
    const ctx = context(items, {}, backend);
    const s = state(SKILL, 0);
    const r = await trainStep(ctx, s, ctx.data.train, 1, 1, 2);
    expect(r.unmatched_edits).toHaveLength(1);
    expect(r.rejected_edits).toHaveLength(0);
    expect(r.gate).toBe('skip_no_edits');
    expect(s.rejected).toHaveLength(0);
  });

  it('rewrite mode: the backend rewrites the learned rules and the result is gated like a patch', async () => {
    const ctx = context(items, { update_mode: 'rewrite' });
    const s = state(applyEdits(SKILL, [rule(NPM)]).doc, 0.5);
    const r = await trainStep(ctx, s, ctx.data.train, 1, 1, 2);
    expect(r.accepted).toBe(true);
    // The mock's rewrite sorts the rules: the patch alone would have appended COLOUR after NPM.
    expect(learnedRules(s.current_skill)).toEqual([COLOUR, NPM]);
    expect(s.current_skill.startsWith('# Skill\n')).toBe(true);
  });

  it('rewrite mode falls back to the patch when the rewrite reply is unusable, and still gates it', async () => {
    const backend = new MockBackend();
    backend.rewrite = () => Promise.resolve({ rules: [42], usage: zeroUsage() });
    const ctx = context(items, { update_mode: 'rewrite' }, backend);
    const s = state(SKILL, 0);
    const r = await trainStep(ctx, s, ctx.data.train, 1, 1, 2);
    expect(r.accepted).toBe(true);
    expect(learnedRules(s.current_skill)).toHaveLength(2);
  });

  it('rewrite mode falls back on a reply that does not parse, but a spent budget or an auth failure propagates', async () => {
    const unparsable = new MockBackend();
    unparsable.rewrite = () => Promise.reject(new SyntaxError('Unexpected token'));
    const ok = context(items, { update_mode: 'rewrite' }, unparsable);
    expect((await trainStep(ok, state(SKILL, 0), ok.data.train, 1, 1, 2)).accepted).toBe(true);
    for (const err of [
      new BudgetExhaustedError('max_calls reached', 'max_calls'),
      new BackendError('401 auth'),
    ]) {
      const backend = new MockBackend();
      backend.rewrite = () => Promise.reject(err);
      const ctx = context(items, { update_mode: 'rewrite' }, backend);
      await expect(trainStep(ctx, state(SKILL, 0), ctx.data.train, 1, 1, 2)).rejects.toBe(err);
    }
  });

  it('rewrite mode rejects a rewrite that lowers the validation score, without banning the suggestions', async () => {
    const backend = new MockBackend();
    backend.rewrite = () => Promise.resolve({ rules: ['Use "npm" instead of "pnpm".'], usage: zeroUsage() });
    const ctx = context(items, { update_mode: 'rewrite' }, backend);
    const s = state(applyEdits(SKILL, [rule(NPM)]).doc, 0.5);
    const before = s.current_skill;
    const r = await trainStep(ctx, s, ctx.data.train, 1, 1, 2);
    expect(r.accepted).toBe(false);
    expect(r.gate).toBe('reject');
    expect(s.current_skill).toBe(before);
    expect(r.val_after).toBeLessThan(r.val_before ?? 0);
    expect(r.rejected_edits.length).toBeGreaterThan(0);
    expect(r.rejected_edits.every((e) => e.delta === 0 && e.reason.includes('rewrite'))).toBe(true);
    expect(s.pending).toEqual([]);
  });
});

describe('rules that only help together, at learning rate 1', () => {
  it("a tied edit stays pending and is accepted together with the next step's edit", async () => {
    // Every task needs both fixes at once, so either rule alone ties on the exact-match gate.
    const together = [
      item('t1', 'npm colour', 'pnpm color', 'train'),
      item('t2', 'npm run colour', 'pnpm run color', 'train'),
      item('v1', 'npm colour check', 'pnpm color check', 'val'),
    ];
    const ctx = context(together);
    const s = state(SKILL, 0);
    const first = await trainStep(ctx, s, ctx.data.train, 1, 1, 1);
    expect(first.accepted).toBe(false);
    expect(first.rejected_edits).toEqual([expect.objectContaining({ delta: 0 })]);
    expect(s.pending).toHaveLength(1);
    // A tie is not harm: it is not in the never-again list.
    expect(s.rejected.every((e) => e.delta === 0)).toBe(true);
    const second = await trainStep(ctx, s, ctx.data.train, 2, 1, 1);
    expect(second.edits.selected).toBe(1);
    expect(second.accepted).toBe(true);
    expect(learnedRules(s.current_skill)).toHaveLength(2);
    expect(s.current_score).toBe(1);
    expect(s.pending).toEqual([]);
  });
});

describe('epoch boundary', () => {
  it("slow update: drops this epoch's rule that regressed tasks, keeps the one that improved, gated on val", async () => {
    const regressing = [
      item('t1', 'npm test', 'pnpm test', 'train'),
      item('t2', 'main branch', 'main branch', 'train'),
      item('v1', 'npm run dev', 'pnpm run dev', 'val'),
      item('v2', 'main', 'main', 'val'),
    ];
    const ctx = context(regressing);
    const harm = 'Never include "main".';
    const s = state(applyEdits(SKILL, [rule(NPM), rule(harm)]).doc, 0.5);
    s.epoch_start_skill = SKILL;
    const r = await epochBoundary(ctx, s, 1, 3, 2);
    expect(r.kind).toBe('slow_update');
    expect(r.accepted).toBe(true);
    expect(learnedRules(s.current_skill)).toEqual([NPM]);
    expect(s.current_score).toBe(1);
    expect(r.rejected_edits.map((e) => e.anchor)).toContain(NPM);
    expect(s.meta_note).toMatch(/1 improved, 1 regressed/);
    expect(s.meta_note).toContain(harm);
    expect(s.epoch_start_skill).toBe(s.current_skill);
  });

  it('the meta note reaches the next reflection', async () => {
    const ctx = context(items);
    const s = state(SKILL, 0);
    s.meta_note = 'After epoch 1: remember the colour rule.';
    const seen: Array<string | undefined> = [];
    const reflect = ctx.backend.reflect.bind(ctx.backend);
    ctx.backend.reflect = (req) => {
      seen.push(req.metaNote);
      return reflect(req);
    };
    await trainStep(ctx, s, ctx.data.train, 4, 2, 1);
    expect(seen).toContain('After epoch 1: remember the colour rule.');
  });
});
