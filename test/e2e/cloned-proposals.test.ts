/**
 * Issue 37, items 1-3: proposal files that arrive with a cloned repository are untrusted, like its
 * config. Each case commits hostile files under `.skillopt-sleep/proposals/` to a repository, clones it
 * as a user would, runs one command, and checks that nothing outside the clone changed (a folder
 * beside it holds sentinel files) and that the foreign folder is reported, not acted on.
 */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PERSONAS, runCli, sandbox, type Sandbox } from './cli-helpers.js';

const TASKS = path.join(PERSONAS, 'researcher.tasks.json');
const FUTURE_ID = '20991231-235959-1';
const PAYLOAD = '#!/bin/sh\necho pwned\n';
const KNOWN = 'a file whose content the attacker knows\n';
const sha = (text: string): string => createHash('sha256').update(text).digest('hex');

interface Scene extends Sandbox {
  outside: string;
  /** Every path under `outside` with its type, mode and content hash. */
  before: Map<string, string>;
}

function snapshot(dir: string): Map<string, string> {
  const seen = new Map<string, string>();
  const walk = (p: string): void => {
    const st = lstatSync(p);
    const what = st.isDirectory() ? 'dir' : sha(readFileSync(p, 'latin1'));
    seen.set(path.relative(dir, p) || '.', `${what} ${(st.mode & 0o7777).toString(8)}`);
    if (st.isDirectory()) for (const name of readdirSync(p)) walk(path.join(p, name));
  };
  walk(dir);
  return seen;
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH ?? '',
      HOME: cwd,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_AUTHOR_NAME: 'Mallory',
      GIT_AUTHOR_EMAIL: 'm@example.com',
      GIT_COMMITTER_NAME: 'Mallory',
      GIT_COMMITTER_EMAIL: 'm@example.com',
    },
  });
}

/**
 * A repository holding `files` (paths relative to its root; a function gets the clone's path, which an
 * attacker would have to guess), cloned into the sandbox project, and a folder beside it to watch.
 */
function clonedScene(files: (project: string, outside: string) => Record<string, string>): Scene {
  const box = sandbox();
  const outside = path.join(box.root, 'outside');
  mkdirSync(path.join(outside, 'empty'), { recursive: true });
  writeFileSync(path.join(outside, 'sentinel.txt'), 'keep me\n');
  writeFileSync(path.join(outside, 'known.txt'), KNOWN);
  const origin = path.join(box.root, 'origin');
  mkdirSync(origin);
  git(origin, 'init', '-q', '-b', 'main');
  for (const [rel, text] of Object.entries(files(box.project, outside))) {
    mkdirSync(path.dirname(path.join(origin, rel)), { recursive: true });
    writeFileSync(path.join(origin, rel), text);
  }
  git(origin, 'add', '-A', '-f');
  git(origin, 'commit', '-q', '-m', 'helpful skill proposals');
  git(box.root, 'clone', '-q', origin, box.project);
  return { ...box, outside, before: snapshot(outside) };
}

function expectOutsideUnchanged(scene: Scene): void {
  expect(snapshot(scene.outside)).toEqual(scene.before);
}

const proposalFile = (id: string, name: string): string => `.skillopt-sleep/proposals/${id}/${name}`;
const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

/** A journal whose roll-back would delete, create (0755) and remove things outside the project. */
function hostileJournal(project: string, outside: string): Record<string, string> {
  const entry = (e: Record<string, unknown>) => ({
    beforeSha256: '',
    afterSha256: '',
    beforeCopy: '',
    mode: 0o644,
    tempPath: path.join(outside, 'none.tmp'),
    createdDir: '',
    ...e,
  });
  return {
    'payload.sh': PAYLOAD,
    [proposalFile('20250101-000000-1', '.transaction.json')]: json({
      schema: 'skillopt-sleep.transaction',
      version: 1,
      txId: '1-deadbeef',
      kind: 'adopt',
      proposalId: '20250101-000000-1',
      startedAt: 1,
      entries: [
        entry({
          livePath: path.join(outside, 'evil.sh'),
          writePath: path.join(outside, 'evil.sh'),
          beforeSha256: sha(PAYLOAD),
          beforeCopy: path.join(project, 'payload.sh'),
          mode: 0o755,
          tempPath: path.join(outside, 'sentinel.txt'),
        }),
        entry({
          livePath: path.join(outside, 'known.txt'),
          writePath: path.join(outside, 'known.txt'),
          afterSha256: sha(KNOWN),
        }),
        entry({
          livePath: path.join(outside, 'empty', 'x'),
          writePath: path.join(outside, 'empty', 'x'),
          createdDir: path.join(outside, 'empty'),
        }),
      ],
    }),
  };
}

/** A manifest of the far future that targets files outside the project. */
function hostileManifest(
  project: string,
  outside: string,
  extra: Record<string, unknown>,
  id = FUTURE_ID,
): Record<string, string> {
  const evil = '# pwned\n';
  return {
    [proposalFile(id, 'files/1-known.txt')]: evil,
    [proposalFile(id, 'files/2-SKILL.md')]: evil,
    [proposalFile(id, 'manifest.json')]: json({
      schema: 'skillopt-sleep.proposal',
      version: 1,
      id,
      project,
      night: 1,
      createdAt: Date.UTC(2099, 11, 31, 23, 59, 59),
      targets: [
        {
          kind: 'skill',
          livePath: path.join(outside, 'known.txt'),
          proposedFile: 'files/1-known.txt',
          baseSha256: sha(KNOWN),
          proposedSha256: sha(evil),
          allowOutside: true,
          name: 'known',
        },
        {
          kind: 'skill',
          livePath: path.join(outside, 'fresh', 'SKILL.md'),
          proposedFile: 'files/2-SKILL.md',
          baseSha256: '',
          proposedSha256: sha(evil),
          allowOutside: true,
          name: 'fresh',
        },
      ],
      ...extra,
    }),
  };
}

/** An inside-the-project manifest with a receipt whose targets lie outside. */
function hostileReceipt(project: string, outside: string, target: string): Record<string, string> {
  const text = '# inside\n';
  const inside = path.join(project, '.claude/skills/x/SKILL.md');
  return {
    'payload.sh': PAYLOAD,
    [proposalFile(FUTURE_ID, 'files/1-SKILL.md')]: text,
    [proposalFile(FUTURE_ID, 'manifest.json')]: json({
      schema: 'skillopt-sleep.proposal',
      version: 1,
      id: FUTURE_ID,
      project,
      night: 1,
      createdAt: Date.UTC(2099, 11, 31, 23, 59, 59),
      targets: [
        {
          kind: 'skill',
          livePath: inside,
          proposedFile: 'files/1-SKILL.md',
          baseSha256: '',
          proposedSha256: sha(text),
          name: 'x',
        },
      ],
    }),
    [proposalFile(FUTURE_ID, 'adopted.json')]: json({
      adoptedAt: 1,
      targets: [
        {
          livePath: path.join(outside, target),
          sha256Before: sha(PAYLOAD),
          sha256After: sha(target === 'known.txt' ? KNOWN : 'not there'),
          backupPath: path.join(project, 'payload.sh'),
        },
      ],
    }),
  };
}

describe('a crafted .transaction.json (item 1)', () => {
  const commands: Array<[string, string[], number]> = [
    ['status', ['status', '--json'], 0],
    ['proposals list', ['proposals', 'list', '--json'], 0],
    ['run', ['run', '--json', '--tasks-file', TASKS], 0],
    ['adopt', ['adopt', '--json'], 2],
    ['revert', ['revert', '--json'], 2],
    ['reject', ['reject', '20250101-000000-1', '--json'], 2],
  ];
  it.each(commands)('%s leaves everything outside the project alone', async (_name, args, code) => {
    const scene = clonedScene(hostileJournal);
    const r = await runCli(scene, args);
    expect(r.code, r.stderr).toBe(code);
    expect(r.stderr).not.toContain('rolled back');
    expect(r.stderr).toMatch(/not staged by this machine/);
    expectOutsideUnchanged(scene);
    expect(existsSync(path.join(scene.outside, 'evil.sh'))).toBe(false);
    // The foreign folder is left as it came: the user may inspect or delete it.
    expect(existsSync(path.join(scene.project, proposalFile('20250101-000000-1', '.transaction.json')))).toBe(
      true,
    );
  });
});

describe('a crafted manifest.json (item 2)', () => {
  it.each([
    ['allowOutside', {}],
    ['allowedRoots ["/"]', { allowedRoots: ['/'] }],
  ])('adopt of a far-future proposal with %s writes nothing outside', async (_name, extra) => {
    const scene = clonedScene((project, outside) => hostileManifest(project, outside, extra));
    const plain = await runCli(scene, ['adopt', '--json']);
    expect(plain.code).toBe(2);
    expect(plain.json()).toMatchObject({ ok: false, error: 'no_proposal' });
    const named = await runCli(scene, ['adopt', FUTURE_ID, '--json']);
    expect(named.code).toBe(2);
    expect(named.json()).toMatchObject({ ok: false, error: 'foreign_proposal' });
    expectOutsideUnchanged(scene);
  });

  it('a plain adopt takes the newest proposal this machine staged, not the far-future one', async () => {
    const scene = clonedScene((project, outside) => hostileManifest(project, outside, {}));
    const run = await runCli(scene, ['run', '--json', '--tasks-file', TASKS]);
    expect(run.code, run.stderr).toBe(0);
    const own = String(run.json().proposal_id);
    expect(own).not.toBe('');
    const listed = await runCli(scene, ['proposals', 'list', '--json']);
    const listing = listed.json() as { proposals: Array<{ id: string }>; foreign: Array<{ name: string }> };
    expect(listing.proposals.map((p) => p.id)).toEqual([own]);
    expect(listing.foreign.map((f) => f.name)).toEqual([FUTURE_ID]);
    const adopt = await runCli(scene, ['adopt', '--json']);
    expect(adopt.code, adopt.stderr).toBe(0);
    expect(adopt.json().proposal_id).toBe(own);
    expectOutsideUnchanged(scene);
  });
});

describe('a crafted adopted.json (item 3)', () => {
  it('revert does not overwrite a known file outside', async () => {
    const scene = clonedScene((project, outside) => hostileReceipt(project, outside, 'known.txt'));
    const r = await runCli(scene, ['revert', '--json']);
    expect(r.code).toBe(2);
    expect(r.json()).toMatchObject({ ok: false, error: 'no_adoption' });
    expectOutsideUnchanged(scene);
  });

  it('revert --force does not create a file outside', async () => {
    const scene = clonedScene((project, outside) => hostileReceipt(project, outside, 'created.sh'));
    for (const args of [
      ['revert', '--force', '--json'],
      ['revert', FUTURE_ID, '--force', '--json'],
    ]) {
      const r = await runCli(scene, args);
      expect(r.code).toBe(2);
    }
    expectOutsideUnchanged(scene);
    expect(existsSync(path.join(scene.outside, 'created.sh'))).toBe(false);
  });
});
