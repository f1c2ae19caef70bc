/**
 * Issue 15, items 4 and 9: `run` killed with SIGKILL at every step of staging its proposal (through
 * the test-only SKILLOPT_SLEEP_TEST_CRASH_STAGE_AT hook). After the next command there is no `running`
 * night, no leftover or half-written folder in the proposals folder, and a proposal that was published
 * before the kill is known to the store, linked to its night, and adoptable.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect, it } from 'vitest';
import { PERSONAS, spawnCli as runCli, sandbox, type Sandbox } from './cli-helpers.js';

const TASKS = path.join(PERSONAS, 'researcher.tasks.json');

function rows(box: Sandbox): {
  nights: Array<{ id: number; status: string; proposal_id: string }>;
  proposals: Array<{ id: string; night_id: number | null; status: string }>;
} {
  const db = new Database(path.join(box.stateHome, 'store.sqlite'), { readonly: true });
  try {
    return {
      nights: db.prepare('SELECT id, status, proposal_id FROM nights ORDER BY id').all() as never,
      proposals: db.prepare('SELECT id, night_id, status FROM proposals').all() as never,
    };
  } finally {
    db.close();
  }
}

const proposalsDir = (box: Sandbox): string => path.join(box.project, '.skillopt-sleep', 'proposals');
const entries = (box: Sandbox): string[] =>
  existsSync(proposalsDir(box)) ? readdirSync(proposalsDir(box)).sort() : [];

it('a run killed at any step of staging leaves no running night and no partial folder after recovery', () => {
  let completedAt = 0;
  const outcomes: string[] = [];
  for (let step = 1; step <= 12 && completedAt === 0; step++) {
    const box = sandbox();
    const crashed = runCli(box, ['run', '--json', '--tasks-file', TASKS], {
      SKILLOPT_SLEEP_TEST_CRASH_STAGE_AT: String(step),
    });
    if (crashed.code === 0) {
      completedAt = step;
      break;
    }
    expect(crashed.code, `step ${step}: ${crashed.stderr}`).toBe(-1); // killed by SIGKILL
    expect(rows(box).nights.map((n) => n.status)).toEqual(['running']);

    // The next command (status) recovers.
    const status = runCli(box, ['status', '--json']);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stderr).not.toContain('warning');
    const nights = status.json().nights as Array<{ status: string; error: string | null }>;
    expect(nights.map((n) => n.status)).toEqual(['interrupted']);
    expect(nights[0]?.error).toMatch(/ended before the night finished/);
    const after = rows(box);
    expect(after.nights.map((n) => n.status)).toEqual(['interrupted']);

    // Either no proposal (killed before the rename) or one whole, recorded, linked, adoptable proposal.
    const left = entries(box);
    expect(left.filter((name) => name.startsWith('.'))).toEqual([]);
    if (left.length === 0) {
      expect(after.proposals).toEqual([]);
      outcomes.push(`${step}:none`);
    } else {
      expect(left).toHaveLength(1);
      const id = left[0] ?? '';
      expect(existsSync(path.join(proposalsDir(box), id, 'manifest.json'))).toBe(true);
      expect(after.proposals).toEqual([{ id, night_id: after.nights[0]?.id, status: 'staged' }]);
      expect(after.nights[0]?.proposal_id).toBe(id);
      const adopt = runCli(box, ['adopt', '--json']);
      expect(adopt.code, adopt.stderr).toBe(0);
      outcomes.push(`${step}:published`);
    }

    // And the next night runs as usual, with no warning about the killed one.
    const again = runCli(box, ['run', '--json', '--tasks-file', TASKS]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).not.toContain('warning');
    expect(rows(box).nights.map((n) => n.status)).toEqual(['interrupted', 'completed']);
  }
  // Steps: proposed file, diff, reports, manifest, published; the kill at step 5 is after the rename.
  expect(completedAt).toBe(6);
  expect(outcomes).toEqual(['1:none', '2:none', '3:none', '4:none', '5:published']);
}, 180_000);
