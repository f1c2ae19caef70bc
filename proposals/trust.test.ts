import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../src/core/hash.js';
import { adoptProposal } from './adopt.js';
import { recoverProject } from './recover.js';
import { revertProposal } from './revert.js';
import { stageProposal } from './stage.js';
import { memoryLedger } from './test-helpers.js';
import { JOURNAL_FILE } from './transaction.js';
import { backupPathOf, checkReceiptTargets, judgeProposal } from './trust.js';
import type { AdoptedTarget } from './types.js';

const NOW = Date.UTC(2025, 0, 2, 3, 4, 5);

function scene() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'proposals-trust-'));
  const project = path.join(root, 'project');
  const outside = path.join(root, 'outside');
  fs.mkdirSync(outside, { recursive: true });
  fs.writeFileSync(path.join(outside, 'known.txt'), 'known\n');
  const skill = path.join(project, '.claude/skills/x/SKILL.md');
  fs.mkdirSync(path.dirname(skill), { recursive: true });
  fs.writeFileSync(skill, 'old\n');
  return { project, outside, skill, ledger: memoryLedger() };
}

async function stage(s: ReturnType<typeof scene>) {
  return stageProposal({
    projectDir: s.project,
    ledger: s.ledger,
    night: 1,
    now: NOW,
    targets: [{ kind: 'skill', livePath: s.skill, baseText: 'old\n', proposedText: 'new\n' }],
    reportMd: '',
    reportJson: {},
  });
}

describe('judgeProposal', () => {
  it('trusts the manifest the store recorded, and nothing else', async () => {
    const s = scene();
    const staged = await stage(s);
    expect((await judgeProposal(staged.dir, staged.id, s.ledger)).kind).toBe('ours');
    expect(await judgeProposal(staged.dir, staged.id, memoryLedger())).toMatchObject({ kind: 'foreign' });
    fs.appendFileSync(path.join(staged.dir, 'manifest.json'), ' ');
    expect(await judgeProposal(staged.dir, staged.id, s.ledger)).toMatchObject({ kind: 'altered' });
  });

  it('believes a proposal staged before manifests were recorded only for the files its row names', async () => {
    const s = scene();
    const staged = await stage(s);
    const legacy = memoryLedger();
    const text = fs.readFileSync(path.join(staged.dir, 'manifest.json'), 'utf8');
    const row = (targets: string[]) => ({
      dir: staged.dir,
      record: { manifest: null, targets },
      journal: null,
    });
    legacy.rows.set(staged.id, row([s.skill]));
    expect((await judgeProposal(staged.dir, staged.id, legacy)).kind).toBe('ours');
    legacy.rows.set(staged.id, row([path.join(s.project, 'other.md')]));
    expect((await judgeProposal(staged.dir, staged.id, legacy)).kind).toBe('altered');
    // An outside target or allowed roots are never taken from an unrecorded manifest.
    legacy.rows.set(staged.id, row([s.skill]));
    const manifest = JSON.parse(text) as { targets: Array<Record<string, unknown>>; allowedRoots?: string[] };
    manifest.allowedRoots = ['/'];
    fs.writeFileSync(path.join(staged.dir, 'manifest.json'), JSON.stringify(manifest));
    expect((await judgeProposal(staged.dir, staged.id, legacy)).kind).toBe('altered');
  });
});

describe('checkReceiptTargets', () => {
  it('accepts what adoption writes and refuses any other path, hash or backup', async () => {
    const s = scene();
    const staged = await stage(s);
    const good: AdoptedTarget = {
      livePath: s.skill,
      sha256Before: sha256Hex('old\n'),
      sha256After: sha256Hex('new\n'),
      backupPath: backupPathOf(staged.dir, 0, s.skill),
    };
    expect(checkReceiptTargets(staged.manifest, staged.dir, [good])).toEqual([{ target: good, index: 0 }]);
    const bad: AdoptedTarget[] = [
      { ...good, livePath: path.join(s.outside, 'known.txt') },
      { ...good, sha256Before: sha256Hex('payload') },
      { ...good, backupPath: path.join(s.outside, 'known.txt') },
    ];
    for (const target of bad) {
      expect(() => checkReceiptTargets(staged.manifest, staged.dir, [target])).toThrow(/adopted\.json names/);
    }
    expect(() => checkReceiptTargets(staged.manifest, staged.dir, [good, good])).toThrow(/twice/);
  });

  it('keeps revert from removing folders up a path the receipt made up', async () => {
    const s = scene();
    const fresh = path.join(s.project, 'new/deeper/SKILL.md');
    const staged = await stageProposal({
      projectDir: s.project,
      ledger: s.ledger,
      night: 1,
      now: NOW,
      targets: [{ kind: 'skill', livePath: fresh, baseText: null, proposedText: 'new\n' }],
      reportMd: '',
      reportJson: {},
    });
    await adoptProposal({ projectDir: s.project, ledger: s.ledger, now: NOW + 1 });
    const receiptPath = path.join(staged.dir, 'adopted.json');
    const receipt = JSON.parse(fs.readFileSync(receiptPath, 'utf8')) as { targets: AdoptedTarget[] };
    expect(receipt.targets[0]?.createdDir).toBe(path.join(s.project, 'new'));
    const empty = path.join(s.outside, 'empty');
    fs.mkdirSync(empty);
    receipt.targets[0] = { ...receipt.targets[0], createdDir: empty } as AdoptedTarget;
    fs.writeFileSync(receiptPath, JSON.stringify(receipt));
    await revertProposal({ projectDir: s.project, ledger: s.ledger, now: NOW + 2 });
    expect(fs.existsSync(fresh)).toBe(false);
    expect(fs.existsSync(empty)).toBe(true);
  });
});

describe('recovery', () => {
  it('never reads a journal file the store did not record, even in one of our proposals', async () => {
    const s = scene();
    const staged = await stage(s);
    const victim = path.join(s.outside, 'known.txt');
    fs.writeFileSync(
      path.join(staged.dir, JOURNAL_FILE),
      JSON.stringify({
        schema: 'skillopt-sleep.transaction',
        version: 1,
        txId: '1-deadbeef',
        kind: 'adopt',
        proposalId: staged.id,
        startedAt: 1,
        entries: [
          {
            livePath: victim,
            writePath: victim,
            beforeSha256: '',
            afterSha256: sha256Hex('known\n'),
            beforeCopy: '',
            mode: 0o755,
            tempPath: victim,
            createdDir: '',
          },
        ],
      }),
    );
    const notes = await recoverProject(s.project, s.ledger);
    expect(notes).toEqual([{ proposalId: staged.id, kind: 'unknown', outcome: 'left_alone', paths: [] }]);
    expect(fs.readFileSync(victim, 'utf8')).toBe('known\n');
    expect(fs.existsSync(path.join(staged.dir, JOURNAL_FILE))).toBe(true);
  });

  it("rolls back from the store's copy of the journal when the file was replaced", async () => {
    const s = scene();
    const staged = await stage(s);
    // An adoption killed after the skill was replaced, before its receipt.
    let journal = '';
    const kill = new Error('killed');
    await adoptProposal({
      projectDir: s.project,
      ledger: s.ledger,
      now: NOW + 1,
      checkpoint: (_n, what) => {
        if (what.endsWith('replaced')) {
          journal = s.ledger.journal(staged.id) ?? '';
          throw kill;
        }
      },
    }).catch((err: unknown) => {
      if (journal === '') throw err; // the abandon is wrapped in adopt's own error
    });
    // The abandon rolled back and cleared it; put the kill's state back with a hostile file beside it.
    fs.writeFileSync(s.skill, 'new\n');
    s.ledger.recordJournal(staged.id, journal);
    fs.writeFileSync(path.join(staged.dir, JOURNAL_FILE), '{"entries": "whatever"}');
    const notes = await recoverProject(s.project, s.ledger);
    expect(notes).toEqual([
      { proposalId: staged.id, kind: 'adopt', outcome: 'rolled_back', paths: [s.skill] },
    ]);
    expect(fs.readFileSync(s.skill, 'utf8')).toBe('old\n');
    expect(fs.existsSync(path.join(staged.dir, JOURNAL_FILE))).toBe(false);
    expect(s.ledger.journal(staged.id)).toBeNull();
  });
});
