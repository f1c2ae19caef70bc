import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { folderProblem } from './folder-problem.js';

describe('folderProblem', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'sos-folder-'));
  const file = path.join(root, 'a-file');
  writeFileSync(file, 'x');
  mkdirSync(path.join(root, 'dir'));

  it('accepts a folder and a folder that can be created', () => {
    expect(folderProblem(path.join(root, 'dir'))).toBeNull();
    expect(folderProblem(path.join(root, 'new', 'deeper'))).toBeNull();
  });

  it('names the file that is in the way, the path itself or a parent', () => {
    expect(folderProblem(file)).toBe(`${file} is a file, not a folder`);
    expect(folderProblem(path.join(file, 'state', 'x'))).toBe(`${file} is a file, not a folder`);
  });
});
