import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parentOf, repositoryPartitions } from './partitions.js';

/** A folder with repositories `a` (with `a/packages/web`) and `b`, and a plain folder `notes/draft`. */
function folders(): string {
  const root = mkdtempSync(path.join(tmpdir(), 'parts-'));
  for (const repo of ['a', 'b']) mkdirSync(path.join(root, repo, '.git', 'objects'), { recursive: true });
  mkdirSync(path.join(root, 'a', 'packages', 'web'), { recursive: true });
  mkdirSync(path.join(root, 'notes', 'draft'), { recursive: true });
  return root;
}

/** An `exists` that finds nothing and remembers what it was asked. */
function nothingOnDisk(): { exists: (p: string) => boolean; asked: string[] } {
  const asked: string[] = [];
  return { exists: (p) => (asked.push(p), false), asked };
}

describe('repositoryPartitions', () => {
  it('gives each session the repository it ran in, nested folders sharing it, so two projects under one folder never mix', () => {
    const root = folders();
    const parts = repositoryPartitions(
      [path.join(root, 'a'), path.join(root, 'a', 'packages', 'web'), path.join(root, 'b'), root, ''],
      { project: root, scope: 'invoked' },
    );
    expect(parts).toEqual([path.join(root, 'a'), path.join(root, 'a'), path.join(root, 'b'), root, '']);
  });

  it('keeps a project that is not a repository one partition, whichever subfolder its sessions ran in', () => {
    const root = folders();
    const notes = path.join(root, 'notes');
    const parts = repositoryPartitions([notes, path.join(notes, 'draft'), path.join(notes, 'gone', 'deep')], {
      project: notes,
      scope: 'invoked',
    });
    expect(parts).toEqual([notes, notes, notes]);
  });

  it('keeps a moved project one partition when its folder is not on this machine', () => {
    const { exists } = nothingOnDisk();
    const parts = repositoryPartitions(['/gone/web', '/gone/web/src', '/gone/web/packages/api'], {
      project: '/gone/web',
      scope: 'invoked',
      exists,
    });
    expect(parts).toEqual(['/gone/web', '/gone/web', '/gone/web']);
  });

  it('with scope all, gives a session whose folder is not on this machine its own recorded folder', () => {
    const { exists } = nothingOnDisk();
    const roots = ['/Users/liza', '/Users/liza/ai-lessons', '/home/fronk/capstone', '/Users/liza/ai-lessons'];
    const parts = repositoryPartitions(roots, { project: '/Users/liza', scope: 'all', exists });
    expect(parts).toEqual(roots);
  });

  it('finds the repository above a recorded folder that is gone, and nothing for a plain folder', () => {
    const root = folders();
    const parts = repositoryPartitions(
      [path.join(root, 'a', 'removed', 'src'), path.join(root, 'notes', 'draft'), path.join(root, 'notes')],
      { project: '/elsewhere', scope: 'all' },
    );
    expect(parts).toEqual([
      path.join(root, 'a'),
      path.join(root, 'notes', 'draft'),
      path.join(root, 'notes'),
    ]);
  });

  it('keeps Windows-recorded folders apart on Linux, unmangled and never looked up on disk', () => {
    const { exists, asked } = nothingOnDisk();
    const roots = [
      'c:/users/georg/dealerflow',
      'c:/users/georg/dealerflow/web',
      'c:/users/georg/other',
      'd:/',
    ];
    const all = repositoryPartitions(roots, { project: '/home/me', scope: 'all', platform: 'linux', exists });
    expect(all).toEqual(roots);
    expect(asked).toEqual([]);
    const invoked = repositoryPartitions(roots.slice(0, 2), {
      project: 'c:/users/georg/dealerflow',
      scope: 'invoked',
      platform: 'linux',
      exists,
    });
    expect(invoked).toEqual(['c:/users/georg/dealerflow', 'c:/users/georg/dealerflow']);
    expect(asked).toEqual([]);
  });

  it('on Windows walks a drive-letter folder up to its repository, and never looks up a POSIX one', () => {
    const asked: string[] = [];
    const exists = (p: string): boolean => (asked.push(p), p === 'c:/users/georg/dealerflow/.git');
    const parts = repositoryPartitions(['c:/users/georg/dealerflow/web/src', '/Users/liza'], {
      project: 'c:/users/georg',
      scope: 'all',
      platform: 'win32',
      exists,
    });
    expect(parts).toEqual(['c:/users/georg/dealerflow', '/Users/liza']);
    expect(asked).toEqual([
      'c:/users/georg/dealerflow/web/src/.git',
      'c:/users/georg/dealerflow/web/.git',
      'c:/users/georg/dealerflow/.git',
    ]);
  });
});

describe('parentOf', () => {
  it('walks POSIX and drive-letter folders as strings, up to their top', () => {
    expect(parentOf('/a/b')).toBe('/a');
    expect(parentOf('/a')).toBe('/');
    expect(parentOf('/')).toBeNull();
    expect(parentOf('c:/users/georg')).toBe('c:/users');
    expect(parentOf('c:/users')).toBe('c:/');
    expect(parentOf('c:/')).toBeNull();
    expect(parentOf('relative/path')).toBeNull();
  });
});
