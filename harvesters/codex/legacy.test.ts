// Codex harvester: the two older on-disk generations and unreadable files (real samples: bench/samples/).
import { chmodSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { IoError } from '../../src/core/errors.js';
import { codex } from './codex.js';
import type { SourceFile } from '../../src/core/session.js';

import {
  G1,
  G0,
  G1_FILE,
  G0_FILE,
  parseFile,
  onlySession,
  shape,
  writeLines,
  envelope,
  message,
  useTmpDir,
} from '../../test/helpers/codex-harvest.js';

let tmp = '';
const tmpDir = useTmpDir();
beforeEach(() => {
  tmp = tmpDir();
});

describe('codex.parse: Aug-2025 legacy rollouts (bare records)', () => {
  it('reads the meta line, the cwd from <environment_context>, tools and exit codes', async () => {
    const parsed = await parseFile(G1_FILE);
    expect(parsed.badLines).toBe(0);
    const [session] = parsed.sessions;
    expect(session).toMatchObject({
      sessionId: G1,
      cwd: '/Users/dev/legacy-app',
      branch: 'main',
      model: '',
      sourceVersion: '',
      startedAt: Date.parse('2025-08-27T17:50:50.879Z'),
      // No record timestamps: the session ends when the file was last written.
      endedAt: Math.trunc(statSync(G1_FILE).mtimeMs),
      toolsUsed: ['shell', 'local_shell'],
      skillsUsed: ['rust-testing'],
      filesTouched: ['src/parser.rs'],
    });
    expect(session?.turns.map(shape)).toEqual([
      {
        role: 'user',
        text: 'Run the unit tests and tell me what fails',
        toolNames: [],
        toolErrors: 1,
        interrupted: false,
      },
      { role: 'assistant', text: '', toolNames: ['shell', 'local_shell'], toolErrors: 0, interrupted: false },
      {
        role: 'assistant',
        text: 'One test fails: parser::tests::empty_input.',
        toolNames: [],
        toolErrors: 0,
        interrupted: false,
      },
      { role: 'user', text: 'Fix it please', toolNames: [], toolErrors: 1, interrupted: false },
      { role: 'assistant', text: '', toolNames: ['shell'], toolErrors: 0, interrupted: false },
      {
        role: 'assistant',
        text: 'The sandbox blocked the patch; please approve it.',
        toolNames: [],
        toolErrors: 0,
        interrupted: false,
      },
    ]);
    expect(session?.turns.every((t) => t.ts === null && t.offset > 0)).toBe(true);
  });

  it('resumes from an offset with the cwd and id read from the head', async () => {
    const full = await onlySession(G1_FILE);
    const tail = await onlySession(G1_FILE, full.turns[3]?.offset ?? 0);
    expect(tail).toMatchObject({ sessionId: G1, cwd: '/Users/dev/legacy-app', branch: 'main' });
    expect(tail.turns.map(shape)).toEqual(full.turns.slice(3).map(shape));
  });
  it('reads the cwd from a "Current working directory" line of the environment context', async () => {
    const id = '435a0000-0000-4000-8000-0000000000c1';
    const file = writeLines(`rollout-2025-08-25T11-40-41-${id}.jsonl`, [
      { id, timestamp: '2025-08-25T11:40:41.000Z', git: { branch: 'dev' } },
      message(
        'user',
        '<environment_context>\nCurrent working directory: /home/dev/ledger app\nApproval policy: on-request\n</environment_context>',
      ),
      message('user', 'Which tests are slow?'),
      message('assistant', 'The import tests take 4 s.'),
    ]);
    const session = await onlySession(file);
    expect(session).toMatchObject({ sessionId: id, cwd: '/home/dev/ledger app', branch: 'dev' });
    expect(session.turns.map((t) => [t.role, t.text])).toEqual([
      ['user', 'Which tests are slow?'],
      ['assistant', 'The import tests take 4 s.'],
    ]);
  });
});

describe('codex.parse: oldest whole-JSON sessions', () => {
  it('reads {session, items}; all offsets are 0; \\r line breaks become \\n', async () => {
    const parsed = await parseFile(G0_FILE);
    expect(parsed.badLines).toBe(1);
    expect(parsed.endOffset).toBe(statSync(G0_FILE).size);
    const [session] = parsed.sessions;
    expect(session).toMatchObject({
      sessionId: G0,
      cwd: '/Users/dev/oldest',
      startedAt: Date.parse('2025-08-23T11:03:20.415Z'),
      toolsUsed: ['shell'],
    });
    expect(session?.turns.map(shape)).toEqual([
      {
        role: 'user',
        text: 'cargo test fails:\n\nthread main panicked\nplease fix',
        toolNames: [],
        toolErrors: 0,
        interrupted: false,
      },
      { role: 'assistant', text: '', toolNames: ['shell'], toolErrors: 0, interrupted: false },
      { role: 'assistant', text: 'All tests pass now.', toolNames: [], toolErrors: 0, interrupted: false },
    ]);
    expect(session?.turns.every((t) => t.offset === 0 && t.ts === null)).toBe(true);
  });

  it('is always read whole, whatever the offset', async () => {
    const whole = await parseFile(G0_FILE);
    expect(await parseFile(G0_FILE, 200)).toEqual(whole);
  });

  it('reads the chat-completions item shape (role, content, tool_calls, tool results)', async () => {
    const file = path.join(tmp, 'rollout-2025-08-20-0418f71e-0000-4000-8000-00000000000c.json');
    writeFileSync(
      file,
      JSON.stringify({
        session: { timestamp: '2025-08-20T10:00:00Z', id: 'chat-shape', instructions: '' },
        items: [
          { role: 'system', content: 'You are a fork of Codex.' },
          { role: 'user', content: [{ type: 'text', text: 'list the files' }] },
          {
            role: 'assistant',
            content: '',
            tool_calls: [{ id: 'c1', type: 'function', function: { name: 'shell' } }],
          },
          { role: 'tool', tool_call_id: 'c1', content: 'Exit code: 2\nOutput:\nls: denied' },
          { role: 'assistant', content: 'Permission denied.' },
        ],
      }),
    );
    const session = await onlySession(file);
    expect(session.sessionId).toBe('chat-shape');
    expect(session.turns.map(shape)).toEqual([
      { role: 'user', text: 'list the files', toolNames: [], toolErrors: 1, interrupted: false },
      { role: 'assistant', text: '', toolNames: ['shell'], toolErrors: 0, interrupted: false },
      { role: 'assistant', text: 'Permission denied.', toolNames: [], toolErrors: 0, interrupted: false },
    ]);
  });

  it('reports a document that is not a session as one bad line', async () => {
    const broken = path.join(tmp, 'rollout-broken.json');
    writeFileSync(broken, '{"session": {');
    expect(await parseFile(broken)).toEqual({ sessions: [], badLines: 1, endOffset: 13 });
    const other = path.join(tmp, 'rollout-other.json');
    writeFileSync(other, '[1, 2]');
    expect((await parseFile(other)).badLines).toBe(1);
  });
});

describe('codex.parse: unreadable files', () => {
  it('rejects with an IoError naming a missing file', async () => {
    const missing: SourceFile = {
      source: 'codex',
      path: path.join(tmp, 'gone.jsonl'),
      size: 1,
      mtimeMs: 0,
      inode: 1,
    };
    await expect(codex.parse(missing, 0)).rejects.toThrow(IoError);
    await expect(codex.parse(missing, 0)).rejects.toThrow(missing.path);
    await expect(codex.parse({ ...missing, path: path.join(tmp, 'gone.json') }, 0)).rejects.toThrow(IoError);
  });

  it.skipIf(process.getuid?.() === 0)('rejects on EACCES with the path in the message', async () => {
    const file = writeLines('rollout-locked.jsonl', [envelope('response_item', message('user', 'x'))]);
    chmodSync(file, 0o000);
    await expect(parseFile(file)).rejects.toThrow(file);
  });
});
