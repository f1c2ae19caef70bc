/**
 * Ordinary bad input from a careless first hour: each case is one `[sleep] error: …` line naming the
 * path or option and what to do, the documented exit code, `{"ok": false, …}` with --json, never a
 * stack trace, and nothing overwritten.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, sandbox, type CliResult } from './cli-helpers.js';

/** One error line in the CLI's style, and no internal error. */
function expectOneErrorLine(r: CliResult, code: number, ...mentions: string[]): void {
  expect(r.stderr).not.toContain('internal error');
  expect(r.stderr).not.toMatch(/\n\s+at /);
  const lines = r.stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^\[sleep\] error: /);
  for (const m of mentions) expect(lines[0]).toContain(m);
  expect(r.code).toBe(code);
}

describe('an unusable state home', () => {
  it('is one message and one exit code (1) for every command', async () => {
    const box = sandbox();
    const file = path.join(box.root, 'a-file');
    writeFileSync(file, 'x');
    const env = {
      SKILLOPT_SLEEP_HOME: path.join(file, 'state'),
      // Never the machine's crontab, even if a broken build got as far as reading it.
      SKILLOPT_SLEEP_CRONTAB: path.join(box.root, 'no-crontab'),
    };
    const messages = new Set<string>();
    for (const args of [
      ['run'],
      ['dry-run'],
      ['status'],
      ['harvest'],
      ['schedule'],
      ['daemon'],
      ['train', '--demo', '--out', path.join(box.root, 'out')],
    ]) {
      const r = await runCli(box, args, env);
      expectOneErrorLine(r, 1, `${file} is a file, not a folder`, 'SKILLOPT_SLEEP_HOME');
      messages.add(r.stderr);
    }
    expect(messages.size).toBe(1);
    const json = await runCli(box, ['status', '--json'], env);
    expect(json.json()).toMatchObject({ ok: false, error: 'state_home_unusable' });
    expect(readFileSync(file, 'utf8')).toBe('x');
  });
});

describe('a store.sqlite that is not a database', () => {
  it('is refused by status and run, left as it was, with how to move it aside', async () => {
    const box = sandbox();
    mkdirSync(box.stateHome, { recursive: true });
    const store = path.join(box.stateHome, 'store.sqlite');
    const notes = 'my notes, certainly not SQLite\n'.repeat(100);
    writeFileSync(store, notes);
    for (const args of [['status'], ['run'], ['harvest'], ['proposals', 'list']]) {
      expectOneErrorLine(await runCli(box, args), 1, store, `mv '${store}' '${store}.broken'`);
    }
    expect((await runCli(box, ['run', '--json'])).json()).toMatchObject({
      ok: false,
      error: 'store_unreadable',
    });
    expect(readFileSync(store, 'utf8')).toBe(notes);
    expect(existsSync(`${store}-wal`)).toBe(false);
    // The daemon refuses it too and leaves no lock behind.
    expectOneErrorLine(await runCli(box, ['daemon']), 1, store);
    expect(existsSync(path.join(box.stateHome, 'daemon.lock'))).toBe(false);
  });
});

describe('train --out', () => {
  it('refuses an existing file, or a folder under one, with exit 2', async () => {
    const box = sandbox();
    const file = path.join(box.root, 'taken');
    writeFileSync(file, 'keep me');
    for (const out of [file, path.join(file, 'run')]) {
      expectOneErrorLine(
        await runCli(box, ['train', '--demo', '--out', out]),
        2,
        `--out ${out}`,
        `${file} is a file, not a folder`,
      );
    }
    expect(readFileSync(file, 'utf8')).toBe('keep me');
  });
});

describe('option errors', () => {
  it('print {"ok": false} on stdout with --json, and one styled line on stderr', async () => {
    const box = sandbox();
    for (const args of [
      ['run', '--json', '--edit-budget', '-1'],
      ['run', '--json', '--frobnicate'],
      ['status', '--json', '--limit', 'abc'],
    ]) {
      const r = await runCli(box, args);
      expectOneErrorLine(r, 2);
      expect(r.json()).toMatchObject({ ok: false, error: 'usage' });
      expect(String(r.json().message)).not.toMatch(/^error:/);
    }
  });

  it('refuse --limit 0, abc and -1 and a blank --edit-budget (exit 2)', async () => {
    const box = sandbox();
    for (const limit of ['0', 'abc', '-1', '']) {
      expectOneErrorLine(await runCli(box, ['status', '--limit', limit]), 2, '--limit');
    }
    expect((await runCli(box, ['status', '--limit', '3'])).code).toBe(0);
    expectOneErrorLine(await runCli(box, ['dry-run', '--edit-budget', '']), 2, '--edit-budget');
    expectOneErrorLine(await runCli(box, ['dry-run', '--val-fraction', ' ']), 2, '--val-fraction');
  });

  it('name the option, not "flag", for a number out of range', async () => {
    const box = sandbox();
    const r = await runCli(box, ['dry-run', '--edit-budget', '1e99']);
    expectOneErrorLine(r, 2, '--edit-budget');
    expect(r.stderr).not.toContain('flag:');
  });
});

describe('--project', () => {
  it('refuses an empty value instead of using the current folder', async () => {
    const box = sandbox();
    expectOneErrorLine(await runCli(box, ['status', '--project', '']), 2, '--project');
    expectOneErrorLine(await runCli(box, ['run', '--project', ' ']), 2, '--project');
  });

  it('expands a leading ~ to the home folder', async () => {
    const box = sandbox();
    const web = path.join(box.home, 'code', 'web');
    mkdirSync(web, { recursive: true });
    for (const spelling of ['~/code/web', '~/code/web/']) {
      const r = await runCli(box, ['status', '--project', spelling, '--json']);
      expect(r.code).toBe(0);
      expect(r.json().project).toBe(web);
    }
    expect((await runCli(box, ['status', '--project', '~', '--json'])).json().project).toBe(box.home);
  });

  it('is accepted by proposals before the subcommand, and proposals alone lists', async () => {
    const box = sandbox();
    for (const args of [
      ['proposals', '--project', box.project],
      ['proposals', '--project', box.project, 'list'],
      ['proposals', 'list', '--project', box.project],
    ]) {
      const r = await runCli(box, args, { HOME: box.home });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`no proposals in ${box.project}`);
    }
    const json = await runCli(box, ['proposals', '--json', '--project', box.project]);
    expect(json.json()).toMatchObject({ project: box.project, proposals: [] });
  });
});

describe('conformance', () => {
  it('fails on a folder that does not exist instead of reporting 0 files', () => {
    const box = sandbox();
    const missing = path.join(box.root, 'no-such-folder');
    const tool = path.resolve(import.meta.dirname, '../../dist/src/tools/conformance.js');
    const r = spawnSync(process.execPath, [tool, missing], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `[sleep] error: ${missing} does not exist or is not a folder: give the folder of transcripts\n`,
    );
  });
});
