/** Adoption users can trust, through the built CLI in real temporary git repositories. */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, sandbox, spawnCli, type CliResult } from './cli-helpers.js';
import {
  HAND_ALPHA,
  HAND_BETA,
  HAND_MEMORY,
  git,
  initRepo,
  readOrNull,
  stageFixture,
} from './proposal-fixture.js';

const START = '<!-- SKILLOPT-SLEEP:LEARNED START -->';

function committedRepo() {
  const box = sandbox();
  initRepo(box.project);
  return box;
}

function commitAll(dir: string): void {
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'hand-written files');
}

describe('subset adoption', () => {
  it('adopts only the named skills, then the rest, and refuses a third time', async () => {
    const box = committedRepo();
    const f = await stageFixture(box);
    commitAll(box.project);

    const unknown = await runCli(box, ['adopt', '--skill', 'gamma', '--json']);
    expect(unknown.code).toBe(2);
    expect(unknown.json()).toMatchObject({ ok: false, error: 'invalid_selection' });

    const first = await runCli(box, ['adopt', '--skill', 'alpha', '--json']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.json().updated_paths).toEqual([f.alpha]);
    expect(readFileSync(f.alpha, 'utf8')).toBe(f.proposed.get(f.alpha));
    expect(readFileSync(f.beta, 'utf8')).toBe(HAND_BETA);
    expect(readFileSync(f.memory, 'utf8')).toBe(HAND_MEMORY);

    const listed = (await runCli(box, ['proposals', 'list', '--json'])).json() as {
      proposals: Array<{ status: string; targets: Array<{ name: string; adopted: boolean }> }>;
    };
    expect(listed.proposals[0]?.status).toBe('adopted');
    expect(listed.proposals[0]?.targets.map((t) => [t.name, t.adopted])).toEqual([
      ['alpha', true],
      ['beta', false],
      ['CLAUDE.md', false],
    ]);

    const rest = await runCli(box, ['adopt', '--all-skills', '--memory', '--json']);
    expect(rest.code, rest.stderr).toBe(0);
    expect(rest.json().updated_paths).toEqual([f.beta, f.memory]);
    for (const [file, text] of f.proposed) expect(readFileSync(file, 'utf8')).toBe(text);

    const again = await runCli(box, ['adopt', '--json']);
    expect(again.code).toBe(2);
    expect(again.json()).toMatchObject({ error: 'already_adopted' });
  });
});

describe('refusals', () => {
  it('refuses (exit 2) and writes nothing when one live file changed since staging', async () => {
    const box = committedRepo();
    const f = await stageFixture(box);
    writeFileSync(f.beta, `${HAND_BETA}my edit\r\n`);
    const r = await runCli(box, ['adopt', '--json']);
    expect(r.code).toBe(2);
    expect(r.json()).toMatchObject({ ok: false, error: 'live_changed' });
    expect(String(r.json().message)).toContain(f.beta);
    expect(readFileSync(f.alpha, 'utf8')).toBe(HAND_ALPHA);
    expect(readFileSync(f.memory, 'utf8')).toBe(HAND_MEMORY);
    expect(existsSync(path.join(f.staged.dir, 'adopted.json'))).toBe(false);
  });

  it('refuses a rejected proposal; reject refuses an adopted one', async () => {
    const box = sandbox();
    const f = await stageFixture(box);
    const rejected = await runCli(box, ['reject', f.staged.id, '--reason', 'not now']);
    expect(rejected.code, rejected.stderr).toBe(0);
    const adopt = await runCli(box, ['adopt', '--json']);
    expect(adopt.code).toBe(2);
    expect(adopt.json()).toMatchObject({ error: 'rejected' });
    expect(readFileSync(f.alpha, 'utf8')).toBe(HAND_ALPHA);

    // A newer proposal for the same files, rejected: plain `adopt` takes the older one again.
    const box3 = sandbox();
    const h = await stageFixture(box3);
    const newer = await stageFixture(box3, { now: Date.UTC(2026, 0, 2, 3, 0, 0), withFresh: true });
    expect((await runCli(box3, ['reject', newer.staged.id])).code).toBe(0);
    const older = await runCli(box3, ['adopt', '--json']);
    expect(older.code, older.stderr).toBe(0);
    expect(older.json().proposal_id).toBe(h.staged.id);

    const box2 = sandbox();
    const g = await stageFixture(box2);
    expect((await runCli(box2, ['adopt'])).code).toBe(0);
    const late = await runCli(box2, ['reject', g.staged.id, '--json']);
    expect(late.code).toBe(2);
    expect(late.json()).toMatchObject({ error: 'already_adopted' });
  });
});

describe('revert', () => {
  it('restores every file byte for byte, removes a created skill, and marks the proposal reverted', async () => {
    const box = committedRepo();
    const f = await stageFixture(box, { withFresh: true });
    expect((await runCli(box, ['adopt'])).code).toBe(0);
    for (const [file, text] of f.proposed) expect(readFileSync(file, 'utf8')).toBe(text);
    // Hand-written text outside the learned block is byte-identical after adoption.
    expect(readFileSync(f.alpha, 'utf8').startsWith(HAND_ALPHA)).toBe(true);
    expect(readFileSync(f.beta, 'utf8').startsWith(HAND_BETA)).toBe(true);
    expect(readFileSync(f.memory, 'utf8').startsWith(HAND_MEMORY)).toBe(true);
    expect(readFileSync(f.memory, 'utf8')).toContain(START);

    const r = await runCli(box, ['revert', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toMatchObject({ ok: true, proposal_id: f.staged.id, forced: false });
    for (const [file, text] of f.originals) expect(readOrNull(file)).toBe(text);
    expect(existsSync(path.dirname(f.fresh))).toBe(false);

    const list = await runCli(box, ['proposals', 'list']);
    expect(list.stdout).toContain('reverted');
    expect((await runCli(box, ['revert', f.staged.id, '--json'])).json()).toMatchObject({
      error: 'already_reverted',
    });
    expect((await runCli(box, ['adopt', '--json'])).json()).toMatchObject({ error: 'reverted' });
  });

  it('refuses when a file was edited after adoption, and --force keeps the edit in revert-backup', async () => {
    const box = sandbox();
    const f = await stageFixture(box);
    expect((await runCli(box, ['adopt'])).code).toBe(0);
    const edited = `${f.proposed.get(f.alpha) ?? ''}my later edit\n`;
    writeFileSync(f.alpha, edited);

    const refused = await runCli(box, ['revert', '--json']);
    expect(refused.code).toBe(2);
    expect(refused.json()).toMatchObject({ error: 'live_changed' });
    expect(readFileSync(f.alpha, 'utf8')).toBe(edited);
    expect(readFileSync(f.beta, 'utf8')).toBe(f.proposed.get(f.beta));

    const forced = await runCli(box, ['revert', '--force', '--json']);
    expect(forced.code, forced.stderr).toBe(0);
    for (const [file, text] of f.originals) expect(readOrNull(file)).toBe(text);
    const kept = (forced.json().targets as Array<{ livePath: string; backupPath: string }>).find(
      (t) => t.livePath === f.alpha,
    );
    expect(readFileSync(kept?.backupPath ?? '', 'utf8')).toBe(edited);
  });

  it('says nothing to revert when nothing was adopted', async () => {
    const box = sandbox();
    await stageFixture(box);
    const r = await runCli(box, ['revert', '--json']);
    expect(r.code).toBe(2);
    expect(r.json()).toMatchObject({ error: 'no_adoption' });
  });
});

describe('adopt --commit', () => {
  it('commits exactly the touched files and leaves an unrelated staged file staged and uncommitted', async () => {
    const box = committedRepo();
    const f = await stageFixture(box, { withFresh: true });
    commitAll(box.project);
    writeFileSync(path.join(box.project, 'notes.txt'), 'mine, staged on purpose\n');
    git(box.project, 'add', 'notes.txt');
    writeFileSync(path.join(box.project, 'scratch.txt'), 'untracked, left alone\n');

    const r = await runCli(box, ['adopt', '--commit', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().git).toMatchObject({ status: 'committed' });

    const files = git(box.project, 'show', '--name-only', '--format=', 'HEAD').trim().split('\n').sort();
    expect(files).toEqual(
      [
        '.agents/skills/beta/SKILL.md',
        '.claude/skills/alpha/SKILL.md',
        '.claude/skills/fresh/SKILL.md',
        'CLAUDE.md',
      ].sort(),
    );
    const message = git(box.project, 'log', '-1', '--format=%B');
    expect(message).toContain(f.staged.id);
    expect(message).toContain('0.250 -> 0.750');
    expect(git(box.project, 'diff', '--cached', '--name-only').trim()).toBe('notes.txt');
    expect(git(box.project, 'status', '--porcelain', '--', 'scratch.txt').trim()).toBe('?? scratch.txt');
    expect(git(box.project, 'status', '--porcelain', '--', '.claude', '.agents', 'CLAUDE.md').trim()).toBe(
      '',
    );
  });

  it('revert --commit commits exactly the restored files', async () => {
    const box = committedRepo();
    const f = await stageFixture(box, { withFresh: true });
    commitAll(box.project);
    expect((await runCli(box, ['adopt', '--commit'])).code).toBe(0);
    writeFileSync(path.join(box.project, 'notes.txt'), 'staged\n');
    git(box.project, 'add', 'notes.txt');
    const r = await runCli(box, ['revert', '--commit', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().git).toMatchObject({ status: 'committed' });
    for (const [file, text] of f.originals) expect(readOrNull(file)).toBe(text);
    const files = git(box.project, 'show', '--name-only', '--format=', 'HEAD').trim().split('\n').sort();
    expect(files).toEqual(
      [
        '.agents/skills/beta/SKILL.md',
        '.claude/skills/alpha/SKILL.md',
        '.claude/skills/fresh/SKILL.md',
        'CLAUDE.md',
      ].sort(),
    );
    expect(git(box.project, 'log', '-1', '--format=%s')).toContain(`revert proposal ${f.staged.id}`);
    expect(git(box.project, 'diff', '--cached', '--name-only').trim()).toBe('notes.txt');
    expect(git(box.project, 'status', '--porcelain', '--', '.claude', '.agents', 'CLAUDE.md').trim()).toBe(
      '',
    );
  });

  it('refuses before writing anything when a touched file has uncommitted edits', async () => {
    const box = committedRepo();
    writeFileSync(path.join(box.project, 'README'), 'x\n');
    commitAll(box.project);
    // The hand-written files exist at staging but were never committed: uncommitted user work.
    const f = await stageFixture(box);
    const r = await runCli(box, ['adopt', '--commit', '--json']);
    expect(r.code).toBe(2);
    expect(r.json()).toMatchObject({ error: 'uncommitted_changes' });
    for (const [file, text] of f.originals) expect(readOrNull(file)).toBe(text);
    expect(git(box.project, 'log', '--oneline').trim().split('\n')).toHaveLength(1);
  });

  it('outside a git repository says so and adopts without committing', async () => {
    const box = sandbox();
    const f = await stageFixture(box);
    const r = await runCli(box, ['adopt', '--commit']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('not inside a git repository');
    for (const [file, text] of f.proposed) expect(readFileSync(file, 'utf8')).toBe(text);
  });

  it('adopt_commit in the user config commits; --no-commit overrides it', async () => {
    const box = committedRepo();
    await stageFixture(box);
    commitAll(box.project);
    // The user's own config: a project's config may not turn adopt_commit on (it comes with the repository).
    mkdirSync(box.stateHome, { recursive: true });
    writeFileSync(path.join(box.stateHome, 'config.json'), '{"adopt_commit": true}\n');
    const off = await runCli(box, ['adopt', '--skill', 'alpha', '--no-commit', '--json']);
    expect(off.code, off.stderr).toBe(0);
    expect(off.json().git).toBeUndefined();
    git(box.project, 'commit', '-q', '-m', 'by hand', '--', '.claude/skills/alpha/SKILL.md');
    const on = await runCli(box, ['adopt', '--skill', 'beta', '--json']);
    expect(on.code, on.stderr).toBe(0);
    expect(on.json().git).toMatchObject({ status: 'committed', paths: ['.agents/skills/beta/SKILL.md'] });
  });
});

// Stays spawned: simple-git runs git with the process's environment, not the CLI's injected env, so
// this sandbox's git setup only reaches git from a separate process.
const spawnedCli = (...args: Parameters<typeof spawnCli>): Promise<CliResult> =>
  Promise.resolve(spawnCli(...args));

describe('--commit when git cannot commit', () => {
  /** A repository whose commits fail: no identity, and git may not guess one. */
  function repoWithoutIdentity() {
    const box = sandbox();
    git(box.project, 'init', '-q', '-b', 'main');
    git(box.project, 'config', 'user.useConfigOnly', 'true');
    git(box.project, 'config', 'commit.gpgsign', 'false');
    return box;
  }

  it('adopt --commit writes the files, says they were not committed, and exits 1', async () => {
    const box = repoWithoutIdentity();
    const f = await stageFixture(box);
    git(box.project, 'add', '-A');
    git(box.project, '-c', 'user.name=T', '-c', 'user.email=t@example.com', 'commit', '-q', '-m', 'base');
    const r = await spawnedCli(box, ['adopt', '--commit']);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toContain(`adopted ${f.staged.id}`);
    expect(r.stderr).toContain('the files were written but not committed');
    expect(r.stderr).not.toMatch(/\[sleep\][^\n]*\[sleep\]/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    for (const [file, text] of f.proposed) expect(readFileSync(file, 'utf8')).toBe(text);
  });

  it('adopt --commit --json fails with commit_failed', async () => {
    const box = repoWithoutIdentity();
    await stageFixture(box);
    git(box.project, 'add', '-A');
    git(box.project, '-c', 'user.name=T', '-c', 'user.email=t@example.com', 'commit', '-q', '-m', 'base');
    const r = await spawnedCli(box, ['adopt', '--commit', '--json']);
    expect(r.code).toBe(1);
    expect(r.json()).toMatchObject({ ok: false, error: 'commit_failed' });
    expect(String(r.json().message)).toContain('the files were written but not committed');
  });

  it('revert --commit refuses uncommitted targets in revert wording', async () => {
    const box = committedRepo();
    await stageFixture(box);
    commitAll(box.project);
    expect((await spawnedCli(box, ['adopt'])).code).toBe(0); // adopted, not committed: the targets are dirty
    const r = await spawnedCli(box, ['revert', '--commit']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('cannot commit the revert');
    expect(r.stderr).toContain('or revert without --commit');
    expect(r.stderr).not.toMatch(/adopt/);
  });
});

describe('proposals show and diff', () => {
  it('prints the report and the diff without control characters', async () => {
    const box = sandbox();
    const f = await stageFixture(box);
    const show = await spawnedCli(box, ['proposals', 'show', f.staged.id]);
    expect(show.code, show.stderr).toBe(0);
    expect(show.stdout).toContain('Untrusted red text.');
    // The report reads as text on a terminal; report.md keeps its Markdown escapes.
    expect(show.stdout).toContain('- [skill/add] Match inst_1 with [\\s\\S]\n');
    expect(readFileSync(path.join(f.staged.dir, 'report.md'), 'utf8')).toContain('inst\\_1');
    // eslint-disable-next-line no-control-regex
    expect(show.stdout).not.toMatch(/\u001b/);
    const diff = await spawnedCli(box, ['proposals', 'diff', f.staged.id]);
    expect(diff.code).toBe(0);
    expect(diff.stdout).toContain('+- Use pnpm, never npm.');
    expect(diff.stdout).toContain('--- a/.claude/skills/alpha/SKILL.md');
    const missing = await spawnedCli(box, ['proposals', 'show', '20200101-000000-1', '--json']);
    expect(missing.code).toBe(2);
  });
});
