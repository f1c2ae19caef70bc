import { mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { normalizeProjectPath } from './project-path.js';

const linux = { home: '/home/me', platform: 'linux' as const };

describe('normalizeProjectPath', () => {
  it('expands ~, removes trailing separators and resolves dots', () => {
    expect(normalizeProjectPath('~/code/web/', linux)).toBe('/home/me/code/web');
    expect(normalizeProjectPath('/a/b/../c/', linux)).toBe('/a/c');
    expect(normalizeProjectPath('', linux)).toBe('');
  });

  it('resolves symlinks of folders that exist', () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'sos-path-'));
    const real = path.join(root, 'real');
    mkdirSync(real);
    symlinkSync(real, path.join(root, 'link'));
    expect(normalizeProjectPath(path.join(root, 'link'), linux)).toBe(normalizeProjectPath(real, linux));
  });

  it('unifies Windows separators and folds case on case-insensitive systems', () => {
    expect(normalizeProjectPath('C:\\Users\\Me\\Proj\\', linux)).toBe('c:/users/me/proj');
    expect(normalizeProjectPath('/Users/Me/Proj', { home: '/Users/Me', platform: 'darwin' })).toBe(
      '/users/me/proj',
    );
    expect(normalizeProjectPath('/Home/Me/Proj', linux)).toBe('/Home/Me/Proj');
  });
});
