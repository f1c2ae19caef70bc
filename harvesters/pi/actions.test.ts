import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_ACTIONS_PER_TURN, MAX_TEXT_CHARS } from '../shared/actions.js';
import { piToolAction, piToolFile } from './actions.js';
import { pi } from './pi.js';
import { act } from '../shared/test-helpers.js';

let tmp: string;
beforeEach(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'pi-actions-'));
});
afterEach(() => {
  rmSync(tmp, { recursive: true, force: true });
});

describe('piToolAction', () => {
  it('maps each built-in tool by its schema', () => {
    expect(piToolAction('bash', { command: 'npm test', timeout: 60 })).toEqual(
      act('run', 'bash', 'npm test'),
    );
    expect(piToolAction('read', { path: 'src/a.ts', offset: 10, limit: 20 })).toEqual(
      act('read', 'read', 'src/a.ts'),
    );
    expect(piToolAction('edit', { path: 'src/a.ts', oldText: 'a', newText: 'b' })).toEqual(
      act('edit', 'edit', 'src/a.ts', 'b', 'a'),
    );
    expect(piToolAction('write', { path: 'b.md', content: '# B\n' })).toEqual(
      act('write', 'write', 'b.md', '# B\n'),
    );
    expect(piToolAction('grep', { pattern: 'TODO', path: 'src', glob: '*.ts' })).toEqual(
      act('search', 'grep', 'TODO'),
    );
    expect(piToolAction('find', { pattern: '*.spec.ts', path: '.' })).toEqual(
      act('search', 'find', '*.spec.ts'),
    );
  });

  it("keeps ls and extensions' tools as other, and tolerates odd arguments", () => {
    expect(piToolAction('ls', { path: '.' })).toEqual(act('other', 'ls'));
    expect(piToolAction('subagent', { task: 'x' })).toEqual(act('other', 'subagent'));
    expect(piToolAction('bash', 'not an object')).toEqual(act('run', 'bash'));
    expect(piToolAction('edit', { path: 7, newText: 'x'.repeat(3000) }).added).toHaveLength(MAX_TEXT_CHARS);
  });

  it('names the file of a read, edit or write only', () => {
    expect(piToolFile('edit', { path: ' src/a.ts ' })).toBe('src/a.ts');
    expect(piToolFile('grep', { path: 'src' })).toBe('');
    expect(piToolFile('read', null)).toBe('');
  });
});

describe('pi actions in a session', () => {
  it('keeps the first 64 calls of an answer, in call order', async () => {
    const file = path.join(tmp, 's.jsonl');
    const calls = Array.from({ length: MAX_ACTIONS_PER_TURN + 3 }, (_, i) => ({
      type: 'toolCall',
      id: `t${i}`,
      name: 'read',
      arguments: { path: `f${i}.ts` },
    }));
    const lines = [
      { type: 'session', version: 3, id: 's', timestamp: '2026-05-01T08:00:00.000Z', cwd: '/w' },
      {
        type: 'message',
        id: 'a',
        timestamp: '2026-05-01T08:00:01.000Z',
        message: { role: 'user', content: 'read all' },
      },
      {
        type: 'message',
        id: 'b',
        timestamp: '2026-05-01T08:00:02.000Z',
        message: { role: 'assistant', content: calls, model: 'm', stopReason: 'toolUse' },
      },
    ];
    writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const st = statSync(file);
    const parsed = await pi.parse(
      { source: 'pi', path: file, size: st.size, mtimeMs: st.mtimeMs, inode: st.ino },
      0,
    );
    const answer = parsed.sessions[0]?.turns[1];
    expect(answer?.actions).toHaveLength(MAX_ACTIONS_PER_TURN);
    expect(answer?.toolNames).toHaveLength(MAX_ACTIONS_PER_TURN + 3);
    expect(answer?.actions[0]).toEqual(act('read', 'read', 'f0.ts'));
  });
});
