import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../core/errors.js';
import { missingFolders, plainText, resolveInside } from './safe-path.js';

function fresh(): { root: string; outside: string } {
  const base = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'sos-safe-')));
  const root = path.join(base, 'home');
  const outside = path.join(base, 'outside');
  mkdirSync(root);
  mkdirSync(outside);
  return { root, outside };
}

describe('resolveInside', () => {
  it('follows a symlinked file that stays inside the root (a dotfiles link) and writes through it', () => {
    const { root } = fresh();
    mkdirSync(path.join(root, 'dotfiles'));
    writeFileSync(path.join(root, 'dotfiles', 'settings.json'), '{}');
    mkdirSync(path.join(root, '.claude'));
    symlinkSync(path.join(root, 'dotfiles', 'settings.json'), path.join(root, '.claude', 'settings.json'));
    expect(resolveInside(root, path.join(root, '.claude', 'settings.json'))).toBe(
      path.join(root, 'dotfiles', 'settings.json'),
    );
  });

  it('refuses a file or folder that resolves outside the root, and one that is not a regular file', () => {
    const { root, outside } = fresh();
    writeFileSync(path.join(outside, 'victim'), 'x');
    symlinkSync(path.join(outside, 'victim'), path.join(root, '.mcp.json'));
    expect(() => resolveInside(root, path.join(root, '.mcp.json'))).toThrow(/outside/);
    symlinkSync(outside, path.join(root, '.vscode'));
    expect(() => resolveInside(root, path.join(root, '.vscode', 'mcp.json'))).toThrow(InputError);
    mkdirSync(path.join(root, 'dir.json'));
    expect(() => resolveInside(root, path.join(root, 'dir.json'))).toThrow(/not a regular file/);
    symlinkSync(path.join(root, 'nowhere'), path.join(root, 'dangling.json'));
    expect(() => resolveInside(root, path.join(root, 'dangling.json'))).toThrow(/leads nowhere/);
  });

  it('lists the folders a new file needs, outermost first', () => {
    const { root } = fresh();
    const file = path.join(root, '.claude', 'skills', 'skillopt-sleep', 'SKILL.md');
    expect(missingFolders(root, resolveInside(root, file))).toEqual([
      path.join(root, '.claude'),
      path.join(root, '.claude', 'skills'),
      path.join(root, '.claude', 'skills', 'skillopt-sleep'),
    ]);
  });
});

describe('plainText', () => {
  it('refuses control characters and lets ordinary paths through', () => {
    expect(plainText('p', '/opt/node 20/bin/node')).toBe('/opt/node 20/bin/node');
    for (const bad of ['/a\nb', '/a\u001b[31m', '/a\u0000', '/a\u2028'])
      expect(() => plainText('p', bad)).toThrow(/control character/);
  });
});
