/**
 * Sessions the Claude Code plugin's SessionEnd hook reported as ended are harvested first and as
 * finished: the open last line of a file that is not quiet yet is read at once; the log is consumed.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { harvest } from '../src/harvest/harvest.js';
import { fixedClock } from '../src/core/clock.js';
import { CLAUDE_TRANSCRIPT, claudeRecord, harvestHome } from './harvest-home.js';

const HOOK = path.resolve(import.meta.dirname, '../integrations/claude-code/hooks/session-end.mjs');

let home = '';
afterEach(() => {
  if (home !== '') rmSync(home, { recursive: true, force: true });
});

describe('ended sessions reported by the SessionEnd hook', () => {
  it('are read first and whole, open last line included, and the log is consumed', async () => {
    const h = harvestHome('sos-ended-');
    home = h.home;
    const now = Date.now();
    const text = `${claudeRecord(0, 'user', 'Fix the login bug')}\n${claudeRecord(1, 'assistant', 'Fixed it.')}`;
    const file = h.write(CLAUDE_TRANSCRIPT, text, now);
    const state = path.join(h.home, 'state');
    mkdirSync(state);
    const run = () =>
      harvest({
        db: h.db,
        ctx: { home: h.home, env: {} },
        clock: fixedClock(now),
        logger: h.logger,
        stateHome: state,
      });
    const turns = () => h.sessions().flatMap((s) => s.turns.map((t) => t.text));

    // Not reported, not quiet: the open last line waits.
    await run();
    expect(turns()).toEqual(['Fix the login bug']);

    const hook = spawnSync(process.execPath, [HOOK], {
      input: JSON.stringify({
        session_id: 's',
        transcript_path: file,
        cwd: h.home,
        hook_event_name: 'SessionEnd',
      }),
      env: { PATH: process.env.PATH ?? '', SKILLOPT_SLEEP_HOME: state },
    });
    expect(hook.status).toBe(0);
    expect(readdirSync(state)).toEqual(['session-ends.jsonl']);
    await run();
    expect(turns()).toEqual(['Fix the login bug', 'Fixed it.']);
    expect(readdirSync(state)).toEqual([]);
    expect(existsSync(path.join(state, 'session-ends.claimed.jsonl'))).toBe(false);
  });
});
