import { mkdirSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MockBackend } from '../backends/mock/mock-backend.js';
import { silentLogger } from '../core/logger.js';
import type { HarvestedSession } from '../core/session.js';
import { fixedClock } from '../core/clock.js';
import { defaultConfig } from '../config/schema.js';
import { NO_REQUEST_TAG } from '../miner/no-request.js';
import { read, run, session } from '../miner/test-helpers.js';
import { openStore, type Db } from '../store/db.js';
import { sessionWriter } from '../store/session-writer.js';
import { tasksFromFiles } from './file-tasks.js';
import {
  finishProjectTasks,
  mineProjectClusters,
  mineProjectTasks,
  replayableMined,
} from './mine-project.js';
import { runNight } from './run-night.js';

const ROOT = mkdtempSync(path.join(os.tmpdir(), 'sos-no-request-'));
const PROJECT = path.join(ROOT, 'project');
mkdirSync(PROJECT);
const NOW = Date.UTC(2026, 5, 1);

function put(db: Db, id: string, exchanges: Parameters<typeof session>[0], minute: number): void {
  const s = session(exchanges, { key: `claude:${id}` });
  const harvested: HarvestedSession = {
    ...s,
    sessionId: id,
    startedAt: NOW - 3_600_000 + minute * 60_000,
    endedAt: NOW - 3_600_000 + (minute + 1) * 60_000,
  };
  sessionWriter(db).write(harvested, PROJECT, null, NOW);
}

function projectWithGreetings(): Db {
  const db = openStore(':memory:');
  // Corrected each time ("use pnpm"): a judge can score these tasks, so a night replays them.
  ['zod', 'pino', 'dayjs'].forEach((pkg, i) =>
    put(
      db,
      `d${i}`,
      [
        {
          prompt: `add ${pkg} as a dependency`,
          actions: [read(`${PROJECT}/package.json`), run(`npm install ${pkg}`)],
        },
        { prompt: 'use pnpm, not npm', actions: [run(`pnpm add ${pkg}`)] },
      ],
      i,
    ),
  );
  ['hi', 'hey', 'привет'].forEach((prompt, i) => put(db, `g${i}`, [{ prompt, reply: 'Hello!' }], 10 + i));
  return db;
}

describe('a night and the sessions that asked for nothing', () => {
  const config = { ...defaultConfig(), lookback_hours: 0 };
  const clock = fixedClock(NOW);

  it('harvest shows their kind; a night neither replays nor trains on it', () => {
    const db = projectWithGreetings();
    const shown = mineProjectTasks(db, PROJECT, config, clock);
    expect(shown.clusters.some((c) => c.noRequest === true)).toBe(true);
    expect(shown.tasks.filter((t) => t.tags.includes(NO_REQUEST_TAG))).toHaveLength(3);

    // What a night mines (`harvestAndMine`): the kind and its tasks are gone before any model pass.
    const night = replayableMined(mineProjectClusters(db, PROJECT, config, clock));
    expect(night.clusters.some((c) => c.noRequest === true)).toBe(false);
    const tasks = finishProjectTasks(night, config).tasks;
    expect(tasks.length).toBeGreaterThan(0);
    expect(tasks.some((t) => t.tags.includes(NO_REQUEST_TAG))).toBe(false);
  });

  it('a tasks file that lists them (harvest --output) replays none of them', () => {
    const db = projectWithGreetings();
    const { tasks } = mineProjectTasks(db, PROJECT, config, clock);
    const set = tasksFromFiles(tasks, true);
    expect(set.tasks).toHaveLength(3);
    expect(set.tasks.some((t) => t.tags.includes(NO_REQUEST_TAG))).toBe(false);
  });

  it('a night run replays the kind that asked for something only', async () => {
    const db = projectWithGreetings();
    const report = await runNight(
      { project: PROJECT, config, mode: 'dry-run' },
      {
        home: path.join(ROOT, 'state'),
        userHome: path.join(ROOT, 'home'),
        env: {},
        clock,
        db,
        backend: new MockBackend(),
        logger: silentLogger,
      },
    );
    expect(report.n_tasks).toBe(3);
    expect(report.n_unjudged).toBe(0);
    expect([...report.recurring_tasks, ...report.one_off_tasks].map((t) => t.label)).not.toContain(
      'no request (greeting only)',
    );
  });
});
