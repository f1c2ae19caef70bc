import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IoError } from '../../src/core/errors.js';
import { installOpenCodeFixture } from '../../test/helpers/agent-stores.js';
import { opencode } from './opencode.js';
import type { SourceFile } from '../../src/core/session.js';
import { act, turn } from '../shared/test-helpers.js';

let home: string;
let dbPath: string;
beforeEach(() => {
  home = mkdtempSync(path.join(os.tmpdir(), 'opencode-'));
  dbPath = installOpenCodeFixture(home);
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const ctx = () => ({ home, env: {} });
const byPath = async () => new Map((await opencode.discover(ctx())).map((f) => [f.path, f]));
const storeFile = (id: string) => `${dbPath}#${id}`;
const jsonFile = (project: string, id: string) =>
  path.join(home, '.local/share/opencode/storage/session', project, `${id}.json`);
async function parse(filePath: string) {
  const file = (await byPath()).get(filePath);
  if (file === undefined) throw new Error(`not discovered: ${filePath}`);
  return opencode.parse(file, 0);
}

describe('opencode roots and discovery', () => {
  it('watches the store, its log and the JSON storage: XDG_DATA_HOME, else ~/.local/share, or OPENCODE_DB', () => {
    const d = '/h/.local/share/opencode';
    expect(opencode.roots({ home: '/h', env: {} })).toEqual([
      `${d}/opencode.db`,
      `${d}/opencode.db-wal`,
      `${d}/storage`,
    ]);
    expect(opencode.roots({ home: '/h', env: { XDG_DATA_HOME: '/x' } })[0]).toBe('/x/opencode/opencode.db');
    expect(opencode.roots({ home: '/h', env: { XDG_DATA_HOME: 'rel' } })[0]).toBe(`${d}/opencode.db`);
    expect(opencode.roots({ home: '/h', env: { OPENCODE_DB: '/db/oc.db' } })).toEqual([
      '/db/oc.db',
      '/db/oc.db-wal',
      `${d}/storage`,
    ]);
    expect(opencode.roots({ home: '/h', env: { OPENCODE_DB: 'other.db' } })[0]).toBe(`${d}/other.db`);
    expect(opencode.roots({ home: '/h', env: { OPENCODE_DB: ':memory:' } })).toEqual([`${d}/storage`]);
  });

  it('lists each top-level session of the store and the JSON sessions the store does not hold', async () => {
    const files = await opencode.discover(ctx());
    expect(files.map((f) => f.path)).toEqual([
      storeFile('ses_7f3a01'),
      storeFile('ses_8b2c10'),
      storeFile('ses_9d4e20'),
      jsonFile('prj_legacy', 'ses_5a1b00'),
      jsonFile('prj_legacy', 'ses_5a1b77'),
    ]);
    // The watermark: messages + parts, and the latest update of the session or its messages.
    expect(files[0]).toMatchObject({ size: 20, mtimeMs: 1773137400000 });
  });

  it('reads only the store OPENCODE_DB names, and none for :memory:', async () => {
    const other = path.join(home, 'elsewhere.db');
    expect((await opencode.discover({ home, env: { OPENCODE_DB: other } })).map((f) => f.path)).toEqual([
      jsonFile('prj_legacy', 'ses_5a1b00'),
      jsonFile('prj_legacy', 'ses_5a1b77'),
      jsonFile('prj_shop', 'ses_7f3a01'), // the store that holds it is not read
    ]);
    const memory = await opencode.discover({ home, env: { OPENCODE_DB: ':memory:' } });
    expect(memory.map((f) => path.basename(f.path))).toEqual([
      'ses_5a1b00.json',
      'ses_5a1b77.json',
      'ses_7f3a01.json',
    ]);
  });

  it('changes the watermark of the one session that changed, not the others', async () => {
    const before = await byPath();
    const db = new Database(dbPath);
    db.prepare('INSERT INTO message VALUES (?, ?, ?, ?, ?)').run(
      'msg_8b2c10_u4',
      'ses_8b2c10',
      1773224000000,
      1773224000000,
      '{"role":"user","time":{"created":1773224000000}}',
    );
    db.close();
    const after = await byPath();
    for (const [p, file] of after) {
      const changed = p === storeFile('ses_8b2c10');
      expect(file.size !== before.get(p)?.size || file.mtimeMs !== before.get(p)?.mtimeMs, p).toBe(changed);
    }
  });
});

describe('opencode.parse', () => {
  it('reads a store session exactly: prompts, answers, tool calls as actions, errors and an interrupt', async () => {
    const parsed = await parse(storeFile('ses_7f3a01'));
    expect(parsed.badLines).toBe(0);
    expect(parsed.sessions).toHaveLength(1);
    const s = parsed.sessions[0]!;
    expect({ ...s, turns: [] }).toEqual({
      source: 'opencode',
      sessionId: 'ses_7f3a01',
      cwd: '/work/shop',
      branch: '',
      model: 'claude-sonnet-4-5',
      startedAt: 1773136800000,
      endedAt: 1773137400000,
      turns: [],
      toolsUsed: ['read', 'edit', 'bash', 'grep', 'write', 'apply_patch', 'todowrite'],
      skillsUsed: [],
      filesTouched: ['/work/shop/src/export.ts', '/work/shop/test/quote.test.ts'],
      sourcePath: storeFile('ses_7f3a01'),
      sourceVersion: '1.2.6',
    });
    const file = '/work/shop/src/export.ts';
    expect(s.turns).toEqual([
      // The file part and OpenCode's synthetic text about it are not what was typed; the failed edit counts.
      {
        seq: 0,
        ...turn('user', 'Make the CSV export include a header row.', 1773136800000, { toolErrors: 1 }),
      },
      {
        seq: 1,
        ...turn(
          'assistant',
          'The export now writes a header row first; the export tests pass.',
          1773136805000,
          {
            toolNames: ['read', 'edit', 'edit', 'bash'],
            actions: [
              act('read', 'read', file),
              act('edit', 'edit', file, 'return [header(rows), ...rows.map(line)]', 'return rows.map(line)'),
              act(
                'edit',
                'edit',
                file,
                '  return [header(rows), ...rows.map(line)].join("\\n")',
                '  return rows.map(line).join("\\n")',
              ),
              act('run', 'bash', 'npm test -- export'),
            ],
          },
        ),
      },
      {
        seq: 2,
        ...turn('user', 'Also quote fields that contain commas, and add a test.', 1773137000000, {
          interrupted: true,
        }),
      },
      {
        seq: 3,
        ...turn('assistant', '', 1773137005000, {
          toolNames: ['grep', 'write', 'apply_patch', 'todowrite'],
          actions: [
            act('search', 'grep', 'function line'),
            act('write', 'write', '/work/shop/test/quote.test.ts', 'import { line } from "../src/export";\n'),
            act(
              'edit',
              'apply_patch',
              'src/export.ts',
              'const line = (r) => r.map(quote).join(",")',
              'const line = (r) => r.join(",")',
            ),
            act('other', 'todowrite'),
          ],
        }),
      },
    ]);
  });

  it('marks a command a sub-agent ran as /name, skips compactions and their summary, counts a bad row', async () => {
    const parsed = await parse(storeFile('ses_8b2c10'));
    expect(parsed.badLines).toBe(1);
    const s = parsed.sessions[0]!;
    expect([s.cwd, s.model, s.skillsUsed, s.sourceVersion]).toEqual([
      '/work/shop/admin',
      'gpt-5.1',
      ['code-review'],
      '1.2.7',
    ]);
    expect(s.turns.map((t) => [t.role, t.text])).toEqual([
      ['user', '/review'],
      ['assistant', 'Two issues: the admin list is never paginated, and the delete handler lacks a test.'],
      ['user', 'Add pagination to the admin list.'],
    ]);
    expect(s.turns[1]?.actions).toEqual([act('other', 'skill')]);
  });

  it('reads a session of the JSON storage with its messages and parts; a broken message file is a bad line', async () => {
    const parsed = await parse(jsonFile('prj_legacy', 'ses_5a1b00'));
    expect(parsed.badLines).toBe(1);
    const s = parsed.sessions[0]!;
    expect([s.sessionId, s.cwd, s.model, s.sourceVersion, s.startedAt, s.endedAt]).toEqual([
      'ses_5a1b00',
      '/work/legacy-api',
      'claude-sonnet-4',
      '0.15.8',
      1760000000000,
      1760000300000,
    ]);
    expect(s.turns).toEqual([
      {
        seq: 0,
        ...turn('user', 'Add a rate limit of 100 requests per minute to the login route.', 1760000000000),
      },
      {
        seq: 1,
        ...turn(
          'assistant',
          'The login route now allows 100 requests per minute per client.',
          1760000010000,
          {
            toolNames: ['multiedit'],
            actions: [
              act(
                'edit',
                'multiedit',
                '/work/legacy-api/src/routes/login.ts',
                'router.use(limit(100));\nrouter.post(\nimport { Router }\nimport { limit }',
                'router.post(\nimport { Router }',
              ),
            ],
          },
        ),
      },
    ]);
  });

  it("gives no session for a sub-agent's JSON session", async () => {
    expect((await parse(jsonFile('prj_legacy', 'ses_5a1b77'))).sessions).toEqual([]);
  });

  it('reads a store in WAL mode while a writer holds it open, without writing to it', async () => {
    const walHome = mkdtempSync(path.join(os.tmpdir(), 'opencode-wal-'));
    try {
      const walDb = path.join(walHome, '.local/share/opencode/opencode.db');
      mkdirSync(path.dirname(walDb), { recursive: true });
      const writer = new Database(walDb);
      writer.pragma('journal_mode = WAL');
      writer.pragma('wal_autocheckpoint = 0');
      writer.exec(
        'CREATE TABLE session (id text primary key, parent_id text, directory text, version text, time_created integer, time_updated integer); CREATE TABLE message (id text primary key, session_id text, time_created integer, time_updated integer, data text); CREATE TABLE part (id text primary key, message_id text, session_id text, time_created integer, time_updated integer, data text);',
      );
      writer.exec(
        `INSERT INTO session VALUES ('ses_w', NULL, '/w', '1.2.0', 1773136800000, 1773136800000);
         INSERT INTO message VALUES ('m1', 'ses_w', 1773136800000, 1773136800000, '{"role":"user","time":{"created":1773136800000}}');
         INSERT INTO part VALUES ('p1', 'm1', 'ses_w', 1773136800000, 1773136800000, '{"type":"text","text":"still in the log"}');`,
      );
      writer.exec(
        'BEGIN; INSERT INTO part VALUES (\'p2\', \'m1\', \'ses_w\', 1, 1, \'{"type":"text","text":"uncommitted"}\')',
      );
      const files = await opencode.discover({ home: walHome, env: {} });
      expect(files.map((f) => path.basename(f.path))).toEqual(['opencode.db#ses_w']);
      const parsed = await opencode.parse(files[0]!, 0);
      expect(parsed.sessions[0]?.turns.map((t) => t.text)).toEqual(['still in the log']);
      writer.exec('COMMIT');
      writer.close();
    } finally {
      rmSync(walHome, { recursive: true, force: true });
    }
  });

  it('rejects with an IoError naming a store that is not SQLite', async () => {
    const bad = path.join(home, 'bad');
    const file = path.join(bad, '.local/share/opencode/opencode.db');
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, 'not a database, just text pretending to be one'.repeat(200));
    const files: SourceFile[] = await opencode.discover({ home: bad, env: {} });
    expect(files.map((f) => f.path)).toEqual([file]);
    const err: unknown = await opencode.parse(files[0]!, 0).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IoError);
    expect((err as Error).message).toContain(file);
  });
});
