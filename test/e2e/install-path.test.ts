// The CLI finds its bundled templates wherever it is installed, also under a folder whose name has a
// space and a non-ASCII letter (a file URL spells those %20 and %C3%BC).
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

it('runs the bundled demo from an install path with a space and a non-ASCII letter', () => {
  const install = path.join(
    mkdtempSync(path.join(os.tmpdir(), 'sos-install-')),
    'Mes outils ü',
    'skillopt-sleep',
  );
  mkdirSync(install, { recursive: true });
  for (const part of ['dist', 'templates', 'package.json']) {
    cpSync(path.join(ROOT, part), path.join(install, part), { recursive: true });
  }
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(install, 'node_modules'));
  const home = mkdtempSync(path.join(os.tmpdir(), 'sos-install-home-'));
  const r = spawnSync(
    process.execPath,
    [path.join(install, 'dist', 'src', 'cli', 'main.js'), 'dry-run', '--backend', 'mock', '--demo', '--json'],
    {
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', HOME: home, SKILLOPT_SLEEP_HOME: path.join(home, 's'), TZ: 'UTC' },
    },
  );
  expect(r.status, r.stderr).toBe(0);
  expect(JSON.parse(r.stdout)).toMatchObject({ accepted: true, n_sessions: 16 });
});
