import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureProjectStateDir } from './project-state-dir.js';

const tmp = (): string => mkdtempSync(path.join(os.tmpdir(), 'sos-state-dir-'));

describe('ensureProjectStateDir', () => {
  it('makes the folder with a .gitignore that ignores everything in it', () => {
    const project = tmp();
    const dir = ensureProjectStateDir(project);
    expect(dir).toBe(path.join(project, '.skillopt-sleep'));
    const ignore = readFileSync(path.join(dir, '.gitignore'), 'utf8');
    expect(ignore.split('\n')).toContain('*');
    expect(ensureProjectStateDir(project)).toBe(dir); // a second call is a no-op
  });

  it('leaves an existing folder as its owner made it', () => {
    const project = tmp();
    mkdirSync(path.join(project, '.skillopt-sleep'));
    writeFileSync(path.join(project, '.skillopt-sleep', 'config.json'), '{}\n');
    ensureProjectStateDir(project);
    expect(() => readFileSync(path.join(project, '.skillopt-sleep', '.gitignore'))).toThrow();
  });
});
