import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MockBackend } from '../src/backends/mock/mock-backend.js';
import { RULE_TABLE } from '../src/backends/mock/rule-grammar.js';
import type { Backend } from '../src/backends/types.js';
import { fixedClock } from '../src/core/clock.js';
import { InputError } from '../src/core/errors.js';
import { silentLogger } from '../src/core/logger.js';
import { defaultConfig } from '../src/config/schema.js';
import { runNight, type NightDeps } from '../src/night/run-night.js';
import type { NightReport } from '../src/night/night-report.js';
import { openStore } from '../src/store/db.js';
import { rejectedEdits } from '../src/store/learning-repo.js';
import { nightsForProject } from '../src/store/nights-repo.js';

const PERSONAS = path.resolve(import.meta.dirname, 'fixtures/personas');

function setup(backend: Backend = new MockBackend()) {
  const root = mkdtempSync(path.join(os.tmpdir(), 'sos-night-'));
  const db = openStore(':memory:');
  const deps: NightDeps = {
    home: path.join(root, 'state'),
    userHome: path.join(root, 'home'),
    env: {},
    clock: fixedClock(Date.UTC(2026, 10, 29)),
    db,
    backend,
    logger: silentLogger,
  };
  const project = path.join(root, 'project');
  mkdirSync(project);
  return { root, db, deps, project };
}

const tasksFile = (root: string, reviewed: boolean): string => {
  const file = path.join(root, 'tasks.json');
  const task = (id: string, split: string) => ({
    id,
    intent: 'say hello politely',
    reference_kind: 'exact',
    reference: 'hello there',
    split,
  });
  writeFileSync(
    file,
    JSON.stringify({
      format: 'skillopt_sleep.tasks.v1',
      reviewed,
      tasks: [task('a', 'train'), task('b', 'val')],
    }),
  );
  return file;
};

describe('runNight', () => {
  it('refuses to send an unreviewed tasks file to a backend that leaves the machine', async () => {
    const online: Backend = Object.assign(Object.create(MockBackend.prototype) as MockBackend, {
      name: 'remote',
      offline: false,
    });
    const { root, deps, project } = setup(online);
    const file = tasksFile(root, false);
    await expect(
      runNight({ project, config: defaultConfig(), mode: 'dry-run', tasksFile: file }, deps),
    ).rejects.toThrow(InputError);
    await expect(
      runNight({ project, config: defaultConfig(), mode: 'dry-run', tasksFile: file }, deps),
    ).rejects.toThrow(/"reviewed": true/);
    const ok = await runNight(
      { project, config: defaultConfig(), mode: 'dry-run', tasksFile: tasksFile(root, true) },
      deps,
    );
    expect(ok.tasks_reviewed).toBe(true);
  });

  it('records a run (night, replays) but a dry-run records nothing', async () => {
    const { root, db, deps, project } = setup();
    const file = tasksFile(root, false);
    await runNight({ project, config: defaultConfig(), mode: 'dry-run', tasksFile: file }, deps);
    expect(nightsForProject(db, project, 10)).toHaveLength(0);
    await runNight({ project, config: defaultConfig(), mode: 'run', tasksFile: file }, deps);
    const nights = nightsForProject(db, project, 10);
    expect(nights).toHaveLength(1);
    expect(nights[0]?.status).toBe('completed');
    const replays = db.prepare('SELECT COUNT(*) AS n FROM replays WHERE night_id = ?').get(nights[0]?.id) as {
      n: number;
    };
    expect(replays.n).toBeGreaterThan(0);
  });

  it('remembers the harmful edit the gate refused and never proposes it again', async () => {
    const { db, deps, project } = setup();
    // The file puts the harmful task in train, so its rule is really proposed.
    const file = path.join(PERSONAS, 'researcher-with-harmful.tasks.json');
    const first = await runNight({ project, config: defaultConfig(), mode: 'run', tasksFile: file }, deps);
    const harmfulRule = RULE_TABLE.__harmful__ ?? '';
    expect(first.gate_trials[0]?.edits.map((e) => e.content)).toContain(harmfulRule);
    expect(first.accepted).toBe(true);
    expect(first.learned_rules).not.toContain(harmfulRule);
    // The helpful rules of the same trial are still learned.
    expect(first.learned_rules).toEqual([RULE_TABLE['wrap-answer'], RULE_TABLE['units-si']]);
    const remembered = rejectedEdits(db, project).find((e) => e.content === harmfulRule);
    expect(remembered?.delta).toBeLessThan(0);

    const second = await runNight({ project, config: defaultConfig(), mode: 'run', tasksFile: file }, deps);
    expect(second.gate_trials.flatMap((t) => t.edits).map((e) => e.content)).not.toContain(harmfulRule);
  });
});

describe('rules that only help together, at edit_budget 1', () => {
  it('the researcher persona reaches 1.0 within 3 nights, after a night one rule alone did not raise', async () => {
    const { deps, project } = setup();
    const config = { ...defaultConfig(), edit_budget: 1 };
    const file = path.join(PERSONAS, 'researcher.tasks.json');
    const nights: NightReport[] = [];
    for (let night = 0; night < 3; night++) {
      const r = await runNight({ project, config, mode: 'run', tasksFile: file }, deps);
      expect(r.n_accepted_edits + r.pending_edits.length).toBeGreaterThan(0);
      nights.push(r);
      if (r.accepted) break;
    }
    // One rule alone changes no held-out score, so the first night cannot accept.
    expect(nights.length).toBeGreaterThan(1);
    expect(nights[0]).toMatchObject({ accepted: false, candidate: nights[0]?.baseline });
    const last = nights.at(-1);
    expect(last?.accepted).toBe(true);
    expect(last?.candidate).toBe(1);
    expect(last?.learned_rules).toEqual(
      expect.arrayContaining([RULE_TABLE['wrap-answer'], RULE_TABLE['units-si']]),
    );
  });
});
