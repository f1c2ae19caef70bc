import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { harvestRules, IGNORE_FILE } from './harvest-rules.js';

const none = { exclude_paths: [] as string[], include_paths: [] as string[] };
const ctx = { userHome: '/home/me', platform: 'linux' as const };

function tree(): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'sos-rules-'));
  for (const d of ['repo/src/deep', 'repo/secret/inner', 'open/sub', 'mixed/keep', 'mixed/drop'])
    mkdirSync(path.join(root, d), { recursive: true });
  return root;
}

describe('exclude_paths and include_paths', () => {
  it('keeps out a matching folder and everything below it, `~` being the home', () => {
    const rules = harvestRules({ ...none, exclude_paths: ['~/work/client-*'] }, ctx);
    expect(rules.excludes('/home/me/work/client-acme')).toBe('exclude_paths');
    expect(rules.excludes('/home/me/work/client-acme/api/.hidden')).toBe('exclude_paths');
    expect(rules.excludes('/home/me/work/internal')).toBeNull();
    expect(rules.excludes('/home/other/work/client-acme')).toBeNull();
  });

  it('reads `dir/**` as the same folder-and-below, and a pattern without a root at any depth', () => {
    const star = harvestRules({ ...none, exclude_paths: ['/srv/x/**'] }, ctx);
    expect(star.excludes('/srv/x')).toBe('exclude_paths');
    expect(star.excludes('/srv/x/y')).toBe('exclude_paths');
    expect(star.excludes('/srv/xy')).toBeNull();
    const anywhere = harvestRules({ ...none, exclude_paths: ['private-*'] }, ctx);
    expect(anywhere.excludes('/a/b/private-notes/c')).toBe('exclude_paths');
    expect(anywhere.excludes('/a/b/public')).toBeNull();
  });

  it('with include_paths, only those folders are read; exclusions still win inside them', () => {
    const rules = harvestRules(
      { exclude_paths: ['~/work/acme/vendor'], include_paths: ['~/work/acme'] },
      ctx,
    );
    expect(rules.excludes('/home/me/work/acme/web')).toBeNull();
    expect(rules.excludes('/home/me/work/other')).toBe('include_paths');
    expect(rules.excludes('')).toBe('include_paths');
    expect(rules.excludes('/home/me/work/acme/vendor/lib')).toBe('exclude_paths');
  });

  it('folds case where the file system does', () => {
    const mac = harvestRules(
      { ...none, exclude_paths: ['/Users/Me/Client'] },
      { ...ctx, platform: 'darwin' },
    );
    expect(mac.excludes('/users/me/client/app')).toBe('exclude_paths');
    const linux = harvestRules({ ...none, exclude_paths: ['/srv/Client'] }, ctx);
    expect(linux.excludes('/srv/client')).toBeNull();
  });

  it("hashes the user's rules, so a change of rules is seen", () => {
    const a = harvestRules({ ...none, exclude_paths: ['/a'] }, ctx).hash;
    expect(harvestRules({ ...none, exclude_paths: ['/a'] }, ctx).hash).toBe(a);
    expect(harvestRules({ ...none, exclude_paths: ['/b'] }, ctx).hash).not.toBe(a);
    expect(harvestRules({ ...none, include_paths: ['/a'] }, ctx).hash).not.toBe(a);
  });
});

describe(IGNORE_FILE, () => {
  it('empty (or only comments): its folder and everything below are kept out', () => {
    const root = tree();
    writeFileSync(path.join(root, 'repo', IGNORE_FILE), '');
    writeFileSync(path.join(root, 'open', IGNORE_FILE), '# we opt out\n\n');
    const rules = harvestRules(none, ctx);
    expect(rules.excludes(path.join(root, 'repo'))).toBe(IGNORE_FILE);
    expect(rules.excludes(path.join(root, 'repo/src/deep'))).toBe(IGNORE_FILE);
    expect(rules.excludes(path.join(root, 'open/sub'))).toBe(IGNORE_FILE);
    expect(rules.excludes(path.join(root, 'mixed'))).toBeNull();
  });

  it('with patterns: the folders below it that match, as .gitignore reads them; not the folder itself', () => {
    const root = tree();
    writeFileSync(path.join(root, 'mixed', IGNORE_FILE), 'drop\n');
    mkdirSync(path.join(root, 'mixed/keep/drop'), { recursive: true });
    const rules = harvestRules(none, ctx);
    expect(rules.excludes(path.join(root, 'mixed'))).toBeNull();
    expect(rules.excludes(path.join(root, 'mixed/keep'))).toBeNull();
    expect(rules.excludes(path.join(root, 'mixed/drop'))).toBe(IGNORE_FILE);
    expect(rules.excludes(path.join(root, 'mixed/keep/drop'))).toBe(IGNORE_FILE);
  });

  it('a deeper file cannot let back in what a higher one keeps out', () => {
    const root = tree();
    writeFileSync(path.join(root, 'repo', IGNORE_FILE), '');
    writeFileSync(path.join(root, 'repo/src', IGNORE_FILE), '!deep\n!*\n');
    expect(harvestRules(none, ctx).excludes(path.join(root, 'repo/src/deep'))).toBe(IGNORE_FILE);
  });

  it('one that is not a readable regular file keeps its whole folder out', () => {
    const root = tree();
    mkdirSync(path.join(root, 'repo', IGNORE_FILE));
    if (process.platform !== 'win32') execFileSync('mkfifo', [path.join(root, 'open', IGNORE_FILE)]);
    const rules = harvestRules(none, ctx);
    expect(rules.excludes(path.join(root, 'repo/src'))).toBe(IGNORE_FILE);
    if (process.platform !== 'win32') expect(rules.excludes(path.join(root, 'open/sub'))).toBe(IGNORE_FILE);
  });

  it('is not consulted for a folder that does not exist or a relative cwd', () => {
    const rules = harvestRules(none, ctx);
    expect(rules.excludes(path.join(os.tmpdir(), 'sos-no-such-folder', 'x'))).toBeNull();
    expect(rules.excludes('relative/path')).toBeNull();
  });
});
