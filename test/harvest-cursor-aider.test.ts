/**
 * The Cursor CLI and Aider harvesters through the core: every session of the fixtures is stored as the
 * parse gives it (our replays left out), nothing is read twice, an appended transcript is merged (for
 * Aider: only its last session and the new ones are written), and Aider's histories are found in the
 * folders the store learned of.
 */
import {
  appendFileSync,
  cpSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { aider } from '../harvesters/aider/aider.js';
import { cursorCli } from '../harvesters/cursor-cli/cursor-cli.js';
import { fixedClock } from '../src/core/clock.js';
import { silentLogger } from '../src/core/logger.js';
import type { SourceId } from '../src/core/session.js';
import { harvest, SETTLE_MS } from '../src/harvest/harvest.js';
import { openStore } from '../src/store/db.js';
import { querySessions, type StoredSession } from '../src/store/sessions-repo.js';
import { asParsed, byId, parsedSessions, sourceFileOf } from './helpers/stored-as-parsed.js';

const FIXTURES = path.resolve(import.meta.dirname, 'fixtures');
const HISTORY = '.aider.chat.history.md';

const made: string[] = [];
const tempDir = (prefix: string): string => {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function setup() {
  const home = tempDir('sos-cursor-aider-');
  cpSync(path.join(FIXTURES, 'cursor-cli'), home, { recursive: true });
  const shop = path.join(home, 'code', 'shop');
  cpSync(path.join(FIXTURES, 'aider', 'shop'), shop, { recursive: true });
  const db = openStore(':memory:');
  let now = Date.now() + 120_000; // every file quiet
  const run = (sources: SourceId[], folders: string[] = []) =>
    harvest({
      db,
      ctx: { home, env: {}, projectFolders: () => folders },
      clock: fixedClock((now += 1000)),
      logger: silentLogger,
      sources,
    });
  const stored = (source: SourceId): StoredSession[] =>
    querySessions(db, { project: '/', scope: 'all', sinceMs: null, limit: 100, sources: [source] });
  return { home, shop, db, run, stored };
}

describe('Cursor CLI and Aider through the harvest', () => {
  it('stores every Cursor session as its transcript holds it, and reads nothing twice', async () => {
    const h = setup();
    const summary = await h.run(['cursor-cli']);
    expect(summary.bySource['cursor-cli']).toMatchObject({
      files: 6,
      parsed: 6,
      new: 4,
      machine_sessions: 1,
    });
    expect(Object.keys(summary.bySource)).toEqual(['cursor-cli']);
    const files = (await cursorCli.discover({ home: h.home, env: {} })).map((f) => f.path);
    const expected = await parsedSessions(
      cursorCli,
      files.map((f) => sourceFileOf(cursorCli, f)),
    );
    expect(h.stored('cursor-cli').map(asParsed).sort(byId)).toEqual(expected.sort(byId));
    expect(
      h
        .stored('cursor-cli')
        .map((s) => [s.sessionId, s.projectRoot])
        .sort(),
    ).toEqual([
      ['1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b', '/work/shop'],
      ['2a3b4c5d-6e7f-4809-9a1b-2c3d4e5f6071', '/work/shop-admin/panel'],
      ['4f3c9d2e-7a1b-4c8d-9e0f-1a2b3c4d5e6f', '/work/shop'],
      ['8d7c6b5a-4938-4271-8a6b-5c4d3e2f1a0b', ''],
    ]);
    expect((await h.run(['cursor-cli'])).filesParsed).toBe(0);
  });

  it('stores every Aider session as its history holds it, and reads nothing twice', async () => {
    const h = setup();
    const summary = await h.run(['aider'], [h.shop]);
    expect(summary.bySource.aider).toMatchObject({ files: 1, parsed: 1, new: 4, machine_sessions: 1 });
    const expected = await parsedSessions(aider, [sourceFileOf(aider, path.join(h.shop, HISTORY))]);
    expect(h.stored('aider').map(asParsed).sort(byId)).toEqual(expected.sort(byId));
    expect(new Set(h.stored('aider').map((s) => s.projectRoot))).toEqual(new Set([h.shop]));
    expect((await h.run(['aider'], [h.shop])).filesParsed).toBe(0);
  });

  it('merges what Aider appends: the last session grows, a new one is added, the others stay as stored', async () => {
    const h = setup();
    const file = path.join(h.shop, HISTORY);
    await h.run(['aider'], [h.shop]);
    const before = new Map(h.stored('aider').map((s) => [s.sessionId, s]));
    appendFileSync(file, '#### and now the docs  \n\nDocs updated.\n\n');
    appendFileSync(file, '\n# aider chat started at 2026-03-04 07:00:00\n\n#### hello again  \n\nHi.\n\n');
    const summary = await h.run(['aider'], [h.shop]);
    expect(summary.bySource.aider).toMatchObject({ parsed: 1, new: 1, updated: 1 });
    const after = h.stored('aider');
    expect(after).toHaveLength(before.size + 1);
    for (const s of after) {
      const old = before.get(s.sessionId);
      if (old === undefined) expect(s.turns.map((t) => t.text)).toEqual(['hello again', 'Hi.']);
      else if (s.turns.length !== old.turns.length)
        expect(s.turns.slice(-2).map((t) => t.text)).toEqual(['and now the docs', 'Docs updated.']);
      else expect(s.harvestedAt).toBe(old.harvestedAt); // not written again
    }
    expect(after.filter((s) => before.get(s.sessionId)?.harvestedAt === s.harvestedAt)).toHaveLength(3);
    expect((await h.run(['aider'], [h.shop])).filesParsed).toBe(0);
  });

  it('merges what Cursor appends to a transcript', async () => {
    const h = setup();
    await h.run(['cursor-cli']);
    const file = path.join(
      h.home,
      '.cursor/projects/work-shop/agent-transcripts/4f3c9d2e-7a1b-4c8d-9e0f-1a2b3c4d5e6f.jsonl',
    );
    appendFileSync(file, '{"role":"user","message":{"content":"<user_query>and the tests?</user_query>"}}\n');
    const summary = await h.run(['cursor-cli']);
    expect(summary.bySource['cursor-cli']).toMatchObject({ parsed: 1, updated: 1, new: 0 });
    const flat = h.stored('cursor-cli').find((s) => s.sessionId.startsWith('4f3c9d2e'));
    expect(flat?.turns.map((t) => t.text).slice(-2)).toEqual([
      'It writes them back out as CSV.',
      'and the tests?',
    ]);
  });

  it('finds Aider histories in the folders of sessions the store already holds', async () => {
    const h = setup();
    // The Cursor workspace is the Aider project: once its sessions are stored, the history is found.
    const trust = path.join(h.home, '.cursor/projects/work-shop/.workspace-trusted');
    writeFileSync(trust, JSON.stringify({ workspacePath: h.shop }));
    expect((await h.run(['aider'])).bySource.aider?.files).toBe(0);
    await h.run(['cursor-cli']);
    const summary = await h.run(['aider']);
    expect(summary.bySource.aider).toMatchObject({ files: 1, new: 4 });
    expect(readFileSync(trust, 'utf8')).toContain(h.shop);
  });

  it('reads an Aider history whose last line has no newline once it is quiet, and again when it grows', async () => {
    const folder = tempDir('sos-aider-open-');
    const file = path.join(folder, HISTORY);
    const T0 = Date.UTC(2026, 2, 4, 12);
    writeFileSync(
      file,
      '\n# aider chat started at 2026-03-04 07:00:00\n\n#### fix the bug  \n\nFixed the bu',
    );
    utimesSync(file, T0 / 1000, T0 / 1000);
    const db = openStore(':memory:');
    const run = (now: number) =>
      harvest({
        db,
        ctx: { home: folder, env: {}, projectFolders: () => [folder] },
        clock: fixedClock(now),
        logger: silentLogger,
        sources: ['aider'],
      });
    const texts = () =>
      querySessions(db, { project: '/', scope: 'all', sinceMs: null, limit: 10 }).flatMap((s) =>
        s.turns.map((t) => t.text),
      );
    expect((await run(T0 + 1000)).openLastLines).toBe(1);
    expect(texts()).toEqual(['fix the bug']);
    const quiet = await run(T0 + SETTLE_MS);
    expect([quiet.filesParsed, quiet.openLastLines]).toEqual([1, 0]);
    expect(texts()).toEqual(['fix the bug', 'Fixed the bu']);
    expect((await run(T0 + SETTLE_MS + 1000)).filesParsed).toBe(0);
    appendFileSync(file, 'g.\n\n#### thanks  \n');
    utimesSync(file, (T0 + 5000) / 1000, (T0 + 5000) / 1000);
    await run(T0 + 2 * SETTLE_MS);
    expect(texts()).toEqual(['fix the bug', 'Fixed the bug.', 'thanks']);
  });
});
