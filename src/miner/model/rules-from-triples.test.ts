import { describe, expect, it } from 'vitest';
import { askingBackend } from '../../../test/helpers/json-asker.js';
import { BudgetExhaustedError } from '../../core/errors.js';
import { mineSessions } from '../mine.js';
import { session } from '../test-helpers.js';
import type { Cluster } from '../types.js';
import { rulesFromTriples } from './rules-from-triples.js';

const stopsOn = (err: unknown): boolean => err instanceof BudgetExhaustedError;

/** One commit-message session whose correction the offline miner turns into nothing. */
function mined() {
  const s = session(
    [
      {
        prompt: 'Write a commit message for the staged changes in the parser',
        reply: '```\nfix parser bug\n```',
      },
      { prompt: 'Mention the issue number please', reply: '```\nfix parser bug\n\nRefs: #12\n```' },
    ],
    { key: 'claude:a' },
  );
  const night = mineSessions([s], { project: '/p', maxTasks: 10 });
  const cluster = night.clusters[0] as Cluster;
  return {
    cluster,
    input: {
      clusters: night.clusters,
      sessions: new Map([[s.key, s]]),
      intents: new Map(night.tasks.map((t) => [t.source_sessions[0] ?? '', t.intent])),
      stopsOn,
    },
  };
}

describe('rulesFromTriples', () => {
  it('sends the correction with its rejected and accepted answers', async () => {
    const { cluster, input } = mined();
    expect(cluster.correctionReports.map((r) => r.result)).toEqual(['none']);
    const model = askingBackend(() => ({ checks: [], rubric: '' }));
    await rulesFromTriples({ ...input, backend: model });
    expect(model.asked).toEqual([
      {
        template: 'rule-from-correction',
        vars: {
          kind: cluster.label,
          correction: 'Mention the issue number please',
          rejected: '```\nfix parser bug\n```',
          accepted: '```\nfix parser bug\n\nRefs: #12\n```',
        },
      },
    ]);
    expect(cluster.correctionReports[0]?.reason).toBe(
      'said once, and the answer only grew; the model read no rule',
    );
  });

  it('keeps a check that separates the answers, with its provenance, and drops the others with why', async () => {
    const { cluster, input } = mined();
    const model = askingBackend(() => ({
      checks: [
        { op: 'contains', arg: 'Refs: #' },
        { op: 'contains', arg: 'parser' },
        { op: 'regex', arg: '(' },
        { op: 'contains', arg: 'Refs:' },
      ],
      rubric: '',
    }));
    const r = await rulesFromTriples({ ...input, backend: model });
    expect(r.stats).toMatchObject({ sent: 1, checks_proposed: 4, checks_validated: 1, checks_dropped: 3 });
    expect(cluster.checks).toEqual([{ op: 'contains', arg: 'Refs: #' }]);
    expect(cluster.checkSources).toEqual([
      {
        check: { op: 'contains', arg: 'Refs: #' },
        sessionKey: 'claude:a',
        sentence: 'Mention the issue number please',
        by: 'model',
      },
    ]);
    expect(cluster.correctionReports[0]).toMatchObject({
      result: 'checks',
      checks: [{ op: 'contains', arg: 'Refs: #' }],
      reason:
        'said once, and the answer only grew; model check validated; model check dropped: rejected answer passes it; model check dropped: not a valid check; model check dropped: over the limit of checks',
    });
    expect(r.changed).toEqual(new Set([cluster.id]));
    expect(r.acceptedBySession.get('claude:a')).toBe('```\nfix parser bug\n\nRefs: #12\n```');
  });

  it('drops a check the rejected answer passes or the accepted one fails, leaving the kind as it was', async () => {
    const { cluster, input } = mined();
    const model = askingBackend(() => ({
      checks: [
        { op: 'contains', arg: 'fix parser' },
        { op: 'contains', arg: 'Closes #' },
      ],
    }));
    const r = await rulesFromTriples({ ...input, backend: model });
    expect(cluster.checks).toEqual([]);
    expect(cluster.correctionReports[0]).toMatchObject({
      result: 'none',
      reason:
        'said once, and the answer only grew; model check dropped: rejected answer passes it; model check dropped: accepted answer fails it',
    });
    expect(r.changed.size).toBe(0);
  });

  it("drops a check the session's first attempt already passes (a replay starts from it)", async () => {
    const s = session(
      [
        { prompt: 'Write a commit message for the parser change', reply: '```\nfix parser\n\nRefs: #3\n```' },
        { prompt: 'Drop the footer, keep the subject only', reply: '```\nfix parser\n```' },
        { prompt: 'Mention the issue number please', reply: '```\nfix parser\n\nRefs: #12\n```' },
      ],
      { key: 'claude:f' },
    );
    const night = mineSessions([s], { project: '/p', maxTasks: 10 });
    const cluster = night.clusters[0] as Cluster;
    const report = cluster.correctionReports.find((c) => c.sentence.startsWith('Mention'));
    expect(report?.result).not.toBe('checks');
    const model = askingBackend((req) =>
      req.vars['correction']?.startsWith('Mention') ? { checks: [{ op: 'contains', arg: 'Refs: #' }] } : {},
    );
    await rulesFromTriples({
      clusters: night.clusters,
      sessions: new Map([[s.key, s]]),
      intents: new Map(night.tasks.map((t) => [t.source_sessions[0] ?? '', t.intent])),
      stopsOn,
      backend: model,
    });
    expect(report?.reason).toMatch(/model check dropped: the session's first attempt passes it$/);
    expect(cluster.checkSources.filter((c) => c.by === 'model')).toEqual([]);
  });

  it('keeps a natural not_contains of a word as word-bounded not_mentions, which the pnpm answer passes', async () => {
    const s = session(
      [
        { prompt: 'Install the dependencies for the web app', reply: '```\nnpm install\n```' },
        { prompt: 'we are on workspaces here, redo it', reply: '```\npnpm install\n```' },
      ],
      { key: 'claude:w' },
    );
    const night = mineSessions([s], { project: '/p', maxTasks: 10 });
    const cluster = night.clusters[0] as Cluster;
    expect(cluster.correctionReports.map((r) => r.result)).not.toContain('checks');
    const model = askingBackend(() => ({
      checks: [
        { op: 'contains', arg: 'pnpm' },
        { op: 'not_contains', arg: 'npm' },
      ],
    }));
    await rulesFromTriples({
      clusters: night.clusters,
      sessions: new Map([[s.key, s]]),
      intents: new Map(night.tasks.map((t) => [t.source_sessions[0] ?? '', t.intent])),
      stopsOn,
      backend: model,
    });
    expect(cluster.checks).toEqual([
      { op: 'contains', arg: 'pnpm' },
      { op: 'not_mentions', arg: 'npm' },
    ]);
  });

  it("turns a rubric in the user's words into a criterion of the kind", async () => {
    const { cluster, input } = mined();
    const model = askingBackend(() => ({ checks: [], rubric: 'The message mentions the issue number.' }));
    const r = await rulesFromTriples({ ...input, backend: model });
    expect(cluster.criteria).toEqual(['The message mentions the issue number.']);
    expect(cluster.correctionReports[0]).toMatchObject({ result: 'rubric' });
    expect(cluster.correctionReports[0]?.reason).toMatch(/model rubric kept as a criterion$/);
    expect(r.stats.rubrics).toBe(1);

    const other = mined();
    const offTopic = askingBackend(() => ({ rubric: 'Be concise and professional.' }));
    await rulesFromTriples({ ...other.input, backend: offTopic });
    expect(other.cluster.criteria).toEqual([]);
    expect(other.cluster.correctionReports[0]?.reason).toMatch(
      /model rubric dropped: not in the user's words$/,
    );
  });

  it('stops cleanly on a spend limit and counts what it did not send', async () => {
    const { cluster, input } = mined();
    const model = askingBackend(() => {
      throw new BudgetExhaustedError('max_calls reached', 'max_calls');
    });
    const r = await rulesFromTriples({ ...input, backend: model });
    expect(r.stats).toMatchObject({ sent: 0, skipped_budget: 1, stopped: true });
    expect(cluster.correctionReports[0]?.reason).toBe('said once, and the answer only grew');
  });

  it('respects the night limit', async () => {
    const { input } = mined();
    const model = askingBackend(() => ({ checks: [] }));
    const r = await rulesFromTriples({ ...input, backend: model, limit: 0 });
    expect(model.asked).toHaveLength(0);
    expect(r.stats.skipped_limit).toBe(1);
  });
});
