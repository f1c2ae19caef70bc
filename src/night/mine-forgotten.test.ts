/**
 * A forgotten lesson and the stored mining result: the result mined before the forget is not read
 * after it (the forgotten lessons are among the inputs of its digest), the one mined after is.
 */
import { deserialize, serialize } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { fixedClock } from '../core/clock.js';
import { forgottenOf } from '../core/forgotten-lesson.js';
import type { HarvestedSession } from '../core/session.js';
import { ruleChecks } from '../core/task.js';
import { defaultConfig, type Config } from '../config/schema.js';
import { read, run, session, type Exchange } from '../miner/test-helpers.js';
import type { Cluster, MinedNight } from '../miner/types.js';
import { openStore, type Db } from '../store/db.js';
import { forgottenLessons, recordForgottenLesson } from '../store/forgotten-lessons-repo.js';
import { sessionWriter } from '../store/session-writer.js';
import { mineProjectClusters } from './mine-project.js';

const PROJECT = '/work/app';
const NOW = Date.UTC(2026, 5, 1);
const config: Config = { ...defaultConfig(), lookback_hours: 0 };

const dependency = (pkg: string, correction: string | null): Exchange[] => [
  {
    prompt: `add ${pkg} as a dependency`,
    actions: [read(`${PROJECT}/package.json`), run(`npm install ${pkg}`)],
  },
  ...(correction === null ? [] : [{ prompt: correction, actions: [run(`pnpm add ${pkg}`)] }]),
];

function corpus(): Db {
  const db = openStore(':memory:');
  ['zod', 'dayjs', 'lodash', 'chalk'].forEach((pkg, i) => {
    const s = session(dependency(pkg, i < 2 ? 'use pnpm, not npm' : null), { key: `claude:s${i}` });
    const when = NOW - 86_400_000 + i * 60_000;
    const harvested: HarvestedSession = { ...s, sessionId: `s${i}`, startedAt: when - 60_000, endedAt: when };
    sessionWriter(db).write(harvested, PROJECT, null, NOW);
  });
  return db;
}

const mine = (db: Db) => mineProjectClusters(db, PROJECT, config, fixedClock(NOW));

describe('forgotten lessons and the stored mining result', () => {
  it('a result mined before the forget is never read after it; the one mined after is', () => {
    const db = corpus();
    const before = mine(db);
    const lesson = before.lessons.find((l) => l.checks.length > 0);
    if (lesson === undefined) throw new Error('no lesson with a check');
    expect(before.instances.some((t) => ruleChecks(t).length > 0)).toBe(true);

    recordForgottenLesson(db, forgottenOf(lesson), NOW);
    const after = mine(db);
    expect(after.lessons.map((l) => l.id)).not.toContain(lesson.id);
    for (const t of [...after.instances, ...after.archive]) expect(ruleChecks(t)).toEqual([]);
    expect(forgottenLessons(db)).toHaveLength(1);

    // Marking the stored result shows that the next mining reads it: the forget changed no input since.
    const row = db.prepare('SELECT mined FROM mined_projects').get() as { mined: Buffer };
    const stored = deserialize(row.mined) as MinedNight;
    (stored.clusters[0] as Cluster).label = 'from the store';
    db.prepare('UPDATE mined_projects SET mined = ?').run(serialize(stored));
    expect(mine(db).clusters[0]?.label).toBe('from the store');
  });
});
