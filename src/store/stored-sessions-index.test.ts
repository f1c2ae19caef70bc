import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HarvestedSession } from '../core/session.js';
import { openStore } from './db.js';
import { sessionWriter } from './session-writer.js';
import { storedSessionsIndex } from './stored-sessions-index.js';

const NOW = Date.UTC(2026, 5, 1);

function session(id: string, file: string): HarvestedSession {
  return {
    source: 'claude',
    sessionId: id,
    cwd: '/work/app',
    branch: '',
    model: '',
    sourceVersion: '',
    startedAt: NOW - 60_000,
    endedAt: NOW,
    toolsUsed: [],
    skillsUsed: [],
    filesTouched: [],
    sourcePath: file,
    turns: [
      {
        seq: 0,
        role: 'user',
        text: `prompt of ${id}`,
        ts: NOW,
        toolNames: [],
        actions: [],
        toolErrors: 0,
        interrupted: false,
        offset: 0,
      },
    ],
  };
}

const tempStore = (): string => path.join(mkdtempSync(path.join(os.tmpdir(), 'index-')), 'store.sqlite');

describe('the stored-sessions index', () => {
  it('answers only inside begin/end, and follows this connection’s own writes', () => {
    const db = openStore(':memory:');
    sessionWriter(db).write(session('a', '/t/a.jsonl'), '/work/app', null, NOW);
    const index = storedSessionsIndex(db);
    expect(index.has('claude:a')).toBeUndefined();
    index.begin();
    expect(index.has('claude:a')).toBe(true);
    expect(index.hasFile('/t/a.jsonl')).toBe(true);
    expect(index.has('claude:b')).toBe(false);
    index.added('claude:b', '/t/b.jsonl');
    index.removed('claude:a');
    expect(index.has('claude:b')).toBe(true);
    expect(index.has('claude:a')).toBe(false);
    index.end(true);
    expect(index.hasFile('/t/b.jsonl')).toBeUndefined();
  });

  it('is read again after another connection committed, and after a rollback', () => {
    const file = tempStore();
    const mine = openStore(file);
    const other = openStore(file);
    const index = storedSessionsIndex(mine);
    index.begin();
    expect(index.has('claude:x')).toBe(false);
    index.end(true);
    sessionWriter(other).write(session('x', '/t/x.jsonl'), '/work/app', null, NOW);
    index.begin();
    expect(index.has('claude:x')).toBe(true);
    index.added('claude:ghost', '/t/ghost.jsonl'); // then rolled back: never stored
    index.end(false);
    index.begin();
    expect(index.has('claude:ghost')).toBe(false);
    expect(index.has('claude:x')).toBe(true);
    index.end(true);
    mine.close();
    other.close();
  });

  it('the writer reports new and updated sessions the same with and without it', () => {
    const db = openStore(':memory:');
    const writer = sessionWriter(db);
    writer.beginWrite();
    expect(writer.write(session('a', '/t/a.jsonl'), '/work/app', null, NOW)).toBe('new');
    expect(writer.write(session('a', '/t/a.jsonl'), '/work/app', null, NOW)).toBe('updated');
    expect(writer.isStored('claude:a')).toBe(true);
    expect(writer.sessionsOfFile('/t/none.jsonl')).toEqual([]);
    expect(writer.sessionsOfFile('/t/a.jsonl').map((s) => s.key)).toEqual(['claude:a']);
    writer.deleteSession('claude:a');
    expect(writer.isStored('claude:a')).toBe(false);
    writer.endWrite(true);
    expect(writer.isStored('claude:a')).toBe(false);
    expect(writer.write(session('a', '/t/a.jsonl'), '/work/app', null, NOW)).toBe('new');
    expect(writer.isStored('claude:a')).toBe(true);
  });
});
