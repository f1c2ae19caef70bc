/** Leave-one-out pruning reads which check each edit states: it replays only what the answers leave open. */
import { describe, expect, it } from 'vitest';
import { emptyTask, type Check, type Edit, type TaskRecord } from '../core/task.js';
import type { ReplayResult } from '../replay/replay.js';
import { ruleJudge } from '../replay/judges/rule-checks.js';
import { applyEdits, learnedRules } from './learned-block.js';
import type { ReplayPhase } from './gate-records.js';
import { selectEdits, STATED_RULES_BUDGET_CHARS } from './select-edits.js';

const add = (content: string): Edit => ({ target: 'skill', op: 'add', content, anchor: '', rationale: '' });
const task = (id: string, checks: Check[]): TaskRecord =>
  emptyTask({ id, intent: id, reference_kind: 'rule', judge: { kind: 'rule', checks }, split: 'val' });

/**
 * A fake target: each answer part comes from a rule of the skill that produces it (`produce`), and the
 * answer is judged by the task's real checks.
 */
function target(produce: (rules: string[], t: TaskRecord) => string) {
  const replays: Array<{ phase: ReplayPhase; tasks: number }> = [];
  const answer = (doc: string, tasks: TaskRecord[]): ReplayResult[] =>
    tasks.map((t) => {
      const response = produce(learnedRules(doc), t);
      const score = ruleJudge(t.judge.checks ?? [], response, []);
      return { task: t, response, toolsCalled: [], ...score, latencyMs: 0, tokens: 0 };
    });
  const replay = (phase: ReplayPhase, tasks: TaskRecord[], doc: string) => {
    replays.push({ phase, tasks: tasks.length });
    return Promise.resolve(answer(doc, tasks));
  };
  const pruneReplays = (): number =>
    replays.filter((r) => r.phase === 'prune_trial').reduce((n, r) => n + r.tasks, 0);
  return { answer, replay, pruneReplays };
}

function select(baseDoc: string, tasks: TaskRecord[], edits: Edit[], t: ReturnType<typeof target>) {
  return selectEdits({
    baseDoc,
    edits,
    baselineResults: t.answer(baseDoc, tasks),
    metric: { metric: 'mixed', mixedWeight: 0.5 },
    noRegression: false,
    replay: t.replay,
  });
}

const PNPM = add('Use pnpm, never npm, to add a dependency.');
const VITEST = add('Run the tests with `vitest --run`.');
/** Answers name what the rules say: pnpm and vitest --run when told, else npm and bare vitest. */
const tools = (rules: string[]): string =>
  `${rules.some((r) => r.includes('pnpm')) ? '$ pnpm add zod' : '$ npm install zod'}\n${rules.some((r) => r.includes('vitest --run')) ? '$ vitest --run' : '$ vitest'}`;
const needsPnpm = (id: string) => task(id, [{ op: 'contains', arg: 'pnpm' }]);
const needsRun = (id: string) => task(id, [{ op: 'contains', arg: 'vitest --run' }]);

describe('leave-one-out pruning and the checks edits state', () => {
  it('is skipped when each edit fixes its own held-out tasks', async () => {
    const t = target(tools);
    const s = await select(
      '# Skill\n',
      [needsPnpm('a1'), needsPnpm('a2'), needsRun('b1'), needsRun('b2')],
      [PNPM, VITEST],
      t,
    );
    expect(s.accepted).toBe(true);
    expect(s.kept).toEqual([PNPM, VITEST]);
    expect(t.pruneReplays()).toBe(0);
    expect(s.untried.map((u) => u.why)).toEqual(['fixes', 'fixes']);
  });

  it('still tries an edit that states nothing a failed check asked for, and drops it when it did nothing', async () => {
    const t = target(tools);
    const vague = add('Be careful with dependencies.');
    const s = await select(
      '# Skill\n',
      [needsPnpm('a1'), needsPnpm('a2'), needsRun('b1')],
      [vague, PNPM, VITEST],
      t,
    );
    expect(s.kept).toEqual([PNPM, VITEST]);
    expect(s.rejected).toEqual([expect.objectContaining({ content: vague.content, delta: 0 })]);
    expect(t.pruneReplays()).toBeGreaterThan(0);
  });

  it('tries both of two edits that state the same check, and keeps one', async () => {
    const t = target(tools);
    const again = add('Always pnpm for installs.');
    const s = await select('# Skill\n', [needsPnpm('a1'), needsPnpm('a2')], [PNPM, again], t);
    expect(s.kept).toHaveLength(1);
    expect(t.pruneReplays()).toBeGreaterThan(0);
  });

  it('tries every edit when a held-out task regressed', async () => {
    // The vitest rule breaks a task that must not mention vitest: LOO must look at each edit.
    const t = target(tools);
    const quiet = task('q', [{ op: 'not_contains', arg: 'vitest --run' }]);
    const s = await select(
      '# Skill\n',
      [needsPnpm('a1'), needsPnpm('a2'), needsRun('b1'), needsRun('b2'), quiet],
      [PNPM, VITEST],
      t,
    );
    expect(s.accepted).toBe(true);
    expect(s.untried).toEqual([]);
    expect(t.pruneReplays()).toBeGreaterThan(0);
  });
});

describe('pruning keeps the edit that states a failed check’s own requirement', () => {
  const LIMIT = add('Keep the entire answer under 1,200 characters.');
  const SHAPE = add('Answer in at most five short bullet points.');
  const short = (id: string) => task(id, [{ op: 'max_chars', arg: 1200 }]);
  /** Either rule alone keeps the answer short enough (narrowly, in the night). */
  const lengthy = (rules: string[]): string => 'x'.repeat(rules.length > 0 ? 1100 : 1500);

  it('drops the vaguer rule, not the precise one, when either alone passes', async () => {
    const t = target(lengthy);
    const s = await select('# Skill\n', [short('v1'), short('v2')], [LIMIT, SHAPE], t);
    expect(s.kept).toEqual([LIMIT]);
    expect(s.rejected.map((e) => e.content)).toEqual([SHAPE.content]);
  });

  it('with a regressed task, keeps the precise rule on a tie and drops the one that hurts', async () => {
    // The shape rule shortens the answer but drops its summary: one task regresses, so every edit gets
    // its trial. Without the limit the score ties: the precise rule stays. Without the shape rule the
    // score rises: it goes. (Pruning used to drop the limit for the tie, then keep the shape rule.)
    const summary = task('s', [{ op: 'contains', arg: 'Summary' }]);
    const produce = (rules: string[]): string =>
      `${rules.includes(SHAPE.content) ? '' : 'Summary '}${'x'.repeat(lengthy(rules.filter((r) => r === LIMIT.content || r === SHAPE.content)).length)}`;
    const t = target(produce);
    const s = await select('# Skill\n', [short('v1'), short('v2'), summary], [LIMIT, SHAPE], t);
    expect(s.kept).toEqual([LIMIT]);
    expect(s.untried).toEqual([]);
    // Past the budget the precise rule has no such standing: the tie drops it.
    const long = applyEdits('# Skill\n', [add('y'.repeat(STATED_RULES_BUDGET_CHARS))]).doc;
    const o = await select(long, [short('v1'), short('v2'), summary], [LIMIT, SHAPE], target(produce));
    expect(o.kept).toEqual([SHAPE]);
  });

  it('prunes a rule that states a failed check the candidate still fails', async () => {
    const verdict = task('v', [{ op: 'section_present', arg: 'Verdict' }]);
    const tiny = task('w', [{ op: 'max_chars', arg: 5 }]);
    const produce = (rules: string[]): string =>
      rules.some((r) => r.includes('Verdict')) ? 'Verdict: ok' : 'ok then';
    const VERDICT = add('End with a Verdict: line.');
    const FIVE = add('Keep answers under 5 characters.');
    const s = await select('# Skill\n', [verdict, tiny], [FIVE, VERDICT], target(produce));
    expect(s.kept).toEqual([VERDICT]);
    expect(s.rejected.map((e) => e.content)).toEqual([FIVE.content]);
  });
});
