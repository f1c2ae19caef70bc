import { describe, expect, it } from 'vitest';
import { MockBackend } from '../backends/mock/mock-backend.js';
import { miningBackend } from '../../test/helpers/mining-backend.js';
import { emptyTask, type TaskRecord } from '../core/task.js';
import {
  canMineWithModel,
  clusterDigest,
  mineWithModel,
  replyStatements,
  validateStatement,
  sessionFollowUps,
} from './llm-miner.js';
import type { Cluster, CorrectionReport } from './types.js';
import { mineSessions } from './mine.js';
import { session } from './test-helpers.js';
import { GENERIC_REASON, PASTED_REASON } from './rules/kind-rules.js';
import { withoutCorrections } from './llm-statement-checks.js';
import { AnswerPendingError } from '../core/errors.js';

const cluster = (id: string, overrides: Partial<Cluster> = {}): Cluster => ({
  id,
  label: 'bump dependency',
  correctionReports: [],
  criteria: [],
  normalizedIntent: 'bump dependency',
  intent: 'bump the lodash dependency',
  members: [`${id}-s1`, `${id}-s2`],
  occurrences: 2,
  firstSeen: 1,
  lastSeen: 2,
  outcomes: { success: 1, fail: 1, mixed: 0, unknown: 0 },
  checks: [],
  corrections: ['use pnpm, not npm'],
  checkSources: [],
  ...overrides,
});

const instance = (clusterId: string, n: number, intent: string): TaskRecord =>
  emptyTask({
    id: `inst_${clusterId}_${n}`,
    intent,
    derived_from: clusterId,
    attempted_solution: `answer ${n}: run npm install`,
  });

/** Replies are scripted per call. */
const scriptedBackend = (replies: unknown[]) => miningBackend((_req, call) => replies[call]);

describe('validateStatement', () => {
  it('keeps content checks as a rule judge', () => {
    const v = validateStatement({
      intent: 'Install dependencies for the web app',
      checks: [
        { op: 'contains', arg: 'pnpm' },
        { op: 'regex', arg: '(?i)^(?![\\s\\S]*\\bnpm\\b)' },
      ],
      satisfied: false,
    });
    expect(v).toEqual({
      ok: true,
      statement: {
        intent: 'Install dependencies for the web app',
        checks: [
          { op: 'contains', arg: 'pnpm' },
          { op: 'regex', arg: '(?i)^(?![\\s\\S]*\\bnpm\\b)' },
        ],
        rubric: '',
        satisfied: false,
      },
    });
  });

  it('reads a natural not_contains of one word as word-bounded, so a pnpm answer can pass it', () => {
    const v = validateStatement({
      intent: 'Install the dependencies of the web app',
      checks: [
        { op: 'contains', arg: 'pnpm' },
        { op: 'not_contains', arg: 'npm' },
      ],
      satisfied: false,
    });
    expect(v.ok && v.statement.checks).toEqual([
      { op: 'contains', arg: 'pnpm' },
      { op: 'not_mentions', arg: 'npm' },
    ]);
  });

  it('prefers a rubric over checks that only test shape', () => {
    const v = validateStatement({
      intent: 'Summarise the release notes',
      checks: [{ op: 'max_chars', arg: 400 }],
      rubric: 'Names every breaking change and its migration step.',
      satisfied: true,
    });
    expect(v.ok && v.statement).toMatchObject({
      checks: [],
      rubric: 'Names every breaking change and its migration step.',
      satisfied: true,
    });
  });

  it('drops shape-only checks without a rubric, and statements with nothing to check', () => {
    expect(
      validateStatement({ intent: 'Summarise the release notes', checks: [{ op: 'max_chars', arg: 400 }] }),
    ).toEqual({ ok: false, reason: 'shape_only' });
    expect(validateStatement({ intent: 'Summarise the release notes', checks: [] })).toEqual({
      ok: false,
      reason: 'uncheckable',
    });
  });

  it.each([
    ['unknown op', { op: 'smells_good', arg: 'x' }],
    ['regex that does not compile', { op: 'regex', arg: '([unclosed' }],
    ['negative bound', { op: 'max_chars', arg: -5 }],
    ['non-integer bound', { op: 'min_chars', arg: 'lots' }],
    ['empty text argument', { op: 'contains', arg: '  ' }],
    ['argument of the wrong type', { op: 'contains', arg: { nested: true } }],
    ['not an object', 'contains pnpm'],
  ])('drops a statement with a malformed check: %s', (_name, check) => {
    expect(
      validateStatement({
        intent: 'Install dependencies',
        checks: [{ op: 'contains', arg: 'ok' }, check],
        rubric: 'r',
      }),
    ).toEqual({
      ok: false,
      reason: 'invalid_check',
    });
  });

  it('drops short intents and non-objects', () => {
    expect(validateStatement({ intent: 'fix', checks: [{ op: 'contains', arg: 'x' }] })).toEqual({
      ok: false,
      reason: 'short_intent',
    });
    expect(validateStatement(['intent'])).toEqual({ ok: false, reason: 'not_an_object' });
  });
});

describe('replyStatements', () => {
  it('reads an array or an object holding one under "tasks"', () => {
    expect(replyStatements([1])).toEqual([1]);
    expect(replyStatements({ tasks: [2] })).toEqual([2]);
    expect(replyStatements({ statements: [] })).toBeNull();
    expect(replyStatements('[]')).toBeNull();
  });
});

describe('clusterDigest', () => {
  it('shows distinct wordings newest first, the corrections and the latest first answer, bounded', () => {
    const c = cluster('task_a');
    const long = 'x'.repeat(500);
    const digest = clusterDigest('/p', c, [
      instance('task_a', 1, 'bump lodash'),
      instance('task_a', 2, long),
      instance('task_a', 3, 'bump lodash'),
    ]);
    expect(digest.intents).toEqual(['bump lodash', 'x'.repeat(240)]);
    expect(digest.corrections).toEqual(['use pnpm, not npm']);
    expect(digest.lastAnswer).toBe('answer 3: run npm install');
    expect(digest.outcomes).toEqual(c.outcomes);
  });
});

const report = (
  sentence: string,
  reason = '',
  result: CorrectionReport['result'] = 'none',
): CorrectionReport => ({
  sessionKey: 's1',
  sentence,
  result,
  checks: [],
  reason,
  rejected: '',
  accepted: '',
});

describe('the digest carries the evidence', () => {
  it('lists corrections no check came out of, but not pasted logs or feedback given on every kind', () => {
    const c = cluster('task_c', {
      label: 'commit message',
      corrections: [],
      correctionReports: [
        report('commit subjects must be imperative', 'said once, and the answer only grew'),
        report('still broken', GENERIC_REASON),
        report('Traceback (most recent call last): ...', PASTED_REASON),
      ],
    });
    const digest = clusterDigest('/p', c, [instance('task_c', 1, 'write a commit message')]);
    expect(digest.corrections).toEqual(['commit subjects must be imperative']);
  });

  it("shows each session's raw follow-ups after the first answer, newest session first, not the corrections again", () => {
    const older = session(
      [
        { prompt: 'Write a commit message for the parser fix', reply: '```\nfixed the parser\n```' },
        { prompt: 'commit subjects must be imperative', reply: 'ok' },
        { prompt: 'thanks, works now', reply: 'glad to help' },
      ],
      { key: 'claude:old', minute: 1 },
    );
    const newer = session(
      [
        { prompt: 'Write a commit message for the lexer change', reply: '```\nchanged lexer\n```' },
        { prompt: 'also push it', reply: 'pushed' },
      ],
      { key: 'claude:new', minute: 2 },
    );
    const night = mineSessions([older, newer], { project: '/p', maxTasks: 10 });
    const c = night.clusters[0] as Cluster;
    expect(c.corrections).toEqual([]);
    const followUps = sessionFollowUps(night.tasks, new Map([older, newer].map((s) => [s.key, s])));
    const digest = clusterDigest('/p', c, night.tasks, followUps);
    expect(digest.followUps).toEqual([
      'also push it',
      'commit subjects must be imperative',
      'thanks, works now',
    ]);
    expect(digest.followUps.join(' ')).not.toContain('Write a commit message');
  });
});

describe('task statements keep the preference out', () => {
  const digest = {
    intents: ['write a commit message for these changes'],
    corrections: ['commit subjects must be imperative'],
    followUps: ['stop using npm, we are on pnpm workspaces'],
  };

  it('strips a sentence that states a correction, and counts it', () => {
    const v = validateStatement(
      {
        intent: 'Write a commit message for the staged changes. The subject must be in the imperative mood.',
        rubric: 'The subject line is in the imperative mood.',
      },
      digest,
    );
    expect(v.ok && v.statement).toMatchObject({
      intent: 'Write a commit message for the staged changes.',
      stripped: true,
    });
  });

  it('rejects a statement that is nothing but the request plus the correction', () => {
    expect(
      validateStatement(
        { intent: 'Install the dependencies with pnpm', checks: [{ op: 'contains', arg: 'pnpm' }] },
        digest,
      ),
    ).toEqual({ ok: false, reason: 'leaks_correction' });
  });

  it("keeps an intent in the request's own words", () => {
    expect(
      withoutCorrections('Write a commit message for these changes', digest.corrections, digest.intents),
    ).toBe('Write a commit message for these changes');
  });
});

describe('mineWithModel', () => {
  const clusters = [cluster('task_a'), cluster('task_b', { corrections: [] })];
  const instances = [
    instance('task_a', 1, 'bump lodash please'),
    instance('task_a', 2, 'update lodash'),
    instance('task_b', 1, 'write the changelog'),
  ];

  it('does not send one-off tasks the user never corrected, and counts them', async () => {
    const backend = scriptedBackend([[], []]);
    const oneOffs = [
      cluster('task_x', { occurrences: 1, members: ['x1'], corrections: [] }),
      cluster('task_y', {
        occurrences: 1,
        members: ['y1'],
        corrections: [],
        correctionReports: [report('commit subjects must be imperative')],
      }),
      cluster('task_z', {
        occurrences: 1,
        members: ['z1'],
        corrections: [],
        correctionReports: [report('ok', GENERIC_REASON)],
      }),
    ];
    const out = await mineWithModel({
      project: '/p',
      clusters: [...clusters, ...oneOffs],
      instances,
      backend,
    });
    expect(backend.requests.map((r) => r.corrections)).toEqual([
      ['use pnpm, not npm'],
      [],
      ['commit subjects must be imperative'],
    ]);
    expect(out.stats).toMatchObject({ clusters: 3, calls: 3, skipped_one_off: 2 });
  });

  it('never runs on the offline mock', async () => {
    const mock = new MockBackend();
    expect(canMineWithModel(mock)).toBe(false);
    const out = await mineWithModel({ project: '/p', clusters, instances, backend: mock });
    expect(out.tasks).toEqual([]);
    expect(out.stats.calls).toBe(0);
  });

  it('turns valid statements into tasks of the same cluster and counts every drop', async () => {
    const backend = scriptedBackend([
      [
        {
          intent: 'Install the dependencies of the web app',
          checks: [{ op: 'contains', arg: 'pnpm' }],
          satisfied: false,
        },
        {
          intent: 'Install the dependencies of the web app',
          checks: [{ op: 'contains', arg: 'pnpm' }],
          satisfied: false,
        },
        { intent: 'Bump lodash to the latest minor', checks: [{ op: 'regex', arg: '(' }] },
        { intent: 'a fourth statement over the limit', rubric: 'anything' },
      ],
      'the model rambled instead of answering',
    ]);
    expect(canMineWithModel(backend)).toBe(true);
    const out = await mineWithModel({ project: '/p', clusters, instances, backend });
    expect(backend.requests).toHaveLength(2);
    expect(out.stats).toMatchObject({ clusters: 2, calls: 2, proposed: 4, accepted: 1 });
    expect(out.stats.dropped).toMatchObject({ duplicate: 1, invalid_check: 1, over_limit: 1, bad_reply: 1 });
    expect(out.stats.usage).toEqual({ calls: 2, inputTokens: 20, outputTokens: 10 });
    const [task] = out.tasks;
    expect(task).toMatchObject({
      intent: 'Install the dependencies of the web app',
      derived_from: 'task_a',
      reference_kind: 'rule',
      judge: { kind: 'rule', checks: [{ op: 'contains', arg: 'pnpm' }] },
      outcome: 'fail',
      context_excerpt: '',
      source_sessions: ['task_a-s1', 'task_a-s2'],
      tags: ['mined:llm', 'cluster:task_a'],
    });
    expect(task?.id).toMatch(/^llm_[0-9a-f]{12}$/);
  });

  it('stops quietly on an error the caller names (a spend limit), keeping what was mined', async () => {
    const backend = scriptedBackend([
      [{ intent: 'Install the dependencies', checks: [{ op: 'contains', arg: 'pnpm' }] }],
    ]);
    const first = backend.proposeTasks!.bind(backend);
    let calls = 0;
    backend.proposeTasks = (req) => (++calls === 1 ? first(req) : Promise.reject(new RangeError('spent')));
    const out = await mineWithModel({
      project: '/p',
      clusters,
      instances,
      backend,
      stopsMining: (err) => err instanceof RangeError,
    });
    expect(out.stats).toMatchObject({ clusters: 2, calls: 1, accepted: 1, stopped: true });
    expect(out.tasks).toHaveLength(1);
  });

  it('asks about every cluster when one waits for a handoff answer, then reports the wait', async () => {
    const backend = scriptedBackend([]);
    const asked: string[] = [];
    backend.proposeTasks = (req) => {
      asked.push(req.intents[0] ?? '');
      return Promise.reject(new AnswerPendingError(`r${asked.length}`));
    };
    await expect(mineWithModel({ project: '/p', clusters, instances, backend })).rejects.toMatchObject({
      requestId: 'r1',
    });
    expect(asked).toHaveLength(2);
  });

  it('any other backend failure (auth) propagates and stops the night', async () => {
    const backend = scriptedBackend([]);
    backend.proposeTasks = () => Promise.reject(new Error('budget reached'));
    await expect(mineWithModel({ project: '/p', clusters, instances, backend })).rejects.toThrow(
      'budget reached',
    );
  });
});

describe("the model's checks must separate the task's corrections", () => {
  it('keeps a check the corrected answer fails and the accepted one passes; drops the others, and statements left with none', async () => {
    const s = session(
      [
        { prompt: 'Install the dependencies for the web app', reply: '```\nnpm install\n```' },
        { prompt: 'we are on workspaces here, redo it', reply: '```\npnpm install\n```' },
      ],
      { key: 'claude:w' },
    );
    const night = mineSessions([s], { project: '/p', maxTasks: 10 });
    const backend = scriptedBackend([
      [
        {
          intent: 'Install the dependencies for the web app',
          checks: [
            { op: 'contains', arg: 'pnpm' },
            { op: 'not_contains', arg: 'npm install' },
            { op: 'contains', arg: 'install' },
          ],
          satisfied: false,
        },
        {
          intent: 'Install the packages of the web app',
          checks: [{ op: 'contains', arg: 'install' }, { op: 'no_refusal' }],
          satisfied: false,
        },
      ],
    ]);
    const out = await mineWithModel({
      project: '/p',
      clusters: night.clusters,
      instances: night.tasks,
      sessions: new Map([[s.key, s]]),
      backend,
    });
    expect(out.tasks.map((t) => t.judge.checks)).toEqual([[{ op: 'contains', arg: 'pnpm' }]]);
    expect(out.stats).toMatchObject({ accepted: 1, checks_unseparated: 3 });
    expect(out.stats.dropped.unsatisfiable).toBe(1);
  });
});
