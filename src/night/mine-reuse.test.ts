/**
 * Mining reuses what it derived before (per-session features, a project's whole result) and gives
 * exactly what mining every session from its turns gives: on a first night, a night with nothing new,
 * after a session grew, and after one was forgotten.
 */
import { deserialize, serialize } from 'node:v8';
import { describe, expect, it } from 'vitest';
import type { Cluster, MinedNight } from '../miner/types.js';
import type { HarvestedSession } from '../core/session.js';
import { fixedClock } from '../core/clock.js';
import { defaultConfig, type Config } from '../config/schema.js';
import { mineSessions } from '../miner/mine.js';
import { edit, read, run, session, type Exchange } from '../miner/test-helpers.js';
import { openStore, type Db } from '../store/db.js';
import { forgetSessions } from '../store/forget-repo.js';
import { querySessions } from '../store/sessions-repo.js';
import { sessionWriter } from '../store/session-writer.js';
import { mineProjectClusters } from './mine-project.js';
import { repositoryPartitions } from './partitions.js';

const PROJECT = '/work/app';
const NOW = Date.UTC(2026, 5, 1);
const config: Config = { ...defaultConfig(), lookback_hours: 0 };

const dependency = (pkg: string): Exchange[] => [
  {
    prompt: `add ${pkg} as a dependency`,
    actions: [read(`${PROJECT}/package.json`), run(`npm install ${pkg}`)],
  },
  { prompt: 'use pnpm, not npm', actions: [run(`pnpm add ${pkg}`)] },
];
const commit = (topic: string): Exchange[] => [
  { prompt: `write the commit message for the ${topic} change`, reply: `Update ${topic}` },
  { prompt: 'start it with the ticket number, like ABC-12', reply: `ABC-12: update ${topic}` },
];
const rename = (from: string, to: string): Exchange[] => [
  {
    prompt: `rename ${from} to ${to} in src/${from}.ts`,
    actions: [edit(`${PROJECT}/src/${from}.ts`, `function ${from}(`, `function ${to}(`)],
  },
  {
    prompt: 'keep the old name as a deprecated alias',
    actions: [edit(`${PROJECT}/src/${from}.ts`, '', `/** @deprecated */ export const ${from} = ${to};`)],
  },
];

/** Stores `exchanges` as session `id`, ended `minute` minutes after a fixed time, written at `now`. */
function put(db: Db, id: string, minute: number, exchanges: Exchange[], now = NOW): void {
  const s = session(exchanges, { key: `claude:${id}` });
  const when = NOW - 86_400_000 + minute * 60_000;
  const harvested: HarvestedSession = { ...s, sessionId: id, startedAt: when - 60_000, endedAt: when };
  sessionWriter(db).write(harvested, PROJECT, null, now);
}

function corpus(): Db {
  const db = openStore(':memory:');
  const kinds = [
    (i: number) => dependency(['zod', 'dayjs', 'lodash', 'chalk'][i % 4] as string),
    (i: number) => commit(['login', 'billing', 'search'][i % 3] as string),
    (i: number) => rename(`load${i}`, `fetch${i}`),
  ];
  for (let i = 0; i < 12; i++) put(db, `s${i}`, i, (kinds[i % 3] as (i: number) => Exchange[])(i));
  return db;
}

/** The old way: every session read from its turns, nothing stored or reused. */
function minedFromTurns(db: Db) {
  const sessions = querySessions(db, { project: PROJECT, scope: config.scope, sinceMs: null, limit: 5000 });
  const parts = repositoryPartitions(
    sessions.map((s) => s.projectRoot),
    { project: PROJECT, scope: config.scope },
  );
  const mined = mineSessions(
    sessions.map((s, i) => ({ ...s, partition: parts[i] ?? '' })),
    { project: PROJECT, maxTasks: Number.MAX_SAFE_INTEGER, correctionPatterns: [] },
  );
  return { clusters: mined.clusters, tasks: mined.tasks };
}

function minedNow(db: Db) {
  const m = mineProjectClusters(db, PROJECT, config, fixedClock(NOW));
  return { clusters: m.clusters, tasks: [...m.instances, ...m.archive] };
}

const rows = (db: Db, table: string): number =>
  (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;

describe('mining reuses what it derived before', () => {
  it('gives what mining every session from its turns gives, first and again', () => {
    const db = corpus();
    const expected = minedFromTurns(db);
    expect(expected.clusters.length).toBeGreaterThanOrEqual(3);
    expect(expected.clusters.some((c) => c.checks.length > 0)).toBe(true);
    const first = minedNow(db);
    expect(JSON.stringify(first)).toBe(JSON.stringify(expected));
    expect(rows(db, 'session_features')).toBe(12);
    expect(rows(db, 'mined_projects')).toBe(1);
    expect(JSON.stringify(minedNow(db))).toBe(JSON.stringify(expected));
  });

  it('a night with nothing new reads the stored result (and no turn)', () => {
    const db = corpus();
    minedNow(db);
    // Marking the stored result shows where the second mining came from.
    const row = db.prepare('SELECT project, mined FROM mined_projects').get() as {
      project: string;
      mined: Buffer;
    };
    const stored = deserialize(row.mined) as MinedNight;
    (stored.clusters[0] as Cluster).label = 'from the store';
    db.prepare('UPDATE mined_projects SET mined = ?').run(serialize(stored));
    db.prepare('DELETE FROM turns').run();
    expect(minedNow(db).clusters[0]?.label).toBe('from the store');
  });

  it("the reports' answers are read from the store on first access only, or mined again if gone", () => {
    const db = corpus();
    const expected = minedFromTurns(db);
    const answers = expected.clusters.flatMap((c) => c.correctionReports.map((r) => r.accepted));
    expect(answers.some((a) => a !== '')).toBe(true);
    minedNow(db);
    const stored = db.prepare('SELECT mined, texts FROM mined_projects').get() as {
      mined: Buffer;
      texts: Buffer;
    };
    const head = deserialize(stored.mined) as MinedNight;
    expect(head.clusters.flatMap((c) => c.correctionReports.map((r) => r.accepted)).join('')).toBe('');
    // Read back, then the column changes: what is read is the column at first access.
    const loaded = minedNow(db);
    const texts = deserialize(stored.texts) as string[];
    db.prepare('UPDATE mined_projects SET texts = ?').run(
      serialize(texts.map((t) => (t ? `later ${t}` : t))),
    );
    const accepted = loaded.clusters.flatMap((c) => c.correctionReports.map((r) => r.accepted));
    expect(accepted.filter((a) => a !== '').every((a) => a.startsWith('later '))).toBe(true);
    // Gone before the first access: mined again, the same answers.
    const again = minedNow(db);
    db.prepare('DELETE FROM mined_projects').run();
    expect(JSON.stringify(again)).toBe(JSON.stringify(expected));
    // Damaged: the same (the first mining stores the result, the second reads it back).
    minedNow(db);
    const third = minedNow(db);
    db.prepare('UPDATE mined_projects SET texts = ?').run(Buffer.from('damaged'));
    expect(JSON.stringify(third)).toBe(JSON.stringify(expected));
  });

  it('a damaged stored result is mined again', () => {
    const db = corpus();
    minedNow(db);
    db.prepare('UPDATE mined_projects SET mined = ?').run(Buffer.from('not a serialization'));
    expect(JSON.stringify(minedNow(db))).toBe(JSON.stringify(minedFromTurns(db)));
    db.prepare(`UPDATE mined_projects SET mined = 'text'`).run();
    expect(JSON.stringify(minedNow(db))).toBe(JSON.stringify(minedFromTurns(db)));
  });

  it('a grown session is mined again, under a fixed clock too, and the result matches the old way', () => {
    const db = corpus();
    minedNow(db);
    // Same clock as the first write: the store still moves the session's stamp.
    put(db, 's1', 1, [
      ...commit('login'),
      { prompt: 'and sign it off', reply: 'ABC-12: update login\n\nSigned-off-by: me' },
    ]);
    put(db, 's12', 30, dependency('zod'));
    const expected = minedFromTurns(db);
    expect(JSON.stringify(minedNow(db))).toBe(JSON.stringify(expected));
    expect(rows(db, 'session_features')).toBe(13);
  });

  it('a forget drops the stored results, and the next mining matches the old way', () => {
    const db = corpus();
    minedNow(db);
    const counts = forgetSessions(db, ['claude:s0', 'claude:s3'], { now: NOW, tombstone: true });
    expect(counts).toMatchObject({ sessions: 2, features: 2, mined_projects: 1 });
    expect(rows(db, 'mined_projects')).toBe(0);
    expect(JSON.stringify(minedNow(db))).toBe(JSON.stringify(minedFromTurns(db)));
  });

  it('a change to the correction patterns mines again', () => {
    const db = corpus();
    minedNow(db);
    const patterns: Config = {
      ...config,
      correction_patterns: [
        { name: 'ticket', regex: 'like ([A-Z]+-\\d+)', checks: [{ op: 'contains', arg: '$1' }] },
      ],
    };
    const withPattern = mineProjectClusters(db, PROJECT, patterns, fixedClock(NOW));
    expect(JSON.stringify(withPattern.clusters)).not.toBe(JSON.stringify(minedFromTurns(db).clusters));
    const digests = db.prepare('SELECT input_digest FROM mined_projects').all();
    expect(digests).toHaveLength(1);
    const again = mineProjectClusters(db, PROJECT, config, fixedClock(NOW));
    expect(JSON.stringify({ clusters: again.clusters, tasks: [...again.instances, ...again.archive] })).toBe(
      JSON.stringify(minedFromTurns(db)),
    );
    expect(db.prepare('SELECT input_digest FROM mined_projects').all()).not.toEqual(digests);
  });
});
