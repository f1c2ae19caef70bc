import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sha256Hex } from '../src/core/hash.js';
import { adoptProposal } from './adopt.js';
import { stageProposal } from './stage.js';
import type { StageTarget } from './types.js';
import { ledgerFor, memoryLedger } from './test-helpers.js';

const NOW = Date.UTC(2025, 0, 2, 3, 4, 5);
const LATER = NOW + 60_000;

const tempDirs: string[] = [];
function tempProject(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'proposals-adopt-'));
  tempDirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of tempDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

interface Fixture {
  project: string;
  skillPath: string;
  memoryPath: string;
}

/** A project with an existing skill (mode 0600) and no memory file yet. */
function fixture(): Fixture {
  const project = tempProject();
  const skillPath = path.join(project, '.claude/skills/deploy/SKILL.md');
  fs.mkdirSync(path.dirname(skillPath), { recursive: true });
  fs.writeFileSync(skillPath, 'old skill\n');
  fs.chmodSync(skillPath, 0o600);
  return { project, skillPath, memoryPath: path.join(project, 'docs/agents/CLAUDE.md') };
}

async function stage(f: Fixture, targets?: StageTarget[], now = NOW) {
  return stageProposal({
    projectDir: f.project,
    ledger: ledgerFor(f.project),
    night: 3,
    now,
    targets: targets ?? [
      { kind: 'skill', livePath: f.skillPath, baseText: 'old skill\n', proposedText: 'new skill\n' },
      { kind: 'memory', livePath: f.memoryPath, baseText: null, proposedText: 'memory\n' },
    ],
    reportMd: '# r\n',
    reportJson: {},
  });
}

describe('adoptProposal', () => {
  it('writes exactly the proposed bytes, backs up, and records a receipt', async () => {
    const f = fixture();
    const staged = await stage(f);
    const receipt = await adoptProposal({ projectDir: f.project, ledger: ledgerFor(f.project), now: LATER });

    expect(receipt.id).toBe(staged.id);
    expect(receipt.dir).toBe(staged.dir);
    expect(receipt.updatedPaths).toEqual([f.skillPath, f.memoryPath]);
    expect(fs.readFileSync(f.skillPath, 'utf8')).toBe('new skill\n');
    expect(fs.readFileSync(f.memoryPath, 'utf8')).toBe('memory\n');
    expect(fs.statSync(f.skillPath).mode & 0o777).toBe(0o600);
    expect(fs.statSync(f.memoryPath).mode & 0o777).toBe(0o644);

    const backupPath = path.join(staged.dir, 'backup/1-SKILL.md');
    expect(fs.readFileSync(backupPath, 'utf8')).toBe('old skill\n');
    expect(fs.existsSync(path.join(staged.dir, 'backup/2-CLAUDE.md'))).toBe(false);
    expect(fs.existsSync(path.join(staged.dir, '.adopt.lock'))).toBe(false);

    const txId = receipt.targets[0]?.txId;
    expect(txId).toMatch(/^\d+-[0-9a-f]{8}$/);
    const expectedTargets = [
      {
        livePath: f.skillPath,
        sha256Before: sha256Hex('old skill\n'),
        sha256After: sha256Hex('new skill\n'),
        backupPath,
        kind: 'skill',
        name: 'deploy',
        adoptedAt: LATER,
        txId,
      },
      {
        livePath: f.memoryPath,
        sha256Before: '',
        sha256After: sha256Hex('memory\n'),
        backupPath: '',
        kind: 'memory',
        name: 'CLAUDE.md',
        adoptedAt: LATER,
        txId,
        createdDir: path.join(f.project, 'docs'),
      },
    ];
    expect(receipt.targets).toEqual(expectedTargets);
    expect(JSON.parse(fs.readFileSync(path.join(staged.dir, 'adopted.json'), 'utf8'))).toEqual({
      adoptedAt: LATER,
      targets: expectedTargets,
    });
    // The journal is gone once the receipt is written.
    expect(fs.existsSync(path.join(staged.dir, '.transaction.json'))).toBe(false);
  });

  it('refuses a second adopt with already_adopted', async () => {
    const f = fixture();
    const staged = await stage(f);
    await adoptProposal({ projectDir: f.project, ledger: ledgerFor(f.project), now: LATER });
    await expect(
      adoptProposal({ projectDir: f.project, ledger: ledgerFor(f.project), now: LATER + 1 }),
    ).rejects.toMatchObject({
      name: 'AdoptRefusedError',
      code: 'already_adopted',
      exitCode: 2,
      message: `proposal ${staged.id} was already adopted at ${new Date(LATER).toISOString()}`,
    });
  });

  it('applies only once when two adopts race', async () => {
    const f = fixture();
    await stage(f);
    const results = await Promise.allSettled([
      adoptProposal({ projectDir: f.project, ledger: ledgerFor(f.project), now: LATER }),
      adoptProposal({ projectDir: f.project, ledger: ledgerFor(f.project), now: LATER }),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const rejected = results.find((r) => r.status === 'rejected');
    expect(['adopt_in_progress', 'already_adopted']).toContain((rejected?.reason as { code: string }).code);
    expect(fs.readFileSync(f.skillPath, 'utf8')).toBe('new skill\n');
  });

  it('refuses while a lock file exists and names it', async () => {
    const f = fixture();
    const staged = await stage(f);
    const lock = path.join(staged.dir, '.adopt.lock');
    fs.writeFileSync(lock, '{}');
    await expect(
      adoptProposal({ projectDir: f.project, ledger: ledgerFor(f.project), now: LATER }),
    ).rejects.toMatchObject({
      code: 'adopt_in_progress',
      message: expect.stringContaining(lock),
    });
    expect(fs.existsSync(lock)).toBe(true);
    expect(fs.readFileSync(f.skillPath, 'utf8')).toBe('old skill\n');
  });

  it('refuses and writes nothing when a live file changed after staging', async () => {
    const f = fixture();
    const staged = await stage(f);
    fs.writeFileSync(f.skillPath, 'hand edit\n');
    await expect(
      adoptProposal({ projectDir: f.project, ledger: ledgerFor(f.project), now: LATER }),
    ).rejects.toMatchObject({
      name: 'AdoptRefusedError',
      code: 'live_changed',
      message: `${f.skillPath} changed since the proposal was staged; rerun the night or merge by hand`,
    });
    expect(fs.readFileSync(f.skillPath, 'utf8')).toBe('hand edit\n');
    expect(fs.existsSync(f.memoryPath)).toBe(false);
    expect(fs.existsSync(path.join(staged.dir, 'adopted.json'))).toBe(false);
    expect(fs.existsSync(path.join(staged.dir, 'backup'))).toBe(false);
  });

  it('refuses when a file that was absent at staging now exists', async () => {
    const f = fixture();
    await stage(f);
    fs.mkdirSync(path.dirname(f.memoryPath), { recursive: true });
    fs.writeFileSync(f.memoryPath, 'someone wrote this\n');
    await expect(
      adoptProposal({ projectDir: f.project, ledger: ledgerFor(f.project), now: LATER }),
    ).rejects.toMatchObject({
      code: 'live_changed',
      message: expect.stringContaining(f.memoryPath),
    });
    expect(fs.readFileSync(f.skillPath, 'utf8')).toBe('old skill\n');
    expect(fs.readFileSync(f.memoryPath, 'utf8')).toBe('someone wrote this\n');
  });

  it('creates a missing live file and its parent directories', async () => {
    const f = fixture();
    const deep = path.join(f.project, 'a/b/c/AGENTS.md');
    await stage(f, [{ kind: 'memory', livePath: deep, baseText: null, proposedText: 'agents\n' }]);
    const receipt = await adoptProposal({ projectDir: f.project, ledger: ledgerFor(f.project), now: LATER });
    expect(fs.readFileSync(deep, 'utf8')).toBe('agents\n');
    expect(receipt.targets[0]?.backupPath).toBe('');
  });

  it('rolls back the first target when writing the second fails', async () => {
    const f = fixture();
    const blocked = path.join(f.project, 'blocker/CLAUDE.md');
    const staged = await stage(f, [
      { kind: 'skill', livePath: f.skillPath, baseText: 'old skill\n', proposedText: 'new skill\n' },
      { kind: 'memory', livePath: blocked, baseText: null, proposedText: 'memory\n' },
    ]);
    // The second target's parent becomes a regular file, so its write fails after the first succeeded.
    fs.writeFileSync(path.join(f.project, 'blocker'), 'not a directory');
    const before = fs.readFileSync(f.skillPath);

    await expect(
      adoptProposal({ projectDir: f.project, ledger: ledgerFor(f.project), now: LATER }),
    ).rejects.toMatchObject({
      name: 'IoError',
      message: expect.stringContaining('nothing was adopted'),
    });
    expect(fs.readFileSync(f.skillPath).equals(before)).toBe(true);
    expect(fs.statSync(f.skillPath).mode & 0o777).toBe(0o600);
    expect(fs.existsSync(path.join(staged.dir, 'adopted.json'))).toBe(false);
    expect(fs.existsSync(path.join(staged.dir, '.adopt.lock'))).toBe(false);

    // Once the obstacle is gone the same proposal adopts cleanly.
    fs.rmSync(path.join(f.project, 'blocker'));
    await adoptProposal({ projectDir: f.project, ledger: ledgerFor(f.project), now: LATER });
    expect(fs.readFileSync(blocked, 'utf8')).toBe('memory\n');
  });

  it('removes directories it created when rolling back a new file', async () => {
    const f = fixture();
    const created = path.join(f.project, 'new/dir/SKILL.md');
    await stage(f, [
      { kind: 'skill', livePath: created, baseText: null, proposedText: 'x\n' },
      {
        kind: 'memory',
        livePath: path.join(f.project, 'blocker/CLAUDE.md'),
        baseText: null,
        proposedText: 'm\n',
      },
    ]);
    fs.writeFileSync(path.join(f.project, 'blocker'), 'file');
    await expect(
      adoptProposal({ projectDir: f.project, ledger: ledgerFor(f.project), now: LATER }),
    ).rejects.toMatchObject({
      name: 'IoError',
    });
    expect(fs.existsSync(path.join(f.project, 'new'))).toBe(false);
  });

  it('detects a proposed file modified after staging', async () => {
    const f = fixture();
    const staged = await stage(f);
    fs.writeFileSync(path.join(staged.dir, 'files/1-SKILL.md'), 'tampered\n');
    await expect(
      adoptProposal({ projectDir: f.project, ledger: ledgerFor(f.project), now: LATER }),
    ).rejects.toMatchObject({
      name: 'InputError',
      code: 'proposal_modified',
      message: expect.stringContaining(`proposal ${staged.id} was modified after staging`),
    });
    expect(fs.readFileSync(f.skillPath, 'utf8')).toBe('old skill\n');
  });

  it('detects a tampered manifest hash', async () => {
    const f = fixture();
    const staged = await stage(f);
    const manifestPath = path.join(staged.dir, 'manifest.json');
    const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8'));
    manifest.targets[1].proposedSha256 = sha256Hex('something else');
    fs.writeFileSync(manifestPath, JSON.stringify(manifest));
    await expect(
      adoptProposal({ projectDir: f.project, ledger: ledgerFor(f.project), id: staged.id, now: LATER }),
    ).rejects.toMatchObject({
      code: 'proposal_modified',
    });
    expect(fs.existsSync(f.memoryPath)).toBe(false);
  });

  it('refuses a manifest edited to point outside the project: the store recorded another', async () => {
    const f = fixture();
    const staged = await stage(f);
    const outside = path.join(tempProject(), 'victim.md');
    const manifestPath = path.join(staged.dir, 'manifest.json');
    const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8'));
    manifest.targets[1].livePath = outside;
    fs.writeFileSync(manifestPath, JSON.stringify(manifest));
    // Not a candidate for a plain adopt, and refused by id.
    await expect(
      adoptProposal({ projectDir: f.project, ledger: ledgerFor(f.project), now: LATER }),
    ).rejects.toMatchObject({ code: 'no_proposal' });
    await expect(
      adoptProposal({ projectDir: f.project, ledger: ledgerFor(f.project), id: staged.id, now: LATER }),
    ).rejects.toMatchObject({
      name: 'InputError',
      code: 'proposal_modified',
      message: expect.stringContaining('differs from what the store recorded'),
    });
    expect(fs.existsSync(outside)).toBe(false);
  });

  it('refuses a malformed manifest with InputError', async () => {
    const f = fixture();
    const staged = await stage(f);
    fs.writeFileSync(path.join(staged.dir, 'manifest.json'), '{"schema":"skillopt-sleep.proposal"}');
    await expect(
      adoptProposal({ projectDir: f.project, ledger: ledgerFor(f.project), id: staged.id, now: LATER }),
    ).rejects.toMatchObject({ name: 'InputError', code: 'proposal_modified' });
  });

  it('refuses a proposal the store never staged, even a well-formed one', async () => {
    const f = fixture();
    const staged = await stage(f);
    await expect(
      adoptProposal({ projectDir: f.project, ledger: memoryLedger(), id: staged.id, now: LATER }),
    ).rejects.toMatchObject({ code: 'foreign_proposal', exitCode: 2 });
    await expect(
      adoptProposal({ projectDir: f.project, ledger: memoryLedger(), now: LATER }),
    ).rejects.toMatchObject({ code: 'no_proposal' });
    expect(fs.readFileSync(f.skillPath, 'utf8')).toBe('old skill\n');
  });

  it('refuses with no_proposal when nothing was staged', async () => {
    const f = fixture();
    await expect(
      adoptProposal({ projectDir: f.project, ledger: ledgerFor(f.project), now: LATER }),
    ).rejects.toMatchObject({
      name: 'AdoptRefusedError',
      code: 'no_proposal',
      message: `nothing to adopt: no staged proposal in ${f.project}`,
    });
    await expect(
      adoptProposal({
        projectDir: f.project,
        ledger: ledgerFor(f.project),
        id: '20250101-000000-1',
        now: LATER,
      }),
    ).rejects.toMatchObject({ code: 'no_proposal' });
    await expect(
      adoptProposal({ projectDir: f.project, ledger: ledgerFor(f.project), id: '../escape', now: LATER }),
    ).rejects.toMatchObject({
      name: 'InputError',
    });
  });

  it('adopts the latest proposal by default and a named one on request', async () => {
    const f = fixture();
    const older = await stage(f, [
      { kind: 'skill', livePath: f.skillPath, baseText: 'old skill\n', proposedText: 'older\n' },
    ]);
    await stage(
      f,
      [{ kind: 'skill', livePath: f.skillPath, baseText: 'old skill\n', proposedText: 'newer\n' }],
      LATER,
    );
    const receipt = await adoptProposal({
      projectDir: f.project,
      ledger: ledgerFor(f.project),
      now: LATER + 1,
    });
    expect(receipt.id).not.toBe(older.id);
    expect(fs.readFileSync(f.skillPath, 'utf8')).toBe('newer\n');
    // The newer proposal targets the same file, so the older one is superseded.
    await expect(
      adoptProposal({ projectDir: f.project, ledger: ledgerFor(f.project), id: older.id, now: LATER + 2 }),
    ).rejects.toMatchObject({
      code: 'superseded',
    });
  });

  it('writes through a symlinked live file, keeping the link', async () => {
    const f = fixture();
    const real = path.join(f.project, 'AGENTS.md');
    const link = path.join(f.project, 'CLAUDE.md');
    fs.writeFileSync(real, 'shared\n');
    fs.symlinkSync('AGENTS.md', link);
    await stage(f, [{ kind: 'memory', livePath: link, baseText: 'shared\n', proposedText: 'shared v2\n' }]);
    await adoptProposal({ projectDir: f.project, ledger: ledgerFor(f.project), now: LATER });
    expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
    expect(fs.readFileSync(real, 'utf8')).toBe('shared v2\n');
  });

  it('refuses a target outside the project that is not inside the allowed skill folders', async () => {
    const f = fixture();
    const elsewhere = tempProject();
    const allowedRoot = tempProject();
    const victim = path.join(elsewhere, 'skills/x/SKILL.md');
    fs.mkdirSync(path.dirname(victim), { recursive: true });
    fs.writeFileSync(victim, 'theirs\n');
    await stageProposal({
      projectDir: f.project,
      ledger: ledgerFor(f.project),
      night: 1,
      now: NOW,
      targets: [
        { kind: 'skill', livePath: victim, baseText: 'theirs\n', proposedText: 'ours\n', allowOutside: true },
      ],
      allowedRoots: [allowedRoot],
      reportMd: '',
      reportJson: {},
    });
    await expect(
      adoptProposal({ projectDir: f.project, ledger: ledgerFor(f.project), now: LATER }),
    ).rejects.toMatchObject({
      code: 'outside_roots',
      exitCode: 2,
    });
    expect(fs.readFileSync(victim, 'utf8')).toBe('theirs\n');
  });
});
