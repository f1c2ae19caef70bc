import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_ACTIONS_PER_TURN, MAX_TARGET_CHARS, MAX_TEXT_CHARS } from '../shared/actions.js';
import { geminiToolAction } from './actions.js';
import { gemini } from './gemini.js';
import { act } from '../shared/test-helpers.js';

let tmp: string;
beforeEach(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'gemini-actions-'));
});
afterEach(() => {
  rmSync(tmp, { recursive: true, force: true });
});

describe('geminiToolAction', () => {
  it('maps each built-in tool by its schema', () => {
    expect(geminiToolAction('run_shell_command', { command: 'npm test', dir_path: 'web' })).toEqual(
      act('run', 'run_shell_command', 'npm test'),
    );
    expect(geminiToolAction('read_file', { file_path: '/p/a.ts', start_line: 3 })).toEqual(
      act('read', 'read_file', '/p/a.ts'),
    );
    expect(geminiToolAction('read_many_files', { include: ['a.ts', 'docs/*.md'], exclude: ['x'] })).toEqual(
      act('read', 'read_many_files', 'a.ts docs/*.md'),
    );
    expect(geminiToolAction('replace', { file_path: '/p/a.ts', old_string: 'a', new_string: 'b' })).toEqual(
      act('edit', 'replace', '/p/a.ts', 'b', 'a'),
    );
    expect(geminiToolAction('edit', { file_path: '/p/a.ts', old_string: 'a', new_string: 'b' })).toEqual(
      act('edit', 'edit', '/p/a.ts', 'b', 'a'),
    );
    expect(geminiToolAction('write_file', { file_path: '/p/b.ts', content: 'x\n' })).toEqual(
      act('write', 'write_file', '/p/b.ts', 'x\n'),
    );
    expect(geminiToolAction('glob', { pattern: '**/*.md' })).toEqual(act('search', 'glob', '**/*.md'));
    expect(geminiToolAction('grep_search', { pattern: 'TODO', include_pattern: '*.ts' })).toEqual(
      act('search', 'grep_search', 'TODO'),
    );
    expect(geminiToolAction('google_web_search', { query: 'node 22 release' })).toEqual(
      act('search', 'google_web_search', 'node 22 release'),
    );
  });

  it('reads the older names and arguments (before v0.14)', () => {
    expect(geminiToolAction('read_file', { absolute_path: '/p/a.ts' })).toEqual(
      act('read', 'read_file', '/p/a.ts'),
    );
    expect(geminiToolAction('read_many_files', { paths: ['/p/a.ts'], include: ['*.md'] })).toEqual(
      act('read', 'read_many_files', '/p/a.ts *.md'),
    );
    expect(geminiToolAction('search_file_content', { pattern: 'FIXME' })).toEqual(
      act('search', 'search_file_content', 'FIXME'),
    );
  });

  it('keeps anything else as other, with its name, and tolerates missing or odd arguments', () => {
    for (const name of [
      'list_directory',
      'web_fetch',
      'save_memory',
      'write_todos',
      'mcp_github_create_issue',
    ])
      expect(geminiToolAction(name, { dir_path: '/p', prompt: 'x' })).toEqual(act('other', name));
    expect(geminiToolAction('run_shell_command', { command: 42 })).toEqual(act('run', 'run_shell_command'));
    expect(geminiToolAction('read_many_files', { include: 'not-a-list' })).toEqual(
      act('read', 'read_many_files'),
    );
  });

  it('applies the caps', () => {
    const a = geminiToolAction('write_file', {
      file_path: `/${'p'.repeat(1000)}`,
      content: 'x'.repeat(5000),
    });
    expect(a.target).toHaveLength(MAX_TARGET_CHARS);
    expect(a.added).toHaveLength(MAX_TEXT_CHARS);
  });
});

describe('gemini actions in a chat', () => {
  it('keeps the first 64 calls of an answer', async () => {
    const file = path.join(tmp, 'session-2026-05-01T08-00-abcdef12.json');
    const toolCalls = Array.from({ length: MAX_ACTIONS_PER_TURN + 6 }, (_, i) => ({
      id: `c${i}`,
      name: 'run_shell_command',
      args: { command: `echo ${i}` },
      status: 'success',
    }));
    const messages = [
      { id: 'u', type: 'user', timestamp: '2026-05-01T08:00:01.000Z', content: 'print 70 numbers' },
      { id: 'g', type: 'gemini', timestamp: '2026-05-01T08:00:02.000Z', content: 'Done.', toolCalls },
    ];
    writeFileSync(file, JSON.stringify({ sessionId: 'abcdef12', projectHash: 'x', messages }));
    const st = statSync(file);
    const parsed = await gemini.parse(
      { source: 'gemini', path: file, size: st.size, mtimeMs: st.mtimeMs, inode: st.ino },
      0,
    );
    const answer = parsed.sessions[0]?.turns[1];
    expect(answer?.actions).toHaveLength(MAX_ACTIONS_PER_TURN);
    expect(answer?.toolNames).toHaveLength(MAX_ACTIONS_PER_TURN + 6);
    expect(answer?.actions.at(-1)).toEqual(
      act('run', 'run_shell_command', `echo ${MAX_ACTIONS_PER_TURN - 1}`),
    );
  });

  it('takes the calls from functionCall parts when a message has no toolCalls yet', async () => {
    const file = path.join(tmp, 'session-2026-05-01T08-00-abcdef13.jsonl');
    const lines = [
      { sessionId: 'abcdef13', projectHash: 'x' },
      { id: 'u', type: 'user', timestamp: '2026-05-01T08:00:01.000Z', content: [{ text: 'list the files' }] },
      {
        id: 'g',
        type: 'gemini',
        timestamp: '2026-05-01T08:00:02.000Z',
        content: [
          { text: 'thinking about it', thought: true },
          { functionCall: { id: 'f1', name: 'glob', args: { pattern: '*' } } },
        ],
      },
    ];
    writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const st = statSync(file);
    const parsed = await gemini.parse(
      { source: 'gemini', path: file, size: st.size, mtimeMs: st.mtimeMs, inode: st.ino },
      0,
    );
    expect(parsed.sessions[0]?.turns[1]).toMatchObject({ text: '', actions: [act('search', 'glob', '*')] });
  });
});
