/**
 * The package as npm ships it. `npm pack` packs the dist the e2e setup built (`--ignore-scripts`: its
 * `prepare` would rebuild dist under the other tests' feet); the tarball is installed into a fresh
 * folder with `npm ci --offline`, from a lockfile holding this checkout's locked production
 * dependencies, so the install needs only the npm cache (which `npm ci` filled) and gets the versions
 * the suite tests. Install scripts are skipped there: better-sqlite3's would compile SQLite for a
 * minute, so the fresh folder gets the binary this checkout built for this Node.js (same
 * better-sqlite3 version, checked). `prepare` is then run in the installed package's folder, where
 * npm runs it when that folder is installed (`npm install` in an unpacked tarball, or the folder given
 * to `npm install`).
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from './cli-helpers.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
// npm with the caller's config and cache, but never asking the registry about its own updates.
const NPM_ENV = {
  ...process.env,
  npm_config_update_notifier: 'false',
  npm_config_fund: 'false',
  npm_config_audit: 'false',
};

function npm(args: string[], cwd: string, env: NodeJS.ProcessEnv = NPM_ENV): SpawnSyncReturns<string> {
  return spawnSync('npm', args, { cwd, env, encoding: 'utf8', timeout: 180_000 });
}

const npmVersion = spawnSync('npm', ['--version'], { encoding: 'utf8', env: NPM_ENV });
const available = npmVersion.status === 0;
if (!available) console.warn('[sleep] npm is not on PATH: the packed-package tests skip');

interface LockEntry {
  version?: string;
  dev?: boolean;
  [key: string]: unknown;
}

/** A lockfile for a folder that depends on the tarball only: this checkout's production entries. */
function freshLock(tarball: string): { pkg: object; lock: object } {
  const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, LockEntry>;
  };
  const own = lock.packages[''] as LockEntry & { dependencies: Record<string, string> };
  const spec = `file:${tarball}`;
  const packages: Record<string, object> = {
    '': { name: 'fresh', dependencies: { 'skillopt-sleep': spec } },
    'node_modules/skillopt-sleep': {
      version: own.version,
      resolved: spec,
      license: own.license,
      dependencies: own.dependencies,
      bin: own.bin,
      engines: own.engines,
    },
  };
  for (const [key, entry] of Object.entries(lock.packages))
    if (key !== '' && entry.dev !== true) packages[key] = entry;
  return {
    pkg: { name: 'fresh', private: true, dependencies: { 'skillopt-sleep': spec } },
    lock: { name: 'fresh', lockfileVersion: 3, requires: true, packages },
  };
}

/** Every file below `dir`, relative to it. */
function filesBelow(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => statSync(path.join(dir, f)).isFile())
    .map((f) => f.split(path.sep).join('/'));
}

/** The demo's dry run in its own temporary homes. */
function demoDryRun(command: string, args: string[], cwd: string): SpawnSyncReturns<string> {
  const homes = mkdtempSync(path.join(os.tmpdir(), 'sos-packed-run-'));
  try {
    return spawnSync(command, [...args, 'dry-run', '--backend', 'mock', '--demo'], {
      cwd,
      encoding: 'utf8',
      timeout: 60_000,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: path.join(homes, 'home'),
        SKILLOPT_SLEEP_HOME: path.join(homes, 'state'),
        NO_COLOR: '1',
        TZ: 'UTC',
        npm_config_update_notifier: 'false',
      },
    });
  } finally {
    rmSync(homes, { recursive: true, force: true });
  }
}

describe.skipIf(!available)('the packed package', () => {
  let tmp = '';
  let packed: string[] = [];
  let fresh = '';
  let installed = '';

  beforeAll(() => {
    tmp = mkdtempSync(path.join(os.tmpdir(), 'sos-packed-'));
    const pack = npm(['pack', '--ignore-scripts', '--json', '--pack-destination', tmp], ROOT);
    expect(pack.status, pack.stderr).toBe(0);
    const [info] = JSON.parse(pack.stdout) as { filename: string; files: { path: string }[] }[];
    packed = info!.files.map((f) => f.path);

    fresh = path.join(tmp, 'fresh');
    mkdirSync(fresh);
    const { pkg, lock } = freshLock(path.join(tmp, info!.filename));
    writeFileSync(path.join(fresh, 'package.json'), JSON.stringify(pkg, null, 2));
    writeFileSync(path.join(fresh, 'package-lock.json'), JSON.stringify(lock, null, 2));
    const install = npm(['ci', '--offline', '--ignore-scripts'], fresh);
    expect(
      install.status,
      `npm ci --offline in a fresh folder failed (a locked package missing from the npm cache? ` +
        `\`npm ci\` in the checkout fills it):\n${install.stderr}`,
    ).toBe(0);
    installed = path.join(fresh, 'node_modules', 'skillopt-sleep');

    // The native binary this checkout built for this Node.js, for the same better-sqlite3.
    const ours = path.dirname(
      createRequire(path.join(ROOT, 'package.json')).resolve('better-sqlite3/package.json'),
    );
    const theirs = path.join(fresh, 'node_modules', 'better-sqlite3');
    const version = (dir: string): unknown =>
      (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string }).version;
    expect(version(theirs)).toBe(version(ours));
    mkdirSync(path.join(theirs, 'build', 'Release'), { recursive: true });
    copyFileSync(
      path.join(ours, 'build', 'Release', 'better_sqlite3.node'),
      path.join(theirs, 'build', 'Release', 'better_sqlite3.node'),
    );
  }, 300_000);

  afterAll(() => {
    if (tmp !== '') rmSync(tmp, { recursive: true, force: true });
  });

  it('ships the license and the built CLI, and no source maps or test modules', () => {
    expect(packed).toContain('LICENSE');
    expect(readFileSync(path.join(installed, 'LICENSE'), 'utf8')).toMatch(/^MIT License\n/);
    expect(packed).toContain('dist/src/cli/main.js');
    expect(packed.filter((f) => f.endsWith('.map'))).toEqual([]);
    const testModules = /\.test\.js$|(^|\/)test-helpers\.js$|\.bench\.js$|redact-secretlint-corpus\.js$/;
    expect(packed.filter((f) => testModules.test(f) || f.startsWith('test/'))).toEqual([]);
    expect(packed.filter((f) => f === 'dist/.build-stamp')).toEqual([]);
    // No shipped module names a source map (which would point at sources the package lacks).
    const mapped = filesBelow(installed).filter(
      (f) => f.endsWith('.js') && readFileSync(path.join(installed, f), 'utf8').includes('sourceMappingURL'),
    );
    expect(mapped).toEqual([]);
  });

  it('ships every file the README links to, so its links work where npm shows it', () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const local = [...readme.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)]
      .map((m) => m[1]!)
      .filter((link) => !/^[a-z]+:/i.test(link));
    expect(local.length).toBeGreaterThan(0);
    expect(local.filter((link) => !packed.includes(path.posix.normalize(link)))).toEqual([]);
  });

  it('runs `npx skillopt-sleep dry-run --backend mock --demo` as the checkout and the README say', () => {
    const run = demoDryRun('npx', ['--offline', 'skillopt-sleep'], fresh);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^\[sleep\] night 1 \(dry-run\): 16 sessions -> /);
    expect(run.stdout).toContain('=> accept_new_best (accepted=true)');
    expect(run.stdout.match(/^ {3}\+ \[skill\/add\] /gm)).toHaveLength(3);
    expect(run.stdout).toContain('use pnpm');
    // What the README's quick start says this command prints.
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const shown = /You should see[^\n]*\n\n```\n([^`]+)```/.exec(readme)?.[1];
    expect(shown).toMatch(/^\[sleep\] night 1 \(dry-run\)/);
    expect(run.stdout).toContain(shown);
    const checkout = demoDryRun(process.execPath, [CLI], ROOT);
    expect(checkout.status, checkout.stderr).toBe(0);
    expect(run.stdout).toBe(checkout.stdout);
  });

  it("leaves the shipped dist alone when npm runs `prepare` in the installed package's folder", () => {
    const main = path.join(installed, 'dist', 'src', 'cli', 'main.js');
    const before = statSync(main).mtimeMs;
    const prepare = npm(['run', 'prepare'], installed);
    expect(prepare.status, prepare.stderr).toBe(0);
    expect(statSync(main).mtimeMs).toBe(before);
  });
});
