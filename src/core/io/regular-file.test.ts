import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IoError } from '../errors.js';
import { assertRegularFile, readRegularFile } from './regular-file.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'regular-file-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('readRegularFile', () => {
  it('reads a regular file, also through a symlink', () => {
    const file = path.join(dir, 'a.json');
    writeFileSync(file, '{"a":1}');
    symlinkSync(file, path.join(dir, 'link.json'));
    expect(readRegularFile(path.join(dir, 'link.json')).toString()).toBe('{"a":1}');
  });

  it('refuses a file over the limit before reading it', () => {
    const file = path.join(dir, 'big.json');
    writeFileSync(file, '');
    truncateSync(file, 1025); // sparse: nothing is written
    expect(() => readRegularFile(file, 1024)).toThrow(IoError);
    expect(() => readRegularFile(file, 1024)).toThrow(`${file} is 1025 bytes, over the 1024-byte limit`);
    expect(readRegularFile(file, 1025)).toHaveLength(1025);
  });

  it.skipIf(process.platform === 'win32')('refuses a FIFO (also through a symlink) without blocking', () => {
    const fifo = path.join(dir, 'fifo.json');
    execFileSync('mkfifo', [fifo]);
    symlinkSync(fifo, path.join(dir, 'to-fifo.json'));
    expect(() => readRegularFile(fifo)).toThrow(`${fifo} is a FIFO, not a regular file`);
    expect(() => readRegularFile(path.join(dir, 'to-fifo.json'))).toThrow(/is a FIFO/);
    expect(() => assertRegularFile(fifo)).toThrow(IoError);
    expect(() => assertRegularFile(dir)).toThrow(`${dir} is a directory, not a regular file`);
  });
});
