/**
 * The OpenCode, Goose and Cursor editor harvesters through the core: every session of the fixtures is stored as the parse
 * gives it (our replays and sub-agents left out), a second harvest reads nothing, and a session that
 * changes in the store is read again alone.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { cursorIde } from '../harvesters/cursor-ide/cursor-ide.js';
import { goose } from '../harvesters/goose/goose.js';
import { opencode } from '../harvesters/opencode/opencode.js';
import { fixedClock } from '../src/core/clock.js';
import { silentLogger } from '../src/core/logger.js';
import type { SourceId } from '../src/core/session.js';
import { harvest } from '../src/harvest/harvest.js';
import { openStore } from '../src/store/db.js';
import { querySessions, type StoredSession } from '../src/store/sessions-repo.js';
import { asParsed, byId, parsedSessions } from './helpers/stored-as-parsed.js';
import {
  installCursorIdeFixture,
  installGooseFixture,
  installOpenCodeFixture,
} from './helpers/agent-stores.js';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function setup() {
  const home = mkdtempSync(path.join(os.tmpdir(), 'sos-opencode-goose-'));
  made.push(home);
  const openCodeDb = installOpenCodeFixture(home);
  const gooseDb = installGooseFixture(home);
  const cursorDb = installCursorIdeFixture(home);
  const db = openStore(':memory:');
  let now = Date.now() + 120_000;
  const run = (sources: SourceId[]) =>
    harvest({ db, ctx: { home, env: {} }, clock: fixedClock((now += 1000)), logger: silentLogger, sources });
  const stored = (source: SourceId): StoredSession[] =>
    querySessions(db, { project: '/', scope: 'all', sinceMs: null, limit: 100, sources: [source] });
  return { home, openCodeDb, gooseDb, cursorDb, run, stored };
}

describe('OpenCode through the harvest', () => {
  it('stores every session as the store and the JSON files hold it, and reads nothing twice', async () => {
    const h = setup();
    const summary = await h.run(['opencode']);
    expect(summary.bySource.opencode).toMatchObject({ files: 5, parsed: 5, new: 3, machine_sessions: 1 });
    const expected = await parsedSessions(opencode, await opencode.discover({ home: h.home, env: {} }));
    expect(h.stored('opencode').map(asParsed).sort(byId)).toEqual(expected.sort(byId));
    expect(
      h
        .stored('opencode')
        .map((s) => [s.sessionId, s.projectRoot, s.turns.length])
        .sort(),
    ).toEqual([
      ['ses_5a1b00', '/work/legacy-api', 2],
      ['ses_7f3a01', '/work/shop', 4],
      ['ses_8b2c10', '/work/shop/admin', 3],
    ]);
    const again = await h.run(['opencode']);
    expect([again.filesSeen, again.filesParsed]).toEqual([5, 0]);
  });

  it('reads again only the session that grew in the store', async () => {
    const h = setup();
    await h.run(['opencode']);
    const db = new Database(h.openCodeDb);
    db.exec(`INSERT INTO message VALUES ('msg_8b2c10_u4', 'ses_8b2c10', 1773224000000, 1773224000000,
      '{"role":"user","time":{"created":1773224000000}}');
      INSERT INTO part VALUES ('prt_8b2c10_u4a', 'msg_8b2c10_u4', 'ses_8b2c10', 1773224000000, 1773224000000,
      '{"type":"text","text":"And sort it by date."}');`);
    db.close();
    const summary = await h.run(['opencode']);
    expect(summary.bySource.opencode).toMatchObject({ parsed: 1, updated: 1, new: 0 });
    const grown = h.stored('opencode').find((s) => s.sessionId === 'ses_8b2c10');
    expect(grown?.turns.map((t) => t.text).slice(-2)).toEqual([
      'Add pagination to the admin list.',
      'And sort it by date.',
    ]);
  });
});

describe('Goose through the harvest', () => {
  it('stores every session as the store and the legacy files hold it, and reads nothing twice', async () => {
    const h = setup();
    const summary = await h.run(['goose']);
    expect(summary.bySource.goose).toMatchObject({ files: 4, parsed: 4, new: 2, machine_sessions: 1 });
    const expected = await parsedSessions(goose, await goose.discover({ home: h.home, env: {} }));
    expect(h.stored('goose').map(asParsed).sort(byId)).toEqual(expected.sort(byId));
    expect(
      h
        .stored('goose')
        .map((s) => [s.sessionId, s.projectRoot, s.turns.length])
        .sort(),
    ).toEqual([
      ['20260310_1', '/work/shop', 6],
      ['rate-limit', '/work/legacy-api', 3],
    ]);
    const again = await h.run(['goose']);
    expect([again.filesSeen, again.filesParsed]).toEqual([4, 0]);
  });

  it('reads again only the session Goose added a message to', async () => {
    const h = setup();
    await h.run(['goose']);
    const db = new Database(h.gooseDb);
    db.exec(`INSERT INTO messages (session_id, role, content_json, created_timestamp, timestamp) VALUES
      ('20260310_1', 'user', '[{"type":"text","text":"And sort it by date."}]', 1773134400, '2026-03-10 09:20:00');
      UPDATE sessions SET updated_at = '2026-03-10 09:20:00' WHERE id = '20260310_1';`);
    db.close();
    const summary = await h.run(['goose']);
    expect(summary.bySource.goose).toMatchObject({ parsed: 1, updated: 1, new: 0 });
    const grown = h.stored('goose').find((s) => s.sessionId === '20260310_1');
    expect(grown?.turns.at(-1)?.text).toBe('And sort it by date.');
  });
});

describe('the Cursor editor through the harvest', () => {
  it('stores every composer as the store holds it, and reads nothing twice', async () => {
    const h = setup();
    const summary = await h.run(['cursor-ide']);
    expect(summary.bySource['cursor-ide']).toMatchObject({
      files: 4,
      parsed: 4,
      new: 2,
      machine_sessions: 1,
    });
    const expected = await parsedSessions(cursorIde, await cursorIde.discover({ home: h.home, env: {} }));
    expect(h.stored('cursor-ide').map(asParsed).sort(byId)).toEqual(expected.sort(byId));
    expect(
      h
        .stored('cursor-ide')
        .map((s) => s.projectRoot)
        .sort(),
    ).toEqual(['/work/blog', '/work/shop']);
    const again = await h.run(['cursor-ide']);
    expect([again.filesSeen, again.filesParsed]).toEqual([4, 0]);
    const db = new Database(h.cursorDb);
    db.prepare('INSERT INTO cursorDiskKV VALUES (?, ?)').run(
      'bubbleId:6f1d2c3b-0000-4000-8000-000000000002:c3',
      '{"type":1,"bubbleId":"c3","text":"make it shorter"}',
    );
    db.close();
    const grown = await h.run(['cursor-ide']);
    expect(grown.bySource['cursor-ide']).toMatchObject({ parsed: 1, updated: 1 });
  });
});
