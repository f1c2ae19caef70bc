/**
 * OpenCode and Goose through the CLI: `--source` picks them, our replays stay out, a second harvest reads
 * nothing new, the user's exclusions and `forget` keep their sessions out of the store file, and a secret in
 * a prompt or in a command the agent ran is redacted.
 */
import Database from 'better-sqlite3';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { installGooseFixture, installOpenCodeFixture } from '../helpers/agent-stores.js';
import { runCli, sandbox, storeBytes, type Sandbox } from './cli-helpers.js';

/** A GitHub token shape (built here so no literal token sits in the repository). */
const TOKEN = ['ghp', '_', 'Zq8', 'Lr2Xb7Nc4Vd1Wf6Yh3Jk9Mt5Ps0Qa1Rs2Tu3V'].join('');

function setup(): Sandbox & { openCodeDb: string; gooseDb: string } {
  const box = sandbox();
  return { ...box, openCodeDb: installOpenCodeFixture(box.home), gooseDb: installGooseFixture(box.home) };
}

type Sources = Record<
  string,
  { files: number; new: number; updated: number; excluded: number; sessions: number }
>;
const harvestJson = async (box: Sandbox, ...args: string[]) => {
  const r = await runCli(box, ['harvest', '--json', '--scope', 'all', '--lookback-hours', '0', ...args]);
  expect(r.code, r.stderr).toBe(0);
  return r.json().sources as Sources;
};

describe('OpenCode and Goose through the CLI', () => {
  it('--source picks one; our replays stay out; a second harvest reads nothing new', async () => {
    const box = setup();
    const opencode = await harvestJson(box, '--source', 'opencode');
    expect(Object.keys(opencode)).toEqual(['opencode']);
    expect(opencode['opencode']).toMatchObject({ files: 5, new: 3 });
    const goose = await harvestJson(box, '--source', 'goose');
    expect(Object.keys(goose)).toEqual(['goose']);
    expect(goose['goose']).toMatchObject({ files: 4, new: 2 });
    const again = await harvestJson(box);
    for (const id of ['opencode', 'goose']) expect(again[id], id).toMatchObject({ new: 0, updated: 0 });
    const bytes = storeBytes(box);
    expect(bytes).toContain('Make the CSV export include a header row.');
    expect(bytes).toContain('Add a rate limit of 100 requests per minute');
    expect(bytes).not.toContain('skillopt-sleep:replay');
    expect(bytes).not.toContain('Find the CSV writer'); // sub-agents' sessions
    expect(bytes).not.toContain('Update the dependencies and open a pull request'); // a scheduled run
    // The per-source counts `harvest` (and the dashboard) show.
    expect(again['opencode']).toMatchObject({ sessions: 3 });
    expect(again['goose']).toMatchObject({ sessions: 2 });
  });

  it("the user's exclusions keep their sessions out of the store file", async () => {
    const box = setup();
    mkdirSync(box.stateHome, { recursive: true });
    writeFileSync(path.join(box.stateHome, 'config.json'), JSON.stringify({ exclude_paths: ['/work/shop'] }));
    const sources = await harvestJson(box);
    expect(sources['opencode']).toMatchObject({ new: 1 });
    expect(sources['goose']).toMatchObject({ new: 1 });
    const bytes = storeBytes(box);
    expect(bytes).not.toContain('Make the CSV export include a header row.');
    expect(bytes).not.toContain('Add pagination to the admin list.');
    expect(bytes).toContain('Add a rate limit of 100 requests per minute');
  });

  it('forget --source goose: gone from the file, and not harvested again when the session grows', async () => {
    const box = setup();
    await harvestJson(box);
    const forgot = await runCli(box, ['forget', '--source', 'goose', '--json']);
    expect(forgot.code, forgot.stderr).toBe(0);
    expect((forgot.json().removed as Record<string, number>).sessions).toBe(2);
    const db = new Database(box.gooseDb);
    db.exec(`INSERT INTO messages (session_id, role, content_json, created_timestamp) VALUES
      ('20260310_1', 'user', '[{"type":"text","text":"one more thing"}]', 1773134400);
      INSERT INTO sessions (id, session_type, working_dir, created_at, updated_at)
        VALUES ('20260312_1', 'user', '/work/shop', '2026-03-12 08:00:00', '2026-03-12 08:01:00');
      INSERT INTO messages (session_id, role, content_json, created_timestamp) VALUES
      ('20260312_1', 'user', '[{"type":"text","text":"rename the cart module"}]', 1773302400);`);
    db.close();
    const sources = await harvestJson(box, '--source', 'goose');
    expect(sources['goose']).toMatchObject({ new: 1 });
    const bytes = storeBytes(box);
    expect(bytes).not.toContain('one more thing');
    expect(bytes).toContain('rename the cart module');
    expect(bytes).toContain('Add pagination to the admin list.'); // OpenCode's were not selected
  });

  it('redacts a secret in a prompt and in a command the agent ran', async () => {
    const box = setup();
    const db = new Database(box.openCodeDb);
    db.exec(`INSERT INTO session (id, project_id, parent_id, slug, directory, title, version, time_created, time_updated)
        VALUES ('ses_secret', 'prj_shop', NULL, 's', '/work/shop', 't', '1.2.7', 1773400000000, 1773400100000);
      INSERT INTO message VALUES ('msg_s_u', 'ses_secret', 1773400000000, 1773400000000, '{"role":"user","time":{"created":1773400000000}}');
      INSERT INTO part VALUES ('prt_s_u', 'msg_s_u', 'ses_secret', 1773400000000, 1773400000000,
        '{"type":"text","text":"push with the token ${TOKEN}"}');
      INSERT INTO message VALUES ('msg_s_a', 'ses_secret', 1773400050000, 1773400100000, '{"role":"assistant","time":{"created":1773400050000}}');
      INSERT INTO part VALUES ('prt_s_a', 'msg_s_a', 'ses_secret', 1773400050000, 1773400100000,
        '{"type":"tool","tool":"bash","state":{"status":"completed","input":{"command":"GH_TOKEN=${TOKEN} gh pr create"}}}');`);
    db.close();
    await harvestJson(box);
    const bytes = storeBytes(box);
    expect(bytes).toContain('push with the token');
    expect(bytes).toContain('gh pr create');
    expect(bytes).not.toContain(TOKEN);
  });
});
