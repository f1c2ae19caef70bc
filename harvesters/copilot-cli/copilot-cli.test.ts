import {
  appendFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IoError } from '../../src/core/errors.js';
import { copilotCli } from './copilot-cli.js';
import type { HarvestContext } from '../types.js';
import type { SourceFile, HarvestedSession } from '../../src/core/session.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const FIXTURE_HOME = path.join(here, '..', '..', 'test', 'fixtures', 'copilot-cli');
const S1 = 'c0ffee00-0000-4000-8000-000000000001';
const S2 = 'c0ffee00-0000-4000-8000-000000000002';
const S3 = 'c0ffee00-0000-4000-8000-000000000003';
const S4 = 'c0ffee00-0000-4000-8000-000000000004';
const FIXTURE_STATE = path.join(FIXTURE_HOME, '.copilot', 'session-state');
const S1_EVENTS = path.join(FIXTURE_STATE, S1, 'events.jsonl');
const S2_EVENTS = path.join(FIXTURE_STATE, S2, 'events.jsonl');
const S3_FLAT = path.join(FIXTURE_STATE, `${S3}.jsonl`);
const S4_EVENTS = path.join(FIXTURE_STATE, S4, 'events.jsonl');

let tmp: string;
beforeEach(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'copilot-cli-harvest-'));
});
afterEach(() => {
  rmSync(tmp, { recursive: true, force: true });
});

function sourceFile(filePath: string): SourceFile {
  const st = statSync(filePath);
  return { source: 'copilot-cli', path: filePath, size: st.size, mtimeMs: st.mtimeMs, inode: st.ino };
}

async function parseFile(filePath: string, fromOffset = 0) {
  return copilotCli.parse(sourceFile(filePath), fromOffset);
}

async function onlySession(filePath: string, fromOffset = 0): Promise<HarvestedSession> {
  const { sessions } = await parseFile(filePath, fromOffset);
  expect(sessions).toHaveLength(1);
  const [session] = sessions;
  if (session === undefined) throw new Error('no session');
  return session;
}

/** Byte offset of the line holding `needle` (turn offsets point at the line that started the turn). */
function lineOffsetOf(filePath: string, needle: string): number {
  const bytes = readFileSync(filePath);
  const at = bytes.indexOf(needle);
  if (at < 0) throw new Error(`${needle} not in ${filePath}`);
  return bytes.lastIndexOf(0x0a, at) + 1;
}

const utc = (iso: string) => Date.parse(iso);

function writeEmptyStore(dbPath: string): void {
  const db = new Database(dbPath);
  db.exec('CREATE TABLE sessions (id TEXT PRIMARY KEY, cwd TEXT)');
  db.close();
}

describe('copilotCli.roots', () => {
  const ctx = (env: Record<string, string | undefined>): HarvestContext => ({ home: '/home/u', env });

  it('defaults to <home>/.copilot', () => {
    expect(copilotCli.roots(ctx({}))).toEqual(['/home/u/.copilot']);
  });

  it('uses $COPILOT_HOME, expanding ~ and ignoring a blank value', () => {
    expect(copilotCli.roots(ctx({ COPILOT_HOME: '/data/copilot/' }))).toEqual(['/data/copilot']);
    expect(copilotCli.roots(ctx({ COPILOT_HOME: '~/cfg/copilot' }))).toEqual(['/home/u/cfg/copilot']);
    expect(copilotCli.roots(ctx({ COPILOT_HOME: '  ' }))).toEqual(['/home/u/.copilot']);
  });

  it('is registered as an incremental source', () => {
    expect(copilotCli.id).toBe('copilot-cli');
    expect(copilotCli.incremental).toBe(true);
  });
});

describe('copilotCli.discover', () => {
  it('finds the store and the event streams, nothing else', async () => {
    cpSync(FIXTURE_HOME, tmp, { recursive: true });
    const copilotHome = path.join(tmp, '.copilot');
    writeEmptyStore(path.join(copilotHome, 'session-store.db'));
    const files = await copilotCli.discover({ home: tmp, env: {} });
    const rel = files.map((f) => path.relative(copilotHome, f.path));
    expect(rel).toEqual([
      'session-store.db',
      `session-state/${S1}/events.jsonl`,
      `session-state/${S2}/events.jsonl`,
      `session-state/${S3}.jsonl`,
      `session-state/${S4}/events.jsonl`,
    ]);
    expect(files.every((f) => f.source === 'copilot-cli' && f.size > 0 && f.inode > 0)).toBe(true);
  });

  it('counts the write-ahead log in the store size and mtime', async () => {
    const copilotHome = path.join(tmp, '.copilot');
    mkdirSync(copilotHome);
    const dbPath = path.join(copilotHome, 'session-store.db');
    writeEmptyStore(dbPath);
    writeFileSync(`${dbPath}-wal`, Buffer.alloc(100));
    const [store] = await copilotCli.discover({ home: tmp, env: {} });
    expect(store?.size).toBe(statSync(dbPath).size + 100);
    expect(store?.mtimeMs).toBe(Math.max(statSync(dbPath).mtimeMs, statSync(`${dbPath}-wal`).mtimeMs));
  });

  it('honours $COPILOT_HOME and returns [] when nothing is there', async () => {
    cpSync(path.join(FIXTURE_HOME, '.copilot'), path.join(tmp, 'elsewhere'), { recursive: true });
    const files = await copilotCli.discover({
      home: '/nonexistent',
      env: { COPILOT_HOME: path.join(tmp, 'elsewhere') },
    });
    expect(files).toHaveLength(4);
    expect(await copilotCli.discover({ home: path.join(tmp, 'empty'), env: {} })).toEqual([]);
  });
});

describe('copilotCli.parse events.jsonl', () => {
  it('normalises a full session: prompts, answers, tools, errors, interrupts', async () => {
    const { sessions, badLines, endOffset } = await parseFile(S1_EVENTS);
    expect(badLines).toBe(1);
    expect(endOffset).toBe(statSync(S1_EVENTS).size);
    const [s] = sessions;
    expect(s).toMatchObject({
      source: 'copilot-cli',
      sessionId: S1,
      cwd: '/work/demo',
      branch: 'main',
      model: 'claude-sonnet-4.5',
      sourceVersion: '1.0.40',
      startedAt: utc('2026-02-03T09:00:00.000Z'),
      endedAt: utc('2026-02-03T09:02:00.000Z'),
      toolsUsed: ['view', 'bash', 'task', 'grep', 'edit'],
      skillsUsed: ['docs-style'],
      filesTouched: ['/work/demo/src/cli.ts', '/work/demo/README.md', '/work/demo/docs/usage.md'],
      sourcePath: S1_EVENTS,
    });
    expect(s?.turns.map((t) => [t.seq, t.role, t.text, t.toolNames, t.toolErrors, t.interrupted])).toEqual([
      [0, 'user', 'Add a --verbose flag to the demo CLI', [], 1, false],
      [1, 'assistant', 'Let me look at the argument parser first.', ['view'], 0, false],
      [2, 'assistant', '', ['bash'], 0, false],
      [3, 'assistant', 'I added the flag in src/cli.ts\nand the failing test now passes.', [], 0, false],
      [4, 'user', 'Also document the flag in the README', [], 0, true],
      [5, 'assistant', 'Delegating the search to an explorer.', ['task'], 0, false],
      [6, 'assistant', '', ['edit'], 0, false],
      [7, 'user', 'No, put it in docs/usage.md instead', [], 0, false],
      [8, 'assistant', 'Moved the documentation to docs/usage.md.', [], 0, false],
    ]);
    expect(s?.turns[0]?.ts).toBe(utc('2026-02-03T09:00:10.000Z'));
  });

  it('gives each turn the byte offset of the line that started it', async () => {
    const s = await onlySession(S1_EVENTS);
    const starts = ['"id":"ev-04"', '"id":"ev-07"', '"id":"ev-10"', '"id":"ev-14"', '"id":"ev-21"'];
    expect(s.turns.slice(0, 5).map((t) => t.offset)).toEqual(starts.map((n) => lineOffsetOf(S1_EVENTS, n)));
  });

  it('drops injected, system, sub-agent, reasoning and tool-output content', async () => {
    const s = await onlySession(S1_EVENTS);
    const texts = s.turns.map((t) => t.text).join('\n');
    for (const leaked of [
      'SECRET-THINKING',
      'TOOL-OUTPUT',
      'SKILL BODY',
      'Follow the rules',
      'pdf skill',
      'Continue working on the objective',
      'system-reminder',
      '/model',
      'Find the README section',
      'Found it under Usage',
      'current_datetime',
      'npm test',
    ]) {
      expect(texts).not.toContain(leaked);
    }
  });

  it('tolerates schema drift: no context, missing fields, legacy result types, naive timestamps', async () => {
    const { sessions, badLines } = await parseFile(S2_EVENTS);
    expect(badLines).toBe(1);
    const [s] = sessions;
    expect(s).toMatchObject({
      sessionId: S2,
      cwd: '/work/other', // from workspace.yaml, since session.start has no context
      branch: 'dev',
      model: '',
      sourceVersion: '0.0.400',
      startedAt: Date.UTC(2025, 10, 20, 8, 0, 0),
      endedAt: Date.UTC(2025, 10, 20, 8, 0, 11),
      toolsUsed: ['str_replace_editor'],
      filesTouched: ['/work/other/src/config.ts'],
    });
    expect(s?.turns.map((t) => [t.role, t.text, t.toolNames, t.toolErrors, t.interrupted])).toEqual([
      ['user', 'Rename the config loader to loadSettings', [], 1, true],
      ['assistant', '', ['str_replace_editor'], 0, false],
      ['assistant', 'Renamed it in src/config.ts.', [], 0, false],
    ]);
  });

  it('reads a legacy flat session-state/<id>.jsonl', async () => {
    const s = await onlySession(S3_FLAT);
    expect(s).toMatchObject({ sessionId: S3, cwd: '/work/legacy', sourceVersion: '0.0.330' });
    expect(s.turns.map((t) => t.role)).toEqual(['user', 'assistant']);
  });

  it('drops a session with no prompt and no answer', async () => {
    const { sessions, badLines } = await parseFile(S4_EVENTS);
    expect(sessions).toEqual([]);
    expect(badLines).toBe(0);
  });

  it('falls back to the folder name when session.start is missing', async () => {
    const dir = path.join(tmp, 'session-state', 'f00d');
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'events.jsonl');
    writeFileSync(
      file,
      [
        '{"type":"user.message","data":{"content":"hello there"},"timestamp":"2026-01-01T00:00:00Z"}',
        '{"type":"assistant.message","data":{"content":"hi"},"timestamp":"2026-01-01T00:00:01Z"}',
        '',
      ].join('\n'),
    );
    expect((await onlySession(file)).sessionId).toBe('f00d');
  });

  it('does not read a truncated last line (a live writer)', async () => {
    const file = path.join(tmp, 'live.jsonl');
    const complete = '{"type":"user.message","data":{"content":"first prompt"}}\n';
    writeFileSync(file, `${complete}{"type":"assistant.message","data":{"content":"half`);
    const { sessions, endOffset, badLines } = await parseFile(file);
    expect(endOffset).toBe(Buffer.byteLength(complete));
    expect(badLines).toBe(0);
    expect(sessions[0]?.turns.map((t) => t.text)).toEqual(['first prompt']);
  });

  it('rejects with an IoError naming an unreadable file', async () => {
    const missing: SourceFile = { ...sourceFile(S1_EVENTS), path: path.join(tmp, 'gone', 'events.jsonl') };
    await expect(copilotCli.parse(missing, 0)).rejects.toThrow(IoError);
    await expect(copilotCli.parse(missing, 0)).rejects.toThrow(missing.path);
  });
});

describe('copilotCli.parse incremental', () => {
  it('resumes at a turn offset, keeping the session header', async () => {
    const from = lineOffsetOf(S1_EVENTS, '"id":"ev-21"');
    const s = await onlySession(S1_EVENTS, from);
    expect(s).toMatchObject({ sessionId: S1, cwd: '/work/demo', branch: 'main', sourceVersion: '1.0.40' });
    expect(s.turns.map((t) => [t.seq, t.role, t.text, t.interrupted])).toEqual([
      [0, 'user', 'Also document the flag in the README', true],
      [1, 'assistant', 'Delegating the search to an explorer.', false],
      [2, 'assistant', '', false],
      [3, 'user', 'No, put it in docs/usage.md instead', false],
      [4, 'assistant', 'Moved the documentation to docs/usage.md.', false],
    ]);
    expect(s.turns[0]?.offset).toBe(from);
  });

  it('credits errors seen before the first prompt of the range to that prompt', async () => {
    const s = await onlySession(S1_EVENTS, lineOffsetOf(S1_EVENTS, '"id":"ev-12"'));
    expect(s.turns[0]).toMatchObject({
      role: 'assistant',
      text: expect.stringContaining('I added the flag'),
    });
    expect(s.turns.find((t) => t.role === 'user')).toMatchObject({ toolErrors: 1, interrupted: true });
  });

  it('reads only what was appended after the last turn', async () => {
    const file = path.join(tmp, 'events.jsonl');
    cpSync(S3_FLAT, file);
    const first = await parseFile(file);
    const lastTurn = first.sessions[0]?.turns.at(-1);
    appendFileSync(
      file,
      '{"type":"user.message","data":{"content":"And the test script?"},"timestamp":"2025-09-01T10:05:00.000Z"}\n' +
        '{"type":"assistant.message","data":{"content":"It runs vitest."},"timestamp":"2025-09-01T10:05:01.000Z"}\n',
    );
    const next = await parseFile(file, lastTurn?.offset ?? 0);
    expect(next.endOffset).toBe(statSync(file).size);
    expect(next.sessions[0]?.sessionId).toBe(S3);
    expect(next.sessions[0]?.turns.map((t) => t.text)).toEqual([
      'It compiles TypeScript, then copies templates.',
      'And the test script?',
      'It runs vitest.',
    ]);
  });
});
