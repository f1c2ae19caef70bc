import {
  appendFileSync,
  copyFileSync,
  cpSync,
  mkdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { codex } from './codex.js';
import type { HarvestContext } from '../types.js';

import {
  FIXTURE_HOME,
  G2,
  EVENTS_ONLY,
  G2_FILE,
  EVENTS_FILE,
  G1_FILE,
  G0_FILE,
  SUBAGENT_FILE,
  META_ONLY_FILE,
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

describe('codex.roots', () => {
  const ctx = (env: Record<string, string | undefined>): HarvestContext => ({ home: '/home/u', env });

  it('defaults to sessions/ and archived_sessions/ of <home>/.codex', () => {
    const expected = [
      path.resolve('/home/u/.codex/sessions'),
      path.resolve('/home/u/.codex/archived_sessions'),
    ];
    expect(codex.roots(ctx({}))).toEqual(expected);
    expect(codex.roots(ctx({ CODEX_HOME: ' , ' }))).toEqual(expected);
  });

  it('uses every entry of a comma-separated CODEX_HOME, with ~ expanded and duplicates dropped', () => {
    expect(codex.roots(ctx({ CODEX_HOME: '/a/codex, ~/work-codex ,/a/codex' }))).toEqual([
      path.resolve('/a/codex/sessions'),
      path.resolve('/a/codex/archived_sessions'),
      path.resolve('/home/u/work-codex/sessions'),
      path.resolve('/home/u/work-codex/archived_sessions'),
    ]);
  });
});

describe('codex.discover', () => {
  it('finds live and archived rollouts of every generation, never sub-agent or other files', async () => {
    const files = await codex.discover({ home: tmp, env: { CODEX_HOME: FIXTURE_HOME } });
    expect(files.map((f) => path.relative(FIXTURE_HOME, f.path)).sort()).toEqual(
      [G2_FILE, EVENTS_FILE, G1_FILE, G0_FILE, SUBAGENT_FILE, META_ONLY_FILE]
        .map((f) => path.relative(FIXTURE_HOME, f))
        .sort(),
    );
    for (const f of files) {
      expect(f.source).toBe('codex');
      expect(f.size).toBe(statSync(f.path).size);
      expect(f.inode).toBe(statSync(f.path).ino);
    }
  });

  it('reads <home>/.codex by default and tolerates missing roots', async () => {
    expect(await codex.discover({ home: tmp, env: {} })).toEqual([]);
    cpSync(FIXTURE_HOME, path.join(tmp, '.codex'), { recursive: true });
    const files = await codex.discover({ home: tmp, env: {} });
    expect(files).toHaveLength(6);
    expect(files.every((f) => f.path.startsWith(path.join(tmp, '.codex')))).toBe(true);
  });

  it('keeps one file per session uuid across sessions/, archived_sessions/ and homes (the largest)', async () => {
    const name = `rollout-2025-11-22T20-45-35-${G2}.jsonl`;
    const live = path.join(tmp, 'a', 'sessions', '2025', '11', '22');
    const archived = path.join(tmp, 'a', 'archived_sessions');
    const otherHome = path.join(tmp, 'b', 'sessions');
    for (const dir of [live, archived, otherHome]) mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(live, name), '{"a":1}\n');
    writeFileSync(path.join(archived, name), '{"a":1}\n{"b":2}\n');
    writeFileSync(path.join(otherHome, name), '{"c":3}\n');
    const files = await codex.discover({ home: tmp, env: { CODEX_HOME: `${tmp}/a,${tmp}/b` } });
    expect(files.map((f) => f.path)).toEqual([path.join(archived, name)]);
  });
});

describe('codex.parse: current rollouts (session_meta / response_item / event_msg)', () => {
  it('counts each message once, drops injected context, and credits errors and interrupts', async () => {
    const parsed = await parseFile(G2_FILE);
    expect(parsed.badLines).toBe(1);
    expect(parsed.endOffset).toBe(statSync(G2_FILE).size);
    const [session] = parsed.sessions;
    expect(session).toMatchObject({
      source: 'codex',
      sessionId: G2,
      cwd: '/work/demo',
      branch: 'feature/verbose',
      model: 'gpt-5.1-codex',
      sourceVersion: '0.60.1',
      startedAt: Date.parse('2025-11-22T20:45:35.590Z'),
      endedAt: Date.parse('2025-11-22T20:48:05.000Z'),
      toolsUsed: ['shell_command', 'apply_patch'],
      skillsUsed: [],
      filesTouched: ['src/main.ts', 'src/flags.ts'],
      sourcePath: G2_FILE,
    });
    expect(session?.turns.map(shape)).toEqual([
      {
        role: 'user',
        text: 'Add a --verbose flag to the CLI',
        toolNames: [],
        toolErrors: 2,
        interrupted: false,
      },
      {
        role: 'assistant',
        text: "I'll look at the CLI entry point first.",
        toolNames: ['shell_command', 'apply_patch', 'apply_patch'],
        toolErrors: 0,
        interrupted: false,
      },
      {
        role: 'assistant',
        text: 'Added --verbose in src/flags.ts.',
        toolNames: [],
        toolErrors: 0,
        interrupted: false,
      },
      // Interrupted (turn_aborted), then sent again: two real prompts with the same text.
      { role: 'user', text: 'Now make it print timings', toolNames: [], toolErrors: 0, interrupted: true },
      { role: 'assistant', text: '', toolNames: ['shell_command'], toolErrors: 0, interrupted: false },
      // The user rejected the command: an interrupt, not a tool error.
      { role: 'user', text: 'Now make it print timings', toolNames: [], toolErrors: 0, interrupted: true },
      { role: 'assistant', text: '', toolNames: ['shell_command'], toolErrors: 0, interrupted: false },
      { role: 'user', text: 'skip timings, just commit', toolNames: [], toolErrors: 0, interrupted: false },
      { role: 'assistant', text: '', toolNames: ['shell_command'], toolErrors: 0, interrupted: false },
      { role: 'assistant', text: 'Committed.', toolNames: [], toolErrors: 0, interrupted: false },
    ]);
    expect(session?.turns.map((t) => t.seq)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(session?.turns[0]?.ts).toBe(Date.parse('2025-11-22T20:46:00.100Z'));
  });

  it('records the byte offset of the response_item line that started each turn', async () => {
    const session = await onlySession(G2_FILE);
    const bytes = readFileSync(G2_FILE);
    for (const turn of session.turns) {
      expect(turn.offset === 0 || bytes[turn.offset - 1] === 0x0a).toBe(true);
      const line = bytes.subarray(turn.offset, bytes.indexOf(0x0a, turn.offset)).toString('utf8');
      expect(JSON.parse(line)).toMatchObject({ type: 'response_item' });
    }
    const offsets = session.turns.map((t) => t.offset);
    expect([...offsets].sort((a, b) => a - b)).toEqual(offsets);
  });

  it('never keeps reasoning, tool arguments or outputs, or instructions', async () => {
    const text = (await onlySession(G2_FILE)).turns.map((t) => t.text).join('\n');
    for (const leaked of [
      'Thinking about flags',
      'gAAAA',
      'cat src/cli.ts',
      'No such file',
      'npm test',
      'AGENTS',
      'Run npm test',
      'sandboxing',
      '<cwd>',
      'Active file',
    ]) {
      expect(text).not.toContain(leaked);
    }
  });

  it('falls back to event_msg messages and tool events when a file has no response_items', async () => {
    const session = await onlySession(EVENTS_FILE);
    expect(session).toMatchObject({
      sessionId: EVENTS_ONLY,
      cwd: '/work/events-only',
      model: 'gpt-5-codex',
      sourceVersion: '0.41.0',
      toolsUsed: ['exec_command', 'apply_patch'],
      filesTouched: ['/work/events-only/src/index.ts'],
    });
    expect(session.turns.map(shape)).toEqual([
      { role: 'user', text: 'Why does the build fail?', toolNames: [], toolErrors: 1, interrupted: false },
      {
        role: 'assistant',
        text: '',
        toolNames: ['exec_command', 'apply_patch'],
        toolErrors: 0,
        interrupted: false,
      },
      {
        role: 'assistant',
        text: 'A missing import; fixed it in src/index.ts.',
        toolNames: [],
        toolErrors: 0,
        interrupted: false,
      },
    ]);
  });

  it('takes messages from response_item even when events come first, and tools from items over events', async () => {
    const file = writeLines('rollout-x.jsonl', [
      envelope('session_meta', { id: 'sess-1', cwd: '/p' }),
      envelope('event_msg', { type: 'user_message', message: 'hello there' }),
      envelope('response_item', message('user', 'hello there')),
      envelope('event_msg', { type: 'agent_message', message: 'Hi.' }),
      envelope('response_item', {
        type: 'function_call',
        name: 'exec_command',
        arguments: '{}',
        call_id: 'c',
      }),
      envelope('event_msg', { type: 'exec_command_end', call_id: 'c', exit_code: 1 }),
      envelope('response_item', {
        type: 'function_call_output',
        call_id: 'c',
        output: 'Exit code: 0\nOutput:',
      }),
      envelope('response_item', {
        type: 'custom_tool_call',
        name: 'apply_patch',
        input: '*** Update File: a.ts\n',
      }),
      envelope('event_msg', { type: 'patch_apply_end', success: true, changes: { '/p/a.ts': {} } }),
      envelope('response_item', message('assistant', 'Hi.')),
    ]);
    const session = await onlySession(file);
    expect(session.turns.map(shape)).toEqual([
      { role: 'user', text: 'hello there', toolNames: [], toolErrors: 0, interrupted: false },
      {
        role: 'assistant',
        text: '',
        toolNames: ['exec_command', 'apply_patch'],
        toolErrors: 0,
        interrupted: false,
      },
      { role: 'assistant', text: 'Hi.', toolNames: [], toolErrors: 0, interrupted: false },
    ]);
    expect(session.toolsUsed).toEqual(['exec_command', 'apply_patch']);
    expect(session.filesTouched).toEqual(['a.ts']);
  });

  it('names other tool items, and reads skills from SKILL.md reads and injected skill blocks', async () => {
    const file = writeLines('rollout-tools.jsonl', [
      envelope('session_meta', { id: 'sess-2' }),
      envelope(
        'response_item',
        message('user', '<skill>\n<name>pdf</name>\n<path>/s/pdf/SKILL.md</path>\n</skill>'),
      ),
      envelope('response_item', message('user', 'make a pdf of the report')),
      envelope('response_item', message('assistant', 'Reading the skill first.')),
      envelope('response_item', {
        type: 'function_call',
        name: 'exec_command',
        arguments: JSON.stringify({ cmd: 'cat /home/u/.codex/skills/report-style/SKILL.md' }),
      }),
      envelope('response_item', { type: 'local_shell_call', action: { type: 'exec', command: ['ls'] } }),
      envelope('response_item', { type: 'web_search_call', action: { query: 'x' } }),
      envelope('response_item', { type: 'tool_search_call' }),
      envelope('response_item', { type: 'function_call', name: 'mcp server/tool name' }),
      envelope('response_item', { type: 'function_call' }),
    ]);
    const session = await onlySession(file);
    expect(session.turns.map(shape)).toEqual([
      { role: 'user', text: 'make a pdf of the report', toolNames: [], toolErrors: 0, interrupted: false },
      {
        role: 'assistant',
        text: 'Reading the skill first.',
        toolNames: ['exec_command', 'local_shell', 'web_search', 'tool_search', 'mcp_server_tool_name'],
        toolErrors: 0,
        interrupted: false,
      },
    ]);
    expect(session.skillsUsed).toEqual(['pdf', 'report-style']);
  });

  it('drops sub-agent threads (session_meta source.subagent) and files with no turns', async () => {
    expect((await parseFile(SUBAGENT_FILE)).sessions).toEqual([]);
    expect((await parseFile(META_ONLY_FILE)).sessions).toEqual([]);
    const onlyInjected = writeLines('rollout-injected.jsonl', [
      envelope('session_meta', { id: 'sess-3', cwd: '/p' }),
      envelope('response_item', message('developer', 'You are Codex.')),
      envelope('response_item', message('user', '<environment_context><cwd>/p</cwd></environment_context>')),
      envelope('event_msg', { type: 'turn_aborted', reason: 'interrupted' }),
    ]);
    expect((await parseFile(onlyInjected)).sessions).toEqual([]);
  });

  it('uses the first session_meta id, else the uuid in the file name', async () => {
    const twoMetas = writeLines('rollout-two.jsonl', [
      envelope('session_meta', { id: 'first-id', cwd: '/first' }),
      envelope('session_meta', { id: 'second-id', cwd: '/second' }),
      envelope('response_item', message('user', 'a real prompt')),
    ]);
    expect(await onlySession(twoMetas)).toMatchObject({ sessionId: 'first-id', cwd: '/first' });
    const uuid = '0199aaaa-bbbb-7ccc-8ddd-eeeeffff0000';
    const noMeta = writeLines(`rollout-2025-12-01T10-00-00-${uuid}.jsonl`, [
      envelope('response_item', message('user', 'a real prompt')),
    ]);
    expect((await onlySession(noMeta)).sessionId).toBe(uuid);
    const oddName = writeLines('exported.jsonl', [
      envelope('response_item', message('user', 'a real prompt')),
    ]);
    expect((await onlySession(oddName)).sessionId).toBe('exported');
  });

  it('counts non-object lines as bad and ignores a truncated last line', async () => {
    const file = writeLines('rollout-bad.jsonl', [
      envelope('session_meta', { id: 'sess-4' }),
      'null',
      '[1,2]',
      '"text"',
      '{oops',
      envelope('response_item', message('user', 'still parsed')),
    ]);
    const complete = statSync(file).size;
    appendFileSync(
      file,
      '{"timestamp":"2026-01-01T00:00:09Z","type":"response_item","payload":{"type":"mess',
    );
    const parsed = await parseFile(file);
    expect(parsed.badLines).toBe(4);
    expect(parsed.endOffset).toBe(complete);
    expect(parsed.sessions[0]?.turns.map((t) => t.text)).toEqual(['still parsed']);
  });
});

describe('codex.parse: incremental', () => {
  it('from a turn offset returns that turn and the rest, with metadata from the head of the file', async () => {
    const full = await onlySession(G2_FILE);
    const from = full.turns[3];
    if (from === undefined) throw new Error('fixture changed');
    const tail = await onlySession(G2_FILE, from.offset);
    expect(tail).toMatchObject({
      sessionId: G2,
      cwd: '/work/demo',
      branch: 'feature/verbose',
      model: 'gpt-5.1-codex',
      sourceVersion: '0.60.1',
    });
    expect(tail.turns.map((t) => t.seq)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(tail.turns.map(shape)).toEqual(full.turns.slice(3).map(shape));
    expect(tail.turns.map((t) => t.offset)).toEqual(full.turns.slice(3).map((t) => t.offset));
  });

  it('credits errors seen before the first prompt of the range to that prompt', async () => {
    const full = await onlySession(G2_FILE);
    const tail = await onlySession(G2_FILE, full.turns[1]?.offset ?? 0);
    expect(tail.turns[0]).toMatchObject({
      role: 'assistant',
      toolNames: ['shell_command', 'apply_patch', 'apply_patch'],
    });
    expect(tail.turns[2]).toMatchObject({ role: 'user', toolErrors: 2, interrupted: true });
  });

  it('resumes an appended rollout from its last turn', async () => {
    const file = path.join(tmp, `rollout-2025-11-22T20-45-35-${G2}.jsonl`);
    copyFileSync(G2_FILE, file);
    const first = await onlySession(file);
    const last = first.turns[first.turns.length - 1];
    appendFileSync(
      file,
      [
        envelope('response_item', message('user', 'and push it')),
        envelope('event_msg', { type: 'user_message', message: 'and push it' }),
        envelope('response_item', message('assistant', 'Pushed.')),
      ]
        .map((r) => JSON.stringify(r))
        .join('\n') + '\n',
    );
    const resumed = await onlySession(file, last?.offset ?? 0);
    expect(resumed.sessionId).toBe(G2);
    expect(resumed.turns.map((t) => [t.role, t.text])).toEqual([
      ['assistant', 'Committed.'],
      ['user', 'and push it'],
      ['assistant', 'Pushed.'],
    ]);
    expect((await parseFile(file, last?.offset ?? 0)).endOffset).toBe(statSync(file).size);
  });

  it('keeps a sub-agent thread dropped when resuming past its session_meta', async () => {
    const size = statSync(SUBAGENT_FILE).size;
    const secondLine = readFileSync(SUBAGENT_FILE).indexOf(0x0a) + 1;
    expect((await parseFile(SUBAGENT_FILE, secondLine)).sessions).toEqual([]);
    expect((await parseFile(SUBAGENT_FILE, size)).endOffset).toBe(size);
  });
});
