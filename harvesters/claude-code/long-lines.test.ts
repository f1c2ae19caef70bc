/**
 * Long lines are parsed with their long strings left undecoded until read (`json-skim.ts`): the
 * sessions are what a whole parse gives. The same transcript with every field the harvester drops
 * unread replaced by a short value (so no line is long and each is parsed whole) harvests the same.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readJsonlLines } from '../../src/core/io/jsonl.js';
import { claude, dropUnread } from './claude-code.js';

let tmp: string;
beforeEach(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'claude-long-'));
});
afterEach(() => {
  rmSync(tmp, { recursive: true, force: true });
});

async function harvest(name: string, records: unknown[]) {
  const file = path.join(tmp, name);
  writeFileSync(file, records.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n') + '\n');
  const st = statSync(file);
  const parsed = await claude.parse(
    { source: 'claude', path: file, size: st.size, mtimeMs: st.mtimeMs, inode: st.ino },
    0,
  );
  // Offsets differ with the lengths of the fields left unread.
  const sessions = parsed.sessions.map((s) => ({
    ...s,
    sourcePath: '',
    turns: s.turns.map((t) => ({ ...t, offset: 0 })),
  }));
  return { ...parsed, sessions, file };
}

/** Text with what makes a skim hard: escaped quotes and backslashes, a quote after `\\`, non-ASCII, an emoji. */
const long = (seed: string, n: number): string =>
  Array.from({ length: n }, (_, i) => `${seed} ${i}: "quoted" \\path\\ C:\\\\ é ✓ 😀 \\"x\\\\" \n\t`).join(
    '',
  );

const envelope = (uuid: string, type: string, extra: Record<string, unknown>) => ({
  parentUuid: null,
  cwd: '/work/app',
  sessionId: 'sess-long',
  version: '2.1.0',
  gitBranch: 'main',
  type,
  uuid,
  timestamp: `2026-01-01T00:00:0${uuid.length % 10}.000Z`,
  ...extra,
});

function transcript(output: (tag: string) => unknown, thinking: string) {
  return [
    envelope('u1', 'user', { message: { role: 'user', content: `please fix it ${long('prompt', 40)}` } }),
    envelope('a1', 'assistant', {
      message: {
        id: 'm1',
        role: 'assistant',
        model: 'claude-test',
        content: [
          { type: 'thinking', thinking, signature: 'sig' },
          { type: 'text', text: long('answer', 60) },
          {
            type: 'tool_use',
            id: 't1',
            name: 'Write',
            input: { file_path: '/work/app/a.ts', content: long('file', 200) },
          },
          { type: 'tool_use', id: 't2', name: 'Bash', input: { command: `echo ${long('cmd', 5)}` } },
        ],
      },
    }),
    envelope('u2', 'user', {
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: output('ok') }] },
      toolUseResult: output('tool'),
    }),
    envelope('u3', 'user', {
      message: {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 't2',
            is_error: true,
            content: [
              {
                type: 'text',
                text: `The user doesn't want to proceed with this tool use. ${long('why', 30)}`,
              },
            ],
          },
        ],
      },
      toolUseResult: { stdout: output('stdout'), stderr: '', interrupted: false },
    }),
    envelope('u4', 'user', {
      message: { role: 'user', content: [{ type: 'text', text: long('follow-up', 50) }] },
    }),
  ];
}

describe('long lines', () => {
  it('harvest as a whole parse does, whatever the fields left unread hold', async () => {
    const skimmed = await harvest(
      'long.jsonl',
      transcript((tag) => long(tag, 500), long('thought', 300)),
    );
    const whole = await harvest(
      'short.jsonl',
      transcript(() => 'x', 'y'),
    );
    expect(skimmed.badLines).toBe(0);
    expect(skimmed.sessions).toEqual(whole.sessions);
    // And the records the harvester reads are a whole parse's, less what it drops.
    const lines = readFileSync(skimmed.file, 'utf8').trimEnd().split('\n');
    const read = [];
    for (const line of readJsonlLines(skimmed.file, 0, { unread: dropUnread })) read.push(line.value);
    expect(read).toStrictEqual(
      lines.map((l) => {
        const value: unknown = JSON.parse(l);
        dropUnread(value);
        return value;
      }),
    );
    const [session] = skimmed.sessions;
    // The long strings that are read arrive whole.
    expect(session?.turns[0]?.text).toContain(long('prompt', 40).trim().slice(-200));
    expect(session?.turns.some((t) => t.interrupted)).toBe(true);
    expect(session?.filesTouched).toEqual(['/work/app/a.ts']);
  });

  it('count a long line cut short as bad, as before', async () => {
    const records = transcript((tag) => long(tag, 500), 'y');
    const cut = JSON.stringify(records[2]).slice(0, 5000);
    const parsed = await harvest('cut.jsonl', [records[0], records[1], cut, records[4]]);
    expect(parsed.badLines).toBe(1);
    expect(parsed.sessions[0]?.turns.map((t) => t.role)).toEqual(['user', 'assistant', 'user']);
  });
});
