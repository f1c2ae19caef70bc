import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { walkFiles } from './walk.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'walk-test-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function touch(rel: string, content = 'x'): string {
  const file = path.join(dir, rel);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
  return file;
}

const isJsonl = (rel: string): boolean => rel.endsWith('.jsonl');

describe('walkFiles', () => {
  it('returns an empty list when the root is missing or is a file', async () => {
    expect(await walkFiles(path.join(dir, 'missing'), { match: () => true })).toEqual([]);
    const file = touch('plain.txt');
    expect(await walkFiles(file, { match: () => true })).toEqual([]);
  });

  it('finds matching files recursively with stat data, sorted by relative path', async () => {
    touch('b/two.jsonl', '12345');
    touch('a/deep/er/one.jsonl');
    touch('a/notes.txt');
    touch('top.jsonl');
    const files = await walkFiles(dir, { match: isJsonl });
    expect(files.map((f) => f.relPath)).toEqual(['a/deep/er/one.jsonl', 'b/two.jsonl', 'top.jsonl']);
    const two = files[1];
    expect(two?.path).toBe(path.join(dir, 'b', 'two.jsonl'));
    expect(two?.size).toBe(5);
    expect(two?.mtimeMs).toBeGreaterThan(0);
    expect(two?.ino).toBeGreaterThan(0);
  });

  it('passes "/"-separated relative paths to match', async () => {
    touch('p/q/r.jsonl');
    const seen: string[] = [];
    await walkFiles(dir, { match: (rel) => (seen.push(rel), false) });
    expect(seen).toEqual(['p/q/r.jsonl']);
  });

  it('does not descend into skipped directories', async () => {
    touch('proj/s1.jsonl');
    touch('proj/s1/subagents/agent-1.jsonl');
    touch('proj/s1/other/keep.jsonl');
    const files = await walkFiles(dir, { match: isJsonl, skipDir: (name) => name === 'subagents' });
    expect(files.map((f) => f.relPath)).toEqual(['proj/s1.jsonl', 'proj/s1/other/keep.jsonl']);
  });

  it.skipIf(process.platform === 'win32')(
    'lists symlinked files but never follows symlinked dirs',
    async () => {
      const outside = mkdtempSync(path.join(os.tmpdir(), 'walk-outside-'));
      try {
        writeFileSync(path.join(outside, 'elsewhere.jsonl'), 'x');
        const target = touch('real/one.jsonl');
        symlinkSync(outside, path.join(dir, 'linked-dir'));
        symlinkSync(dir, path.join(dir, 'real', 'loop'));
        symlinkSync(target, path.join(dir, 'alias.jsonl'));
        symlinkSync(path.join(dir, 'gone.jsonl'), path.join(dir, 'dangling.jsonl'));
        const files = await walkFiles(dir, { match: isJsonl });
        expect(files.map((f) => f.relPath)).toEqual(['alias.jsonl', 'real/one.jsonl']);
      } finally {
        rmSync(outside, { recursive: true, force: true });
      }
    },
  );
  it.skipIf(process.platform === 'win32')('lists a matching FIFO (readers refuse it by name)', async () => {
    touch('a/real.jsonl');
    execFileSync('mkfifo', [path.join(dir, 'a', 'fifo.jsonl')]);
    symlinkSync(path.join(dir, 'a', 'fifo.jsonl'), path.join(dir, 'a', 'link.jsonl'));
    const files = await walkFiles(dir, { match: isJsonl });
    expect(files.map((f) => f.relPath)).toEqual(['a/fifo.jsonl', 'a/link.jsonl', 'a/real.jsonl']);
  });
});
