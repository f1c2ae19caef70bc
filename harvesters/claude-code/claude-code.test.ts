import {
  appendFileSync,
  chmodSync,
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
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claude } from './claude-code.js';
import type { HarvestContext } from '../types.js';
import type { SourceFile, HarvestedSession } from '../../src/core/session.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const FIXTURE_CONFIG = path.join(here, '..', '..', 'test', 'fixtures', 'claude');
const FIXTURE_PROJECT = path.join(FIXTURE_CONFIG, 'projects', '-tmp-demo');
const S1 = '5b1f7c2e-1d3a-4c6b-9e8f-0a1b2c3d4e01';
const S2 = '5b1f7c2e-1d3a-4c6b-9e8f-0a1b2c3d4e02';
const S3 = '5b1f7c2e-1d3a-4c6b-9e8f-0a1b2c3d4e03';

let tmp: string;
beforeEach(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'claude-harvest-'));
});
afterEach(() => {
  rmSync(tmp, { recursive: true, force: true });
});

function sourceFile(filePath: string): SourceFile {
  const st = statSync(filePath);
  return { source: 'claude', path: filePath, size: st.size, mtimeMs: st.mtimeMs, inode: st.ino };
}

async function parseFile(filePath: string, fromOffset = 0) {
  return claude.parse(sourceFile(filePath), fromOffset);
}

async function onlySession(filePath: string): Promise<HarvestedSession> {
  const { sessions } = await parseFile(filePath);
  expect(sessions).toHaveLength(1);
  const [session] = sessions;
  if (session === undefined) throw new Error('no session');
  return session;
}

function writeJsonl(name: string, records: unknown[]): string {
  const file = path.join(tmp, name);
  writeFileSync(file, records.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n') + '\n');
  return file;
}

const userRec = (uuid: string, content: unknown, extra: Record<string, unknown> = {}) => ({
  type: 'user',
  uuid,
  sessionId: 'sess-x',
  timestamp: '2026-01-01T00:00:00.000Z',
  message: { role: 'user', content },
  ...extra,
});
const assistantRec = (uuid: string, id: string, block: unknown, extra: Record<string, unknown> = {}) => ({
  type: 'assistant',
  uuid,
  sessionId: 'sess-x',
  timestamp: '2026-01-01T00:00:01.000Z',
  message: { id, role: 'assistant', model: 'claude-test', content: [block] },
  ...extra,
});

describe('claude.roots', () => {
  const ctx = (env: Record<string, string | undefined>): HarvestContext => ({ home: '/home/u', env });

  it('defaults to <home>/.claude/projects', () => {
    expect(claude.roots(ctx({}))).toEqual([path.resolve('/home/u/.claude/projects')]);
    expect(claude.roots(ctx({ CLAUDE_CONFIG_DIR: ' ' }))).toEqual([path.resolve('/home/u/.claude/projects')]);
  });

  it('uses every entry of a comma-separated CLAUDE_CONFIG_DIR, deduplicated', () => {
    const roots = claude.roots(ctx({ CLAUDE_CONFIG_DIR: '/a/claude, ~/.config/claude ,,/a/claude' }));
    expect(roots).toEqual([
      path.resolve('/a/claude/projects'),
      path.resolve('/home/u/.config/claude/projects'),
    ]);
  });
});

describe('claude.discover', () => {
  it('finds session transcripts and skips sub-agent files', async () => {
    const files = await claude.discover({ home: tmp, env: { CLAUDE_CONFIG_DIR: FIXTURE_CONFIG } });
    expect(files.map((f) => path.basename(f.path)).sort()).toEqual([
      `${S1}.jsonl`,
      `${S2}.jsonl`,
      `${S3}.jsonl`,
    ]);
    for (const f of files) {
      expect(f.source).toBe('claude');
      expect(f.size).toBe(statSync(f.path).size);
      expect(f.inode).toBe(statSync(f.path).ino);
    }
  });

  it('reads <home>/.claude/projects by default and tolerates a missing root', async () => {
    expect(await claude.discover({ home: tmp, env: {} })).toEqual([]);
    cpSync(FIXTURE_CONFIG, path.join(tmp, '.claude'), { recursive: true });
    const files = await claude.discover({ home: tmp, env: {} });
    expect(files).toHaveLength(3);
    expect(files.every((f) => f.path.startsWith(path.join(tmp, '.claude', 'projects')))).toBe(true);
  });

  it('searches all configured roots, skipping missing ones', async () => {
    const second = path.join(tmp, 'second');
    mkdirSync(path.join(second, 'projects', 'p'), { recursive: true });
    writeFileSync(path.join(second, 'projects', 'p', 'abc.jsonl'), '');
    const env = { CLAUDE_CONFIG_DIR: `${path.join(tmp, 'missing')},${FIXTURE_CONFIG},${second}` };
    const files = await claude.discover({ home: tmp, env });
    expect(files).toHaveLength(4);
    expect(files.at(-1)?.path).toBe(path.join(second, 'projects', 'p', 'abc.jsonl'));
  });
});

describe('claude.parse on the fixtures', () => {
  it('parses a normal session: metadata, split assistant messages, skills and files', async () => {
    const file = path.join(FIXTURE_PROJECT, `${S1}.jsonl`);
    const parse = await parseFile(file);
    expect(parse.badLines).toBe(0);
    expect(parse.endOffset).toBe(statSync(file).size);
    const [s] = parse.sessions;
    expect(parse.sessions).toHaveLength(1);
    expect(s).toMatchObject({
      source: 'claude',
      sessionId: S1,
      cwd: '/tmp/demo',
      branch: 'main',
      model: 'claude-sonnet-4-20250514',
      sourceVersion: '2.1.120',
      startedAt: Date.UTC(2026, 2, 2, 9, 59, 50, 0),
      endedAt: Date.UTC(2026, 2, 2, 10, 1, 5, 0),
      toolsUsed: ['Read', 'Edit', 'Skill'],
      skillsUsed: ['release-notes', 'changelog'],
      filesTouched: ['/tmp/demo/src/report.ts'],
      sourcePath: file,
    });
    expect(s?.turns.map((t) => [t.seq, t.role, t.text, t.toolNames, t.toolErrors, t.interrupted])).toEqual([
      [0, 'user', 'Add a --json flag to the report command — résumé output must stay UTF-8 ✓', [], 0, false],
      [1, 'assistant', "I'll look at the report command first.", ['Read'], 0, false],
      [2, 'assistant', '', ['Edit'], 0, false],
      [3, 'assistant', 'Added `--json`; it prints the report as one JSON object.', [], 0, false],
      [4, 'user', 'Thanks! Now use the release-notes skill to draft notes.', [], 0, false],
      [5, 'assistant', '', ['Skill'], 0, false],
      [6, 'assistant', 'Drafted the notes in CHANGELOG.md.', [], 0, false],
    ]);
    // A merged assistant turn keeps the timestamp of its first record (the empty thinking block).
    expect(s?.turns[1]?.ts).toBe(Date.UTC(2026, 2, 2, 10, 0, 2, 0));
  });

  it('handles errors, rejections, interrupts, sidechains, compaction, API errors and bad lines', async () => {
    const file = path.join(FIXTURE_PROJECT, `${S2}.jsonl`);
    const parse = await parseFile(file);
    expect(parse.badLines).toBe(2);
    const [s] = parse.sessions;
    expect(parse.sessions).toHaveLength(1);
    expect(s).toMatchObject({
      sessionId: S2,
      model: 'claude-sonnet-4-20250514',
      sourceVersion: '1.0.89',
      toolsUsed: ['Bash', 'Task', 'Grep', 'Edit'],
      skillsUsed: [],
      // The sidechain's Grep path is not credited: only the main chain's tool inputs are read.
      filesTouched: ['/tmp/demo/src/a.test.ts'],
      startedAt: Date.UTC(2026, 2, 3, 9, 0, 0, 0),
      endedAt: Date.UTC(2026, 2, 3, 9, 1, 0, 0),
    });
    expect(s?.turns.map((t) => [t.seq, t.role, t.text, t.toolNames, t.toolErrors, t.interrupted])).toEqual([
      // The Bash failure counts as a tool error; the rejected Edit and the marker mark the exchange interrupted.
      [0, 'user', 'Run the tests and fix whatever fails', [], 1, true],
      [1, 'assistant', 'Running the test suite.', ['Bash'], 0, false],
      [2, 'assistant', '', ['Task'], 0, false],
      [3, 'assistant', '', ['Edit'], 0, false],
      [4, 'user', 'Use fake timers instead of sleeping', [], 0, true],
      [5, 'assistant', 'Switched the test to fake timers.', [], 0, false],
      [6, 'user', 'and keep the old test name', [], 0, false],
      [7, 'assistant', 'Done, the old test name is kept.', [], 0, false],
    ]);
  });

  it('drops a session that has only meta and command records', async () => {
    const parse = await parseFile(path.join(FIXTURE_PROJECT, `${S3}.jsonl`));
    expect(parse.sessions).toEqual([]);
    expect(parse.badLines).toBe(0);
  });
});

describe('claude.parse edge cases', () => {
  it('falls back to the file name for records without a sessionId and splits mixed sessions', async () => {
    const file = writeJsonl('stem-id.jsonl', [
      { type: 'user', uuid: 'u1', message: { role: 'user', content: 'first prompt' } },
      userRec('u2', 'second prompt', { sessionId: 'other' }),
    ]);
    const { sessions } = await parseFile(file);
    expect(sessions.map((s) => [s.sessionId, s.turns[0]?.text])).toEqual([
      ['stem-id', 'first prompt'],
      ['other', 'second prompt'],
    ]);
    expect(sessions[0]?.startedAt).toBeNull();
  });

  it('merges assistant blocks by message.id even when tool results interleave', async () => {
    const file = writeJsonl('s.jsonl', [
      userRec('u1', 'read two files'),
      assistantRec('a1', 'msg_1', { type: 'text', text: 'Reading.' }),
      assistantRec('a2', 'msg_1', { type: 'tool_use', id: 't1', name: 'Read', input: { file_path: '/x/a' } }),
      userRec('u2', [{ type: 'tool_result', tool_use_id: 't1', content: 'a' }]),
      assistantRec('a3', 'msg_1', { type: 'tool_use', id: 't2', name: 'Read', input: { file_path: '/x/b' } }),
      userRec('u3', [{ type: 'tool_result', tool_use_id: 't2', content: 'b' }]),
      assistantRec('a4', 'msg_2', { type: 'text', text: 'Both read.' }),
      assistantRec('a4', 'msg_2', { type: 'text', text: 'Both read.' }), // a duplicated line
    ]);
    const s = await onlySession(file);
    expect(s.turns.map((t) => [t.role, t.text, t.toolNames])).toEqual([
      ['user', 'read two files', []],
      ['assistant', 'Reading.', ['Read', 'Read']],
      ['assistant', 'Both read.', []],
    ]);
    expect(s.filesTouched).toEqual(['/x/a', '/x/b']);
  });

  it('holds tool errors and interrupts seen before any prompt for the next prompt', async () => {
    const file = writeJsonl('s.jsonl', [
      userRec('u1', [{ type: 'tool_result', tool_use_id: 't0', content: 'boom', is_error: true }]),
      userRec('u2', [{ type: 'text', text: '[Request interrupted by user]' }]),
      userRec('u3', 'try again'),
    ]);
    const s = await onlySession(file);
    expect(s.turns.map((t) => [t.text, t.toolErrors, t.interrupted])).toEqual([['try again', 1, true]]);
  });

  it('ignores non-prompt user records and keeps prompts after command-like text late in the message', async () => {
    const late = `${'a'.repeat(210)} <command-name>/x</command-name>`;
    const file = writeJsonl('s.jsonl', [
      userRec('u1', '<command-message>init</command-message>\n<command-name>/init</command-name>'),
      userRec('u2', 'Please analyze this codebase', { isMeta: true }),
      userRec('u3', '<bash-input>ls</bash-input>'),
      userRec('u4', [{ type: 'image', source: { type: 'base64', data: 'AAAA' } }]),
      userRec('u5', '   '),
      userRec('u6', late),
      assistantRec('a1', 'msg_1', { type: 'thinking', thinking: '' }),
    ]);
    const s = await onlySession(file);
    expect(s.turns.map((t) => t.text)).toEqual([late]);
  });

  it('keeps the command line of a prompt command with arguments, never its expansion', async () => {
    const command = (name: string, args: string) =>
      `<command-message>${name}</command-message>\n<command-name>/${name}</command-name>\n<command-args>${args}</command-args>`;
    const file = writeJsonl('s.jsonl', [
      userRec('u1', command('triage', 'the flaky upload test')),
      userRec('u2', [{ type: 'text', text: '# Triage\n\nReproduce, then fix: the flaky upload test' }], {
        isMeta: true,
      }),
      assistantRec('a1', 'm1', { type: 'text', text: 'Reproducing.' }),
      // A local command with arguments has no expansion; a bare prompt command typed no words.
      userRec('u3', command('model', 'opus')),
      userRec('u4', '<local-command-stdout>Set model to opus</local-command-stdout>'),
      userRec('u5', command('triage', '')),
      userRec('u6', [{ type: 'text', text: '# Triage\n\nReproduce, then fix: ' }], { isMeta: true }),
      userRec('u7', command('compact', 'keep the test names')),
      assistantRec('a2', 'm2', { type: 'text', text: 'Compacted.' }),
    ]);
    const s = await onlySession(file);
    expect(s.turns.filter((t) => t.role === 'user').map((t) => t.text)).toEqual([
      '/triage the flaky upload test',
    ]);
  });

  it('reads skills only from well-formed Skill calls and attributionSkill', async () => {
    const file = writeJsonl('s.jsonl', [
      userRec('u1', 'go'),
      assistantRec('a1', 'm1', { type: 'tool_use', name: 'skill', input: { skill: 'lower-case' } }),
      assistantRec('a2', 'm2', { type: 'tool_use', name: 'Skill', input: 'not-an-object' }),
      assistantRec('a3', 'm3', { type: 'tool_use', name: 'Skill', input: { skill: '   ' } }),
      assistantRec('a4', 'm4', { type: 'tool_use', name: 'Skill', input: { skill: 42 } }),
      assistantRec('a5', 'm5', { type: 'tool_use', name: 'Skill', input: { skill: '  Example-Skill:v2  ' } }),
      assistantRec('a6', 'm6', { type: 'text', text: 'ok' }, { attributionSkill: 'init' }),
      assistantRec('a7', 'm7', { type: 'tool_use', name: 'Skill', input: { skill: 'Example-Skill:v2' } }),
    ]);
    const s = await onlySession(file);
    expect(s.skillsUsed).toEqual(['Example-Skill:v2', 'init']);
    expect(s.toolsUsed).toEqual(['skill', 'Skill']);
  });

  it('caps filesTouched at 50 distinct paths', async () => {
    const records: unknown[] = [userRec('u0', 'edit many files')];
    for (let i = 0; i < 60; i++) {
      const input = { file_path: `/repo/f${i % 55}.ts` };
      records.push(assistantRec(`a${i}`, `m${i}`, { type: 'tool_use', name: 'Write', input }));
    }
    const s = await onlySession(writeJsonl('s.jsonl', records));
    expect(s.filesTouched).toHaveLength(50);
    expect(s.filesTouched[0]).toBe('/repo/f0.ts');
    expect(s.filesTouched.at(-1)).toBe('/repo/f49.ts');
  });

  it('reads timestamps as UTC and ignores bad ones', async () => {
    const file = writeJsonl('s.jsonl', [
      userRec('u1', 'a', { timestamp: '2026-01-01T10:00:00' }),
      userRec('u2', 'b', { timestamp: '2026-01-01T12:00:00+02:00' }),
      userRec('u3', 'c', { timestamp: 'yesterday' }),
      userRec('u4', 'd', { timestamp: 1767261600000 }),
      userRec('u5', 'e', { timestamp: '2026-13-45T99:00:00Z' }),
    ]);
    const s = await onlySession(file);
    expect(s.startedAt).toBe(Date.UTC(2026, 0, 1, 10));
    expect(s.endedAt).toBe(Date.UTC(2026, 0, 1, 10));
    expect(s.turns.map((t) => t.ts)).toEqual([
      Date.UTC(2026, 0, 1, 10),
      Date.UTC(2026, 0, 1, 10),
      null,
      null,
      null,
    ]);
  });

  it('counts non-object lines as bad and ignores unknown record types', async () => {
    const file = writeJsonl('s.jsonl', [
      'null',
      '[]',
      '"str"',
      '{not json',
      { type: 'queue-operation', operation: 'enqueue', sessionId: 'sess-x' },
      { type: 'brand-new-type', sessionId: 'sess-x' },
      userRec('u1', 'hello'),
    ]);
    const parse = await parseFile(file);
    expect(parse.badLines).toBe(4);
    expect(parse.sessions).toHaveLength(1);
  });

  it('parses incrementally from an offset and never reads a half-written line', async () => {
    const source = readFileSync(path.join(FIXTURE_PROJECT, `${S1}.jsonl`), 'utf8');
    const lines = source.split('\n').filter((l) => l !== '');
    const file = path.join(tmp, `${S1}.jsonl`);
    const head = lines.slice(0, 10).join('\n') + '\n';
    const cut = (lines[10] ?? '').slice(0, 25);
    writeFileSync(file, head + cut);

    const first = await parseFile(file);
    expect(first.endOffset).toBe(Buffer.byteLength(head));
    expect(first.sessions[0]?.turns.map((t) => t.role)).toEqual(['user', 'assistant']);

    appendFileSync(file, (lines[10] ?? '').slice(25) + '\n' + lines.slice(11).join('\n') + '\n');
    const rest = await parseFile(file, first.endOffset);
    expect(rest.endOffset).toBe(statSync(file).size);
    expect(rest.badLines).toBe(0);
    expect(rest.sessions[0]?.turns.map((t) => [t.seq, t.role])).toEqual([
      [0, 'assistant'],
      [1, 'assistant'],
      [2, 'user'],
      [3, 'assistant'],
      [4, 'assistant'],
    ]);

    const again = await parseFile(file, rest.endOffset);
    expect(again).toEqual({ sessions: [], badLines: 0, endOffset: rest.endOffset });
  });

  it('rejects with an error naming the path when the file cannot be read', async () => {
    const missing = path.join(tmp, 'gone.jsonl');
    const file: SourceFile = { source: 'claude', path: missing, size: 0, mtimeMs: 0, inode: 0 };
    await expect(claude.parse(file, 0)).rejects.toThrow(missing);
    const dirAsFile = path.join(tmp, 'a-directory.jsonl');
    mkdirSync(dirAsFile);
    await expect(claude.parse({ ...file, path: dirAsFile }, 0)).rejects.toThrow(dirAsFile);
  });

  it.skipIf(process.getuid?.() === 0)('rejects on EACCES with the path in the message', async () => {
    const file = writeJsonl('locked.jsonl', [userRec('u1', 'hi')]);
    chmodSync(file, 0o000);
    await expect(parseFile(file)).rejects.toThrow(new RegExp(`${file}.*EACCES`));
  });
});
