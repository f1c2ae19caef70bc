import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, runCli, sandbox, type Sandbox } from './cli-helpers.js';
import { fakeCrontab, realCrontab, type TestCrontab } from './crontab-helpers.js';

const USER_TABLE =
  'MAILTO=me@example.com\n# nightly backup, do not touch\n0 1 * * * /usr/local/bin/backup --all > /dev/null 2>&1\n\n# last line has no newline\n30 4 * * 0 echo "50% done"';

function setupWith<T extends TestCrontab>(make: (dir: string) => T) {
  const box = sandbox();
  const crontab = make(path.join(box.root, 'cron'));
  const env = { SKILLOPT_SLEEP_CRONTAB: crontab.bin, ...crontab.env };
  const cli = (args: string[], extra: Record<string, string> = {}) => runCli(box, args, { ...env, ...extra });
  return { box, crontab, cli };
}

function projectIn(box: Sandbox, name: string): string {
  const dir = path.join(box.root, name);
  mkdirSync(dir, { recursive: true });
  return dir;
}

const setup = () => setupWith(fakeCrontab);

/** Every file name under `dir`. */
function allNames(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((p) => path.basename(p));
}

/** Foreign lines survive: install, second project, replace, refuse, unschedule one, unschedule all. */
async function cycle(crontab: TestCrontab, box: Sandbox, cli: ReturnType<typeof setup>['cli']) {
  const a = projectIn(box, 'proj a');
  const b = projectIn(box, 'proj-b');
  const ok = async (args: string[]) => {
    const r = await cli(args);
    expect(r.code, r.stderr).toBe(0);
    return r;
  };
  await ok(['schedule', '--project', a]);
  const afterA = crontab.table() ?? '';
  expect(afterA.endsWith(USER_TABLE.endsWith('\n') ? USER_TABLE : `${USER_TABLE}`)).toBe(true);
  await ok([
    'schedule',
    '--project',
    b,
    '--hour',
    '4',
    '--minute',
    '5',
    '--backend',
    'mock',
    '--skill-root',
    'skills one',
    '--skill-root',
    'two',
  ]);
  await ok([
    'schedule',
    '--project',
    a,
    '--cron',
    '*/30 1-5 * * 1-5',
    '--edit-budget',
    '2',
    '--gate-metric',
    'hard',
  ]);
  const table = crontab.table() ?? '';
  expect(table.match(/project-sha256=/g)).toHaveLength(2);
  expect(table).toContain('5 4 * * *  ');
  expect(table).toContain("--skill-root 'skills one' --skill-root two");
  expect(table).toContain('*/30 1-5 * * 1-5  ');
  expect(table).toContain('--gate-metric hard --edit-budget 2');
  expect(table.endsWith(USER_TABLE)).toBe(true);
  // Refused: nothing changes.
  expect((await cli(['schedule', '--project', a, '--hour', '25'])).code).toBe(2);
  expect(crontab.table()).toBe(table);
  await ok(['unschedule', '--project', a]);
  expect((crontab.table() ?? '').match(/project-sha256=/g)).toHaveLength(1);
  await ok(['unschedule', '--all']);
  expect(crontab.table()).toBe(USER_TABLE);
}

describe('schedule / unschedule with a fake crontab', () => {
  it('keeps every foreign line and comment byte for byte through schedule/unschedule cycles', async () => {
    const { box, crontab, cli } = setup();
    crontab.install(USER_TABLE);
    await cycle(crontab, box, cli);
    // And from no crontab at all: back to an empty table.
    const fresh = setup();
    expect((await fresh.cli(['schedule'])).code).toBe(0);
    expect(fresh.crontab.table()).toContain('project-sha256=');
    expect((await fresh.cli(['unschedule'])).code).toBe(0);
    expect(fresh.crontab.table()).toBe('');
  });

  it('a failing `crontab -l` writes nothing and exits 1 with the reason', async () => {
    const { box, crontab, cli } = setup();
    crontab.install(USER_TABLE);
    const fail = { FAKE_CRONTAB_FAIL: 'crontab: cannot open spool: Permission denied' };
    const r = await cli(['schedule', '--json'], fail);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Permission denied');
    expect(r.stderr).toContain('nothing was changed');
    expect(r.json()).toMatchObject({ ok: false, error: 'io_failed' });
    expect(crontab.table()).toBe(USER_TABLE);
    expect(crontab.writes()).toBe(0);
    expect(existsSync(path.join(box.stateHome, 'schedules.json'))).toBe(false);
    // Listing still shows what the registry knows, with a warning; it writes nothing.
    const list = await cli(['schedule', '--list', '--json'], fail);
    expect(list.code).toBe(0);
    expect(list.json()).toMatchObject({
      schedules: [],
      crontab_error: expect.stringContaining('Permission denied'),
    });
    expect(list.stderr).toContain('only the registry is listed');
    // Unschedule refuses the same way.
    expect((await cli(['unschedule', '--all'], fail)).code).toBe(1);
    expect(crontab.table()).toBe(USER_TABLE);
    // A crontab binary that does not exist: exit 1, nothing written.
    const missing = await cli(['schedule'], {
      SKILLOPT_SLEEP_CRONTAB: path.join(box.root, 'no-such-crontab'),
    });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('was not found');
    expect(missing.stderr).toContain('add this line with `crontab -e` yourself');
    expect(missing.stderr).toContain('project-sha256=');
  });

  it('schedule twice is idempotent: the second run does not rewrite the crontab', async () => {
    const { crontab, cli } = setup();
    crontab.install(USER_TABLE);
    expect((await cli(['schedule', '--hour', '2', '--auto-adopt'])).code).toBe(0);
    const once = crontab.table();
    const again = await cli(['schedule', '--hour', '2', '--auto-adopt']);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('unchanged');
    expect(crontab.table()).toBe(once);
    expect(crontab.writes()).toBe(1);
  });

  it('concurrent schedule commands wait for each other: no line is lost', async () => {
    const { box, crontab, cli } = setup();
    crontab.install(USER_TABLE);
    const projects = ['one', 'two', 'three'].map((n) => projectIn(box, n));
    // A slow `crontab -l` widens the read-edit-write window that a lost update needs.
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: box.home,
      SKILLOPT_SLEEP_HOME: box.stateHome,
      SKILLOPT_SLEEP_CRONTAB: crontab.bin,
      FAKE_CRONTAB_SLOW: '0.3',
      ...crontab.env,
    };
    const codes = await Promise.all(
      projects.map(
        (p) =>
          new Promise<number | null>((resolve) =>
            spawn(process.execPath, [CLI, 'schedule', '--project', p], { env, stdio: 'ignore' }).on(
              'exit',
              resolve,
            ),
          ),
      ),
    );
    expect(codes).toEqual([0, 0, 0]);
    expect((crontab.table() ?? '').match(/project-sha256=/g)).toHaveLength(3);
    expect(crontab.table()?.endsWith(USER_TABLE)).toBe(true);
    const list = (await cli(['schedule', '--list', '--json'])).json().schedules as unknown[];
    expect(list).toHaveLength(3);
  });

  it('finds `crontab` on PATH when SKILLOPT_SLEEP_CRONTAB is not set', async () => {
    const box = sandbox();
    const crontab = fakeCrontab(path.join(box.root, 'bin'));
    const r = await runCli(box, ['schedule'], {
      ...crontab.env,
      PATH: `${path.join(box.root, 'bin')}:${process.env.PATH ?? ''}`,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(crontab.table()).toContain('project-sha256=');
  });

  it('refuses invalid times and expressions (exit 2) and control characters in paths or options', async () => {
    const { box, crontab, cli } = setup();
    crontab.install(USER_TABLE);
    for (const args of [
      ['--hour', '24'],
      ['--minute', '60'],
      ['--hour', '3.5'],
      ['--hour', '-1'],
      ['--cron', '61 * * * *'],
      ['--cron', '* * * *'],
      ['--cron', '0 3 * * *', '--hour', '3'],
      ['--preferences', 'line one\nline two'],
    ]) {
      const r = await cli(['schedule', ...args]);
      expect(r.code, args.join(' ')).toBe(2);
    }
    const nl = projectIn(box, 'bad\nname');
    const r = await cli(['schedule', '--project', nl]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('control character');
    expect(crontab.table()).toBe(USER_TABLE);
    expect(crontab.writes()).toBe(0);
  });

  it('quotes hostile project paths and options: through cron and sh -c only the CLI runs, with the exact path', async () => {
    const { box, crontab, cli } = setup();
    const hostile = projectIn(
      box,
      `we'ird "dq" $HOME \`touch pwned1\` $(touch pwned2) 100% ;touch pwned3; \\ *`,
    );
    const prefs = `it's 100% \`touch pwned4\` $(touch pwned5) %% \\%`;
    const r = await cli([
      'schedule',
      '--project',
      hostile,
      '--json',
      '--preferences',
      prefs,
      '--backend',
      'mock',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const table = crontab.table() ?? '';
    const line = table.split('\n').find((l) => l.includes('project-sha256='));
    expect(line).toBeDefined();
    expect(line).not.toMatch(/[^\\]%/); // every % escaped for cron
    // What cron hands to sh: `\%` becomes `%` and a bare `%` would end the command.
    const command = (line ?? '').replace(/^(\S+\s+){5}/, '').replace(/\\%/g, '%');
    // The line runs node with the CLI; swap them for a recorder of argv and environment.
    const recorder = path.join(box.root, 'recorder.sh');
    writeFileSync(
      recorder,
      '#!/bin/sh\nfor a in "$@"; do printf \'%s\\0\' "$a"; done > "$REC_OUT"\nprintf %s "$SKILLOPT_SLEEP_HOME" > "$REC_OUT.home"\n',
    );
    chmodSync(recorder, 0o755);
    const prefix = `${process.execPath} ${CLI} run`;
    expect(command).toContain(prefix);
    const work = path.join(box.root, 'cwd');
    mkdirSync(work);
    const out = path.join(box.root, 'argv');
    const sh = spawnSync('/bin/sh', ['-c', command.replace(prefix, `${recorder} run`)], {
      cwd: work,
      env: { PATH: '/usr/bin:/bin', HOME: work, REC_OUT: out },
      encoding: 'utf8',
    });
    expect(sh.status, sh.stderr).toBe(0);
    const argv = readFileSync(out, 'utf8').split('\0').slice(0, -1);
    expect(argv).toEqual(['run', '--project', hostile, '--backend', 'mock', '--preferences', prefs]);
    expect(readFileSync(`${out}.home`, 'utf8')).toBe(box.stateHome);
    expect(statSync(path.join(hostile, '.skillopt-sleep', 'logs', 'nights.log')).isFile()).toBe(true);
    expect(allNames(box.root).filter((n) => n.startsWith('pwned'))).toEqual([]);
  });

  it('--list shows each managed entry with its next run, and names projects of other state homes', async () => {
    const { box, crontab, cli } = setup();
    const a = projectIn(box, 'alpha');
    expect((await cli(['schedule', '--project', a, '--hour', '3', '--minute', '17'])).code).toBe(0);
    const b = projectIn(box, 'beta');
    expect((await cli(['schedule', '--project', b, '--daemon', '--cron', '0 */6 * * *'])).code).toBe(0);
    // A line scheduled from another state home is still listed, read back from the crontab.
    const c = projectIn(box, "gam'ma");
    expect(
      (await cli(['schedule', '--project', c], { SKILLOPT_SLEEP_HOME: path.join(box.root, 'other') })).code,
    ).toBe(0);
    const r = await cli(['schedule', '--list', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const list = (r.json().schedules as Array<Record<string, unknown>>).map((s) => [
      s.project,
      s.cron,
      s.via,
      typeof s.next_run,
      s.unregistered ?? false,
    ]);
    expect(list).toEqual([
      [a, '17 3 * * *', 'cron', 'number', false],
      [b, '0 */6 * * *', 'daemon', 'number', false],
      [c, '17 3 * * *', 'cron', 'number', true],
    ]);
    expect((crontab.table() ?? '').match(/project-sha256=/g)).toHaveLength(2); // beta runs from the daemon
    const human = await cli(['schedule', '--list']);
    expect(human.stdout).toContain('next 20');
    expect(human.stdout).toContain(a);
  });
});

const real = realCrontab();

describe.skipIf(real === null)(
  'schedule / unschedule with the real crontab (private mount namespace)',
  () => {
    it('keeps foreign lines through cycles, and the installed line reads back intact', async () => {
      const { box, crontab, cli } = setupWith(() => real as TestCrontab);
      const realSpool = '/var/spool/cron/crontabs';
      const before = readdirSync(realSpool).map((f) => [f, statSync(path.join(realSpool, f)).mtimeMs]);
      // The real crontab refuses a table without a final newline.
      crontab.install(`${USER_TABLE}\n`);
      const table = () => crontab.table();
      const userTable = `${USER_TABLE}\n`;
      const a = projectIn(box, "it's 100% $x");
      expect((await cli(['schedule', '--project', a])).code).toBe(0);
      expect((await cli(['schedule', '--project', a])).code).toBe(0);
      const installed = table() ?? '';
      expect(installed.endsWith(userTable)).toBe(true);
      expect(installed).toContain("it'\\''s 100\\% $x");
      expect((await cli(['unschedule', '--project', a])).code).toBe(0);
      expect(table()).toBe(userTable);
      // The machine's real crontabs were not touched.
      expect(readdirSync(realSpool).map((f) => [f, statSync(path.join(realSpool, f)).mtimeMs])).toEqual(
        before,
      );
    });
  },
);
