import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyOp, replayOpLogFile } from './copilot-vscode-oplog.js';

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

  it('counts lines that are not JSON objects and skips a truncated last line', async () => {
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
    const result = await replayOpLogFile(file);
    expect(result.badLines).toBe(2);
    expect(result.state).toEqual({ requests: [{ requestId: 'r1' }] });
    expect(result.endOffset).toBe(Buffer.byteLength(lines.slice(0, 5).join('\n') + '\n'));
  });
});
