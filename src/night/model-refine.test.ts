import { describe, expect, it } from 'vitest';
import { askingBackend, labelPromptRequests, type AskedRequest } from '../../test/helpers/json-asker.js';
import type { HarvestedSession } from '../core/session.js';
import { MockBackend } from '../backends/mock/mock-backend.js';
import type { Backend } from '../backends/types.js';
import { fixedClock } from '../core/clock.js';
import { silentLogger } from '../core/logger.js';
import { defaultConfig, type Config } from '../config/schema.js';
import { session } from '../miner/test-helpers.js';
import { openStore, type Db } from '../store/db.js';
import { sessionWriter } from '../store/session-writer.js';
import { mineProjectClusters } from './mine-project.js';
import { refineWithModel } from './model-refine.js';
import type { NightDeps, NightRequest } from './run-night.js';

const PROJECT = '/work/app';
const NOW = Date.UTC(2026, 5, 1);

/** Two commit-message sessions; the second user asks for the issue number, which offline gives nothing. */
function store(): Db {
  const db = openStore(':memory:');
  const sessions = [
    session(
      [
        {
          prompt: 'Write a commit message for the staged changes in the parser',
          reply: '```\nfix parser bug\n```',
        },
        { prompt: 'Mention the issue number please', reply: '```\nfix parser bug\n\nRefs: #12\n```' },
      ],
      { key: 'claude:a', cwd: PROJECT },
    ),
    session(
      [
        {
          prompt: 'Write a commit message for the staged changes in the lexer',
          reply: '```\nfix lexer\n```',
        },
      ],
      { key: 'claude:b', cwd: PROJECT },
    ),
  ];
  for (const [i, s] of sessions.entries()) {
    const harvested: HarvestedSession = {
      ...s,
      startedAt: NOW - 3_600_000 * (2 - i),
      endedAt: NOW - 3_000_000,
    };
    sessionWriter(db).write(harvested, PROJECT, null, NOW);
  }
  return db;
}

function context(db: Db, backend: Backend, overrides: Partial<Config> = {}) {
  const config = { ...defaultConfig(), llm_refine: true, ...overrides };
  const req: NightRequest = { project: PROJECT, config, mode: 'dry-run', ignoreLookback: true };
  const deps: NightDeps = {
    home: '/nowhere',
    userHome: '/nowhere',
    env: {},
    clock: fixedClock(NOW),
    db,
    backend,
    logger: silentLogger,
  };
  return { req, deps, mined: mineProjectClusters(db, PROJECT, config, deps.clock, true) };
}

/** Labels every session "commit messages"; reads `contains "Refs: #"` from the correction. */
const model = () =>
  askingBackend((req: AskedRequest) =>
    req.template === 'label-sessions'
      ? { labels: labelPromptRequests(req.vars).map((_, i) => ({ id: i + 1, label: 'commit messages' })) }
      : { checks: [{ op: 'contains', arg: 'Refs: #' }], rubric: '' },
  );

describe('refineWithModel', () => {
  it('changes nothing and asks nothing when off, with llm_mine off, or on the offline mock', async () => {
    const db = store();
    const backend = model();
    for (const [b, overrides] of [
      [backend, { llm_refine: false }],
      [backend, { llm_mine: false }],
      [new MockBackend(), {}],
    ] as const) {
      const { req, deps, mined } = context(db, b, overrides);
      const refined = await refineWithModel(mined, req, deps);
      expect(refined.mined).toBe(mined);
      expect(refined.stats).toBeNull();
    }
    expect(backend.asked).toHaveLength(0);
  });

  it("labels sessions once (a second night sends no labelling request) and rebuilds the kind's tasks", async () => {
    const db = store();
    const first = model();
    const night1 = context(db, first);
    const { sessionsWithTurns: _loader, ...data } = night1.mined;
    const offline = structuredClone(data);
    const refined = await refineWithModel(night1.mined, night1.req, night1.deps);
    // The offline result is left as it was mined.
    expect(night1.mined).toEqual({ ...offline, sessionsWithTurns: night1.mined.sessionsWithTurns });
    expect(first.asked.map((a) => a.template)).toEqual(['label-sessions', 'rule-from-correction']);
    expect(refined.stats?.labels).toMatchObject({ sessions: 2, labelled: 2, reused: 0, skipped_budget: 0 });
    expect(refined.stats?.rules).toMatchObject({ sent: 1, checks_validated: 1 });
    const kind = refined.mined.clusters[0];
    expect(kind?.label).toBe('commit messages');
    expect(kind?.checkSources).toEqual([
      {
        check: { op: 'contains', arg: 'Refs: #' },
        sessionKey: 'claude:a',
        sentence: 'Mention the issue number please',
        by: 'model',
      },
    ]);
    // Every task of the kind is now judged by the check; the corrected session's reference is its accepted answer.
    const tasks = refined.mined.instances;
    expect(tasks.map((t) => t.judge)).toEqual(
      tasks.map(() => ({ kind: 'rule', checks: [{ op: 'contains', arg: 'Refs: #' }] })),
    );
    const corrected = tasks.find((t) => t.source_sessions[0] === 'claude:a');
    expect(corrected).toMatchObject({
      reference_kind: 'rule',
      reference: '```\nfix parser bug\n\nRefs: #12\n```',
    });
    expect(corrected?.tags).toContain('kind:commit messages');

    const second = model();
    const night2 = context(db, second);
    const again = await refineWithModel(night2.mined, night2.req, night2.deps);
    expect(second.asked.filter((a) => a.template === 'label-sessions')).toHaveLength(0);
    expect(again.stats?.labels).toMatchObject({ labelled: 0, reused: 2 });
    expect(again.mined.clusters[0]?.label).toBe('commit messages');
  });
});
