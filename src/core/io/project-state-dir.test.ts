import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../errors.js';
import { checkProjectStateDir, ensureProjectStateDir } from './project-state-dir.js';

const tmp = (): string => mkdtempSync(path.join(os.tmpdir(), 'sos-state-dir-'));
const modeOf = (p: string): number => statSync(p).mode & 0o777;

describe('ensureProjectStateDir', () => {
  it('makes the folder (0700) with a .gitignore (0600) that ignores everything in it', () => {
    const project = tmp();
    const dir = ensureProjectStateDir(project);
    expect(dir).toBe(path.join(project, '.skillopt-sleep'));
    const ignore = readFileSync(path.join(dir, '.gitignore'), 'utf8');
    expect(ignore.split('\n')).toContain('*');
    expect(modeOf(dir)).toBe(0o700);
    expect(modeOf(path.join(dir, '.gitignore'))).toBe(0o600);
    expect(ensureProjectStateDir(project)).toBe(dir); // a second call is a no-op
  });

  it('keeps an existing folder without a .gitignore, but makes it private', () => {
    const project = tmp();
    mkdirSync(path.join(project, '.skillopt-sleep'), { mode: 0o755 });
    chmodSync(path.join(project, '.skillopt-sleep'), 0o755);
    writeFileSync(path.join(project, '.skillopt-sleep', 'config.json'), '{}\n', { mode: 0o644 });
    ensureProjectStateDir(project);
    expect(() => readFileSync(path.join(project, '.skillopt-sleep', '.gitignore'))).toThrow();
    expect(modeOf(path.join(project, '.skillopt-sleep'))).toBe(0o700);
    expect(modeOf(path.join(project, '.skillopt-sleep', 'config.json'))).toBe(0o600);
  });
});

describe('checkProjectStateDir', () => {
  it('accepts a missing folder and tightens an existing tree (0755/0644 -> 0700/0600)', () => {
    const project = tmp();
    expect(() => checkProjectStateDir(project)).not.toThrow();
    const proposal = path.join(project, '.skillopt-sleep', 'proposals', 'p1');
    mkdirSync(proposal, { recursive: true });
    writeFileSync(path.join(proposal, 'adopted.json'), '{}');
    for (const d of ['.skillopt-sleep', '.skillopt-sleep/proposals', '.skillopt-sleep/proposals/p1'])
      chmodSync(path.join(project, d), 0o755);
    chmodSync(path.join(proposal, 'adopted.json'), 0o644);
    checkProjectStateDir(project);
    expect(modeOf(proposal)).toBe(0o700);
    expect(modeOf(path.join(project, '.skillopt-sleep'))).toBe(0o700);
    expect(modeOf(path.join(proposal, 'adopted.json'))).toBe(0o600);
  });

  it('refuses a symlinked state folder, and a symlink anywhere below it, without touching the target', () => {
    const elsewhere = tmp();
    writeFileSync(path.join(elsewhere, 'config.json'), '{}', { mode: 0o644 });
    chmodSync(path.join(elsewhere, 'config.json'), 0o644);

    const linked = tmp();
    symlinkSync(elsewhere, path.join(linked, '.skillopt-sleep'));
    expect(() => checkProjectStateDir(linked)).toThrow(InputError);
    expect(() => checkProjectStateDir(linked)).toThrow(/\.skillopt-sleep is a symlink/);
    expect(() => ensureProjectStateDir(linked)).toThrow(/is a symlink/);
    expect(modeOf(path.join(elsewhere, 'config.json'))).toBe(0o644); // nothing done through it

    for (const below of ['config.json', 'proposals', 'proposals/p1/adopted.json']) {
      const project = tmp();
      const target = path.join(project, '.skillopt-sleep', below);
      mkdirSync(path.dirname(target), { recursive: true });
      symlinkSync(path.join(elsewhere, 'config.json'), target);
      expect(() => checkProjectStateDir(project)).toThrow(
        new RegExp(`${below.replace(/[./]/g, '\\$&')} is a symlink`),
      );
    }
    expect(modeOf(path.join(elsewhere, 'config.json'))).toBe(0o644);
  });
});
