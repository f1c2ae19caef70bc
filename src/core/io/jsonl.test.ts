import { execFileSync } from 'node:child_process';
import { appendFileSync, chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { JsonlLine, JsonlReadOptions } from './jsonl.js';
import { readJsonlLines } from './jsonl.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'jsonl-test-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function writeTemp(name: string, content: string | Buffer): string {
  const file = path.join(dir, name);
  writeFileSync(file, content);
  return file;
}

/** As a promise, so an unreadable file is a rejection, as callers of a harvester's parse see it. */
function readAll(file: string, from = 0, options?: JsonlReadOptions): Promise<JsonlLine[]> {
  return new Promise((resolve) => resolve([...readJsonlLines(file, from, options)]));
}

describe('readJsonlLines', () => {
  it('yields each complete line with its byte offsets', async () => {
    const file = writeTemp('a.jsonl', '{"a":1}\n{"b":2}\n');
    expect(await readAll(file)).toEqual([
      { value: { a: 1 }, offset: 0, endOffset: 8, bad: false },
      { value: { b: 2 }, offset: 8, endOffset: 16, bad: false },
    ]);
  });

  it('stops before a trailing line that has no newline yet', async () => {
    const file = writeTemp('a.jsonl', '{"a":1}\n{"b":2}\n{"c":');
    const lines = await readAll(file);
    expect(lines.map((l) => l.value)).toEqual([{ a: 1 }, { b: 2 }]);
    expect(lines.at(-1)?.endOffset).toBe(16);
  });

  it('treats a complete trailing line without a newline as incomplete too', async () => {
    const file = writeTemp('a.jsonl', '{"a":1}\n{"b":2}');
    expect((await readAll(file)).map((l) => l.value)).toEqual([{ a: 1 }]);
  });

  it('resumes from a previous endOffset', async () => {
    const file = writeTemp('a.jsonl', '{"a":1}\n{"b":2}\n{"c":3}\n');
    const first = await readAll(file);
    const resumed = await readAll(file, first[0]?.endOffset ?? -1);
    expect(resumed.map((l) => l.value)).toEqual([{ b: 2 }, { c: 3 }]);
    expect(resumed[0]?.offset).toBe(8);
    expect(await readAll(file, 24)).toEqual([]);
    expect(await readAll(file, 1000)).toEqual([]);
  });

  it('skips blank lines, strips CR and a leading BOM', async () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    const file = writeTemp('a.jsonl', Buffer.concat([bom, Buffer.from('{"a":1}\r\n\n   \r\n{"b":2}\r\n')]));
    const lines = await readAll(file);
    expect(lines.map((l) => l.value)).toEqual([{ a: 1 }, { b: 2 }]);
    expect(lines.every((l) => !l.bad)).toBe(true);
    expect(lines[1]?.offset).toBe(3 + 9 + 1 + 5);
  });

  it('marks invalid JSON as bad and keeps going; non-object JSON is not bad here', async () => {
    const file = writeTemp('a.jsonl', '{"a":1}\n{"broken":\nnot json\n[1,2]\nnull\n"str"\n{"b":2}\n');
    const lines = await readAll(file);
    expect(lines.map((l) => l.bad)).toEqual([false, true, true, false, false, false, false]);
    expect(lines[1]?.value).toBeUndefined();
    expect(lines.map((l) => l.value)).toEqual([
      { a: 1 },
      undefined,
      undefined,
      [1, 2],
      null,
      'str',
      { b: 2 },
    ]);
  });

  it('decodes multi-byte UTF-8 split across every possible chunk boundary', async () => {
    const values = [{ t: 'héllo — wörld ✓' }, { t: '日本語のテキスト' }, { t: 'emoji 🎉🚀 done' }];
    const file = writeTemp('u.jsonl', values.map((v) => JSON.stringify(v)).join('\n') + '\n');
    for (let chunkSize = 1; chunkSize <= 13; chunkSize++) {
      const lines = await readAll(file, 0, { chunkSize });
      expect(lines.map((l) => l.value)).toEqual(values);
      expect(lines.every((l) => !l.bad)).toBe(true);
    }
  });

  it('reports offsets in bytes, not characters', async () => {
    const first = JSON.stringify({ t: '✓✓' }) + '\n';
    const file = writeTemp('u.jsonl', first + '{"b":2}\n');
    const lines = await readAll(file, 0, { chunkSize: 3 });
    expect(lines[1]?.offset).toBe(Buffer.byteLength(first));
  });

  it('reads lines longer than the chunk size and files larger than one chunk', async () => {
    const long = { text: 'x'.repeat(3 * 1024 * 1024) };
    const file = writeTemp('big.jsonl', `${JSON.stringify(long)}\n{"after":true}\n`);
    const lines = await readAll(file);
    expect(lines).toHaveLength(2);
    expect((lines[0]?.value as { text: string }).text.length).toBe(long.text.length);
    expect(lines[1]?.value).toEqual({ after: true });
  });

  it('reports lines over maxLineBytes as bad without failing the rest', async () => {
    const file = writeTemp('a.jsonl', `{"a":1}\n{"big":"${'y'.repeat(100)}"}\n{"b":2}\n`);
    const lines = await readAll(file, 0, { chunkSize: 16, maxLineBytes: 50 });
    expect(lines.map((l) => [l.bad, l.value])).toEqual([
      [false, { a: 1 }],
      [true, undefined],
      [false, { b: 2 }],
    ]);
    expect(lines[2]?.offset).toBe(8 + 111);
  });

  it('stops at the size seen at open while a writer appends', () => {
    const file = writeTemp('live.jsonl', '{"a":1}\n{"b":2}\n');
    const seen: unknown[] = [];
    for (const line of readJsonlLines(file, 0, { chunkSize: 4 })) {
      if (seen.length === 0) appendFileSync(file, '{"c":3}\n');
      seen.push(line.value);
    }
    expect(seen).toEqual([{ a: 1 }, { b: 2 }]);
  });

  it('handles an empty file', async () => {
    expect(await readAll(writeTemp('empty.jsonl', ''))).toEqual([]);
  });

  it('rejects when the file is missing', async () => {
    await expect(readAll(path.join(dir, 'nope.jsonl'))).rejects.toThrow(/ENOENT/);
  });

  it.skipIf(process.getuid?.() === 0)('rejects when the file is unreadable', async () => {
    const file = writeTemp('locked.jsonl', '{"a":1}\n');
    chmodSync(file, 0o000);
    await expect(readAll(file)).rejects.toThrow(/EACCES/);
  });
  it('with includeOpenLastLine, yields the last line without a newline, its end at its own start', async () => {
    const file = writeTemp('open.jsonl', '{"a":1}\n{"b":2}');
    expect(await readAll(file, 0, { includeOpenLastLine: true, chunkSize: 3 })).toEqual([
      { value: { a: 1 }, offset: 0, endOffset: 8, bad: false },
      { value: { b: 2 }, offset: 8, endOffset: 8, bad: false },
    ]);
    const half = writeTemp('half.jsonl', '{"a":1}\n{"b":');
    expect((await readAll(half, 0, { includeOpenLastLine: true })).map((l) => l.bad)).toEqual([false, true]);
    const blank = writeTemp('blank.jsonl', '{"a":1}\n  ');
    expect(await readAll(blank, 0, { includeOpenLastLine: true })).toHaveLength(1);
  });

  it.skipIf(process.platform === 'win32')('refuses a FIFO without blocking', async () => {
    const fifo = path.join(dir, 'fifo.jsonl');
    execFileSync('mkfifo', [fifo]);
    await expect(readAll(fifo)).rejects.toThrow(`${fifo} is a FIFO, not a regular file`);
  });
});
