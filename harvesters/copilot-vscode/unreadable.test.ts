import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IoError } from '../../src/core/errors.js';
import type { SourceFile } from '../../src/core/session.js';
import { copilot } from './copilot-vscode.js';

let tmp: string;
beforeEach(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'copilot-unreadable-'));
});
afterEach(() => {
  rmSync(tmp, { recursive: true, force: true });
});

function sourceFile(filePath: string): SourceFile {
  const st = statSync(filePath);
  return { source: 'copilot', path: filePath, size: st.size, mtimeMs: st.mtimeMs, inode: st.ino };
}

describe('copilot.parse: unreadable files', () => {
  it('rejects with an IoError naming a missing file', async () => {
    const file = path.join(tmp, 'gone.json');
    const missing: SourceFile = { source: 'copilot', path: file, size: 1, mtimeMs: 0, inode: 1 };
    await expect(copilot.parse(missing, 0)).rejects.toThrow(IoError);
    await expect(copilot.parse(missing, 0)).rejects.toThrow(file);
  });

  it('rejects with an IoError when the path is a folder', async () => {
    const dir = path.join(tmp, 'folder.json');
    mkdirSync(dir);
    await expect(copilot.parse(sourceFile(dir), 0)).rejects.toThrow(IoError);
  });

  it.skipIf(process.getuid?.() === 0)('rejects with an IoError when the file cannot be read', async () => {
    const file = path.join(tmp, 'locked.jsonl');
    writeFileSync(file, '{"kind":0,"v":{}}\n');
    chmodSync(file, 0o000);
    await expect(copilot.parse(sourceFile(file), 0)).rejects.toThrow(IoError);
  });
});
