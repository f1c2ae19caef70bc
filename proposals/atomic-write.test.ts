import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readFileIfExists, writeFileAtomic } from './atomic-write.js';

const tempDirs: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'proposals-atomic-'));
  tempDirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of tempDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('writeFileAtomic', () => {
  it('creates and replaces a file with the exact mode, leaving no temp files', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'f.md');
    await writeFileAtomic(file, 'one');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600); // private by default
    await writeFileAtomic(file, Buffer.from('two'), 0o644);
    expect(fs.readFileSync(file, 'utf8')).toBe('two');
    expect(fs.statSync(file).mode & 0o777).toBe(0o644);
    expect(fs.readdirSync(dir)).toEqual(['f.md']);
  });

  it('cleans up its temp file when the rename fails', async () => {
    const dir = tempDir();
    fs.mkdirSync(path.join(dir, 'occupied'));
    fs.writeFileSync(path.join(dir, 'occupied/inside'), 'x');
    await expect(writeFileAtomic(path.join(dir, 'occupied'), 'data')).rejects.toThrow();
    expect(fs.readdirSync(dir)).toEqual(['occupied']);
  });
});

describe('readFileIfExists', () => {
  it('returns null for a missing file or a file below a regular file', async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'file'), 'x');
    expect(await readFileIfExists(path.join(dir, 'missing'))).toBeNull();
    expect(await readFileIfExists(path.join(dir, 'file/below'))).toBeNull();
    expect((await readFileIfExists(path.join(dir, 'file')))?.toString()).toBe('x');
  });
});
