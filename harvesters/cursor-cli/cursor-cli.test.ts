import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IoError } from '../../src/core/errors.js';
import type { HarvestedSession, SourceFile, ToolAction } from '../../src/core/session.js';
import { cursorCli } from './cursor-cli.js';
import { act } from '../shared/test-helpers.js';

const FIXTURE_HOME = path.resolve(import.meta.dirname, '../../test/fixtures/cursor-cli');
const PROJECTS = path.join(FIXTURE_HOME, '.cursor', 'projects');
const MAIN = '1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b';
const FLAT = '4f3c9d2e-7a1b-4c8d-9e0f-1a2b3c4d5e6f';
const EMPTY = '6e5d4c3b-2a19-4807-b6a5-948372615041';
const REPLAY = '7c6b5a49-3827-4165-9453-021fedcba987';
const PANEL = '2a3b4c5d-6e7f-4809-9a1b-2c3d4e5f6071';
const GONE = '8d7c6b5a-4938-4271-8a6b-5c4d3e2f1a0b';
const nested = (project: string, id: string) =>
  path.join(PROJECTS, project, 'agent-transcripts', id, `${id}.jsonl`);
const MAIN_FILE = nested('work-shop', MAIN);

let tmp: string;
beforeEach(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'cursor-harvest-'));
});
afterEach(() => rmSync(tmp, { recursive: true, force: true }));

function sourceFile(filePath: string): SourceFile {
  const st = statSync(filePath);
  return { source: 'cursor-cli', path: filePath, size: st.size, mtimeMs: st.mtimeMs, inode: st.ino };
}

async function onlySession(filePath: string, fromOffset = 0): Promise<HarvestedSession> {
  const { sessions } = await cursorCli.parse(sourceFile(filePath), fromOffset);
  expect(sessions).toHaveLength(1);
  return sessions[0] as HarvestedSession;
}

/** Byte offset of the line holding `needle`. */
function lineOffsetOf(filePath: string, needle: string): number {
  const bytes = readFileSync(filePath);
  const at = bytes.indexOf(needle);
  if (at < 0) throw new Error(`${needle} not in ${filePath}`);
  return bytes.lastIndexOf(0x0a, at) + 1;
}

/** A turn as the parse gives it; `at` is text of the line that started it. */
function turn(
  file: string,
  seq: number,
  role: 'user' | 'assistant',
  text: string,
  at: string,
  extra: object = {},
) {
  return {
    seq,
    role,
    text,
    ts: null,
    toolNames: [],
    actions: [],
    toolErrors: 0,
    interrupted: false,
    offset: lineOffsetOf(file, at),
    ...extra,
  };
}
const tools = (...actions: ToolAction[]) => ({ actions, toolNames: actions.map((a) => a.tool) });

describe('cursorCli.roots and discover', () => {
  it('reads <home>/.cursor/projects, or $CURSOR_CONFIG_DIR/projects', () => {
    expect(cursorCli.roots({ home: '/home/u', env: {} })).toEqual(['/home/u/.cursor/projects']);
    expect(cursorCli.roots({ home: '/home/u', env: { CURSOR_CONFIG_DIR: '~/cfg/cursor' } })).toEqual([
      '/home/u/cfg/cursor/projects',
    ]);
    expect(cursorCli.id).toBe('cursor-cli');
    expect(cursorCli.incremental).toBe(true);
  });

  it('finds nested and flat transcripts, never sub-agents, .txt or other files', async () => {
    cpSync(FIXTURE_HOME, tmp, { recursive: true });
    const files = await cursorCli.discover({ home: tmp, env: {} });
    const root = path.join(tmp, '.cursor', 'projects');
    expect(files.map((f) => path.relative(root, f.path))).toEqual([
      `work-shop-admin-panel/agent-transcripts/${PANEL}/${PANEL}.jsonl`,
      `work-shop/agent-transcripts/${MAIN}/${MAIN}.jsonl`,
      `work-shop/agent-transcripts/${FLAT}.jsonl`,
      `work-shop/agent-transcripts/${EMPTY}/${EMPTY}.jsonl`,
      `work-shop/agent-transcripts/${REPLAY}/${REPLAY}.jsonl`,
      `zz-gone-project/agent-transcripts/${GONE}/${GONE}.jsonl`,
    ]);
    expect(files.every((f) => f.source === 'cursor-cli' && f.size > 0)).toBe(true);
    expect(await cursorCli.discover({ home: path.join(tmp, 'none'), env: {} })).toEqual([]);
  });
});

describe('cursorCli.parse', () => {
  it('reads a session exactly: prompts and their times, answers, every tool, errors and interrupts', async () => {
    const { sessions, badLines, endOffset } = await cursorCli.parse(sourceFile(MAIN_FILE), 0);
    expect(badLines).toBe(1);
    expect(endOffset).toBe(statSync(MAIN_FILE).size);
    const f = MAIN_FILE;
    expect(sessions).toEqual([
      {
        source: 'cursor-cli',
        sessionId: MAIN,
        cwd: '/work/shop',
        branch: '',
        model: '',
        startedAt: Date.UTC(2026, 2, 2, 8, 20),
        endedAt: Math.trunc(statSync(f).mtimeMs),
        toolsUsed: [
          'Read',
          'Grep',
          'StrReplace',
          'Shell',
          'ApplyPatch',
          'Write',
          'Glob',
          'TodoWrite',
          'Delete',
          'SemanticSearch',
          'WebSearch',
        ],
        skillsUsed: [],
        filesTouched: [
          '/work/shop/scripts/import.py',
          'README.md',
          '/work/shop/CHANGELOG.md',
          '/work/shop/tmp/import.log',
        ],
        sourcePath: f,
        sourceVersion: '',
        turns: [
          turn(f, 0, 'user', 'Add a --dry-run flag to the import script', '9:20 AM', {
            ts: Date.UTC(2026, 2, 2, 8, 20),
          }),
          turn(f, 1, 'assistant', "I'll read the script first.", 'THINKING-NOT-KEPT', {
            ...tools(act('read', 'Read', '/work/shop/scripts/import.py'), act('search', 'Grep', 'argparse')),
          }),
          turn(f, 2, 'assistant', '', '"StrReplace"', {
            ...tools(
              act(
                'edit',
                'StrReplace',
                '/work/shop/scripts/import.py',
                'parser.add_argument("file")\nparser.add_argument("--dry-run", action="store_true")',
                'parser.add_argument("file")',
              ),
            ),
          }),
          turn(f, 3, 'assistant', '', '"Shell"', {
            ...tools(act('run', 'Shell', 'python -m pytest tests/test_import.py -q')),
          }),
          turn(f, 4, 'assistant', 'Added `--dry-run`; the import tests pass.', '[REDACTED]'),
          // The sub-agent's notification (9:31) is no prompt.
          turn(f, 5, 'user', 'Also document it, and write the changelog', '9:32 AM', {
            ts: Date.UTC(2026, 2, 2, 8, 32),
            interrupted: true,
          }),
          turn(f, 6, 'assistant', '', '"ApplyPatch"', {
            ...tools(
              act('edit', 'ApplyPatch', 'README.md', '  --dry-run   show what would be imported'),
              act('write', 'Write', '/work/shop/CHANGELOG.md', '## 0.4.0\n- import: --dry-run\n'),
              act('search', 'Glob', 'docs/**/*.md'),
              act('other', 'TodoWrite'),
            ),
          }),
          turn(f, 7, 'user', 'no, keep the README as it was and delete the stray tmp file', '9:40 AM', {
            ts: Date.UTC(2026, 2, 2, 8, 40),
            toolErrors: 1,
          }),
          turn(f, 8, 'assistant', '', '"Delete"', {
            ...tools(
              act('delete', 'Delete', '/work/shop/tmp/import.log'),
              act('search', 'SemanticSearch', 'where is the README usage section built?'),
              act('search', 'WebSearch', 'argparse dry run convention'),
            ),
          }),
          turn(f, 9, 'assistant', 'Reverted the README and removed tmp/import.log.', 'Reverted the README'),
        ],
      },
    ]);
  });

  it('keeps no thinking, injected context, notifications or hidden-thinking markers', async () => {
    const s = await onlySession(MAIN_FILE);
    const texts = s.turns.map((t) => t.text).join('\n');
    for (const leaked of [
      'THINKING-NOT-KEPT',
      'ATTACHED-NOT-KEPT',
      '<timestamp>',
      'system_notification',
      '[REDACTED]',
    ])
      expect(texts).not.toContain(leaked);
  });

  it('reads an older flat transcript: string content, prompts with and without <user_query>', async () => {
    const file = path.join(PROJECTS, 'work-shop', 'agent-transcripts', `${FLAT}.jsonl`);
    const s = await onlySession(file);
    expect(s).toMatchObject({ sessionId: FLAT, cwd: '/work/shop', startedAt: null });
    expect(s.turns.map((t) => [t.role, t.text, t.ts])).toEqual([
      ['user', 'What does the import script do?', null],
      ['assistant', 'It reads a CSV and upserts the products.', null],
      ['user', 'And the export script?', null],
      ['assistant', 'It writes them back out as CSV.', null],
    ]);
  });

  it('finds the workspace from tool paths, else gives none', async () => {
    const panel = await onlySession(nested('work-shop-admin-panel', PANEL));
    expect(panel).toMatchObject({ cwd: '/work/shop-admin/panel', startedAt: Date.UTC(2026, 2, 4, 10) });
    expect(panel.turns[1]?.actions).toEqual([
      act('read', 'read_file', '/work/shop-admin/panel/src/login.ts'),
      act('edit', 'edit_file', '/work/shop-admin/panel/src/login.ts', "redirect('/home')"),
      act('run', 'run_terminal_cmd', 'npm test'),
    ]);
    const gone = await onlySession(nested('zz-gone-project', GONE));
    expect(gone.cwd).toBe('');
    expect(gone.turns.map((t) => [t.role, t.text])).toEqual([
      ['user', 'list the todo items'],
      ['assistant', 'There are three.'],
    ]);
  });

  it('has no session without a prompt or an answer; keeps our replays for the core to drop', async () => {
    expect((await cursorCli.parse(sourceFile(nested('work-shop', EMPTY)), 0)).sessions).toEqual([]);
    const replay = await onlySession(nested('work-shop', REPLAY));
    expect(replay.turns[0]?.text).toBe('<!-- skillopt-sleep:replay -->\n# Task\nWrite the commit message');
  });

  it('resumes at a turn offset, crediting what precedes the first prompt to it', async () => {
    const from = lineOffsetOf(MAIN_FILE, '"ApplyPatch"');
    const s = await onlySession(MAIN_FILE, from);
    expect(s.cwd).toBe('/work/shop');
    expect(s.turns.map((t) => [t.seq, t.role, t.toolErrors, t.interrupted])).toEqual([
      [0, 'assistant', 0, false],
      [1, 'user', 1, true], // the abort before it (held for it), the failure after it
      [2, 'assistant', 0, false],
      [3, 'assistant', 0, false],
    ]);
    expect(s.turns[0]?.offset).toBe(from);
  });

  it('reads only what was appended after the last turn, and not a half-written line', async () => {
    const file = path.join(tmp, 'projects', 'p', 'agent-transcripts', 'x', 'x.jsonl');
    cpSync(path.join(PROJECTS, 'work-shop', 'agent-transcripts', `${FLAT}.jsonl`), file);
    const first = await cursorCli.parse(sourceFile(file), 0);
    const lastTurn = first.sessions[0]?.turns.at(-1);
    const line = '{"role":"user","message":{"content":"<user_query>one more</user_query>"}}\n';
    appendFileSync(file, `${line}{"role":"assistant","message":{"content":"hal`);
    const next = await cursorCli.parse(sourceFile(file), lastTurn?.offset ?? 0);
    expect(next.sessions[0]?.turns.map((t) => t.text)).toEqual([
      'It writes them back out as CSV.',
      'one more',
    ]);
    expect(next.endOffset).toBe(statSync(file).size - '{"role":"assistant","message":{"content":"hal'.length);
  });

  it('rejects with an IoError naming an unreadable file', async () => {
    const missing: SourceFile = { ...sourceFile(MAIN_FILE), path: path.join(tmp, 'gone.jsonl') };
    await expect(cursorCli.parse(missing, 0)).rejects.toThrow(IoError);
    await expect(cursorCli.parse(missing, 0)).rejects.toThrow(missing.path);
  });

  it('does not read a file that is not a transcript as one', async () => {
    const file = path.join(tmp, 'p', 'agent-transcripts', 'y.jsonl');
    cpSync(MAIN_FILE, file);
    writeFileSync(file, '[1,2]\n"text"\nnull\n{"role":"system","message":{"content":"sys"}}\n');
    const { sessions, badLines } = await cursorCli.parse(sourceFile(file), 0);
    expect(sessions).toEqual([]);
    expect(badLines).toBe(3);
  });
});
