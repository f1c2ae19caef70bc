import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { copilot } from './copilot-vscode.js';
import { applyOp, replayOpLogFile } from './oplog.js';

type State = Record<string, unknown> | undefined;

function replay(ops: Record<string, unknown>[], start?: State): State {
  let state = start;
  for (const op of ops) state = applyOp(state, op);
  return state;
}

const base = () => ({ requests: [{ response: [{ value: 'a' }] }], inputState: { inputText: '' } });

describe('applyOp', () => {
  it('ignores every op before the first full state', () => {
    expect(replay([{ kind: 1, k: ['x'], v: 1 }])).toBeUndefined();
    expect(
      replay([
        { kind: 1, k: ['x'], v: 1 },
        { kind: 0, v: { y: 2 } },
      ]),
    ).toEqual({ y: 2 });
  });

  it('replaces the state with kind 0 and ignores a non-object one', () => {
    expect(
      replay([
        { kind: 0, v: { a: 1 } },
        { kind: 0, v: { b: 2 } },
      ]),
    ).toEqual({ b: 2 });
    expect(
      replay([
        { kind: 0, v: { a: 1 } },
        { kind: 0, v: [1] },
      ]),
    ).toEqual({ a: 1 });
  });

  it('sets keys and array items with kind 1', () => {
    const state = replay(
      [
        { kind: 1, k: ['inputState', 'inputText'], v: 'draft' },
        { kind: 1, k: ['requests', 0, 'modelState'], v: { value: 1 } },
        { kind: 1, k: ['requests', 1], v: { response: [] } },
        { kind: 1, k: [], v: 'not an object' },
      ],
      base(),
    );
    expect(state).toEqual({
      requests: [{ response: [{ value: 'a' }], modelState: { value: 1 } }, { response: [] }],
      inputState: { inputText: 'draft' },
    });
  });

  it('appends with kind 2, and truncates to `i` first when given', () => {
    const appended = replay([{ kind: 2, k: ['requests', 0, 'response'], v: [{ value: 'b' }] }], base());
    expect(appended?.['requests']).toEqual([{ response: [{ value: 'a' }, { value: 'b' }] }]);
    const replaced = replay(
      [{ kind: 2, k: ['requests', 0, 'response'], i: 0, v: [{ value: 'final' }] }],
      base(),
    );
    expect(replaced?.['requests']).toEqual([{ response: [{ value: 'final' }] }]);
    const truncated = replay([{ kind: 2, k: ['requests', 0, 'response'], i: 0 }], base());
    expect(truncated?.['requests']).toEqual([{ response: [] }]);
  });

  it('deletes keys and array items with kind 3', () => {
    const state = replay(
      [
        { kind: 3, k: ['inputState'] },
        { kind: 3, k: ['requests', 0] },
      ],
      base(),
    );
    expect(state).toEqual({ requests: [] });
  });

  it('ignores paths that do not exist, bad path parts and unknown kinds', () => {
    const ops = [
      { kind: 1, k: ['requests', 7, 'x'], v: 1 },
      { kind: 1, k: ['requests', 3], v: 'leaves a hole' },
      { kind: 1, k: ['missing', 'x'], v: 1 },
      { kind: 1, k: ['requests', '0', 'x'], v: 1 },
      { kind: 1, k: ['requests', -1], v: 1 },
      { kind: 1, k: 'requests', v: 1 },
      { kind: 2, k: ['inputState'], v: [1] },
      { kind: 3, k: ['requests', 9] },
      { kind: 9, k: ['requests'], v: [] },
    ];
    expect(replay(ops, base())).toEqual(base());
  });

  it('never writes through to a prototype', () => {
    const state = replay(
      [
        { kind: 1, k: ['__proto__', 'polluted'], v: true },
        { kind: 1, k: ['constructor', 'prototype', 'polluted'], v: true },
        { kind: 1, k: ['__proto__'], v: { polluted: true } },
      ],
      base(),
    );
    expect(state).toEqual(base());
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});

describe('replayOpLogFile', () => {
  let tmp: string;
  beforeEach(() => {
    tmp = mkdtempSync(path.join(os.tmpdir(), 'copilot-oplog-'));
  });
  afterEach(() => {
    rmSync(tmp, { recursive: true, force: true });
  });

  it('counts lines that are not JSON objects and skips a truncated last line', () => {
    const file = path.join(tmp, 's.jsonl');
    const lines = [
      '{"kind":0,"v":{"requests":[]}}',
      'not json',
      '[1,2]',
      '',
      '{"kind":2,"k":["requests"],"v":[{"requestId":"r1"}]}',
      '{"kind":2,"k":["requests"],"v":[{"requestId":"r2"',
    ];
    writeFileSync(file, lines.join('\n'));
    const result = replayOpLogFile(file);
    expect(result.badLines).toBe(2);
    expect(result.state).toEqual({ requests: [{ requestId: 'r1' }] });
    expect(result.endOffset).toBe(Buffer.byteLength(lines.slice(0, 5).join('\n') + '\n'));
  });

  it('gives the same session as the document written whole', async () => {
    const agent = { extensionId: { value: 'GitHub.copilot-chat' }, extensionVersion: '0.37.1', id: 'agent' };
    const request = (id: string, at: number, text: string, response: unknown[]) => ({
      requestId: id,
      timestamp: at,
      agent,
      modelId: 'copilot/gpt-5',
      message: { text, parts: [] },
      response,
      modelState: { value: 1, completedAt: at + 5000 },
    });
    const tool = { kind: 'toolInvocationSerialized', toolId: 'copilot_readFile', isComplete: true };
    const first = request('r1', 1767398000000, 'Why does the build fail?', [
      tool,
      { kind: 'markdownContent', content: { value: 'A missing import in ' } },
      { kind: 'markdownContent', content: { value: 'main.ts.' } },
    ]);
    const second = request('r2', 1767398060000, 'Fix it', [{ value: 'Added the import.' }]);
    const doc = {
      version: 3,
      sessionId: 'twin-0001',
      creationDate: 1767398000000,
      requests: [first, second],
    };
    const whole = path.join(tmp, 'twin-0001.json');
    writeFileSync(whole, JSON.stringify(doc));
    const log = path.join(tmp, 'twin-0001.jsonl');
    const ops = [
      { kind: 0, v: { ...doc, requests: [{ ...first, response: [], modelState: { value: 0 } }] } },
      { kind: 2, k: ['requests', 0, 'response'], v: first.response.slice(0, 2) },
      { kind: 2, k: ['requests', 0, 'response'], v: first.response.slice(2) },
      { kind: 1, k: ['requests', 0, 'modelState'], v: first.modelState },
      { kind: 2, k: ['requests'], v: [second] },
    ];
    writeFileSync(log, ops.map((op) => JSON.stringify(op)).join('\n') + '\n');
    const parse = async (file: string) => {
      const st = statSync(file);
      const source = {
        source: 'copilot' as const,
        path: file,
        size: st.size,
        mtimeMs: st.mtimeMs,
        inode: st.ino,
      };
      const { sessions } = await copilot.parse(source, 0);
      expect(sessions).toHaveLength(1);
      return sessions[0];
    };
    const fromDoc = await parse(whole);
    const fromLog = await parse(log);
    expect(fromDoc?.turns.map((t) => [t.role, t.text])).toEqual([
      ['user', 'Why does the build fail?'],
      ['assistant', 'A missing import in main.ts.'],
      ['user', 'Fix it'],
      ['assistant', 'Added the import.'],
    ]);
    expect(fromDoc?.toolsUsed).toEqual(['copilot_readFile']);
    expect(fromLog?.turns).toEqual(fromDoc?.turns);
    expect(fromLog?.toolsUsed).toEqual(fromDoc?.toolsUsed);
  });
});
