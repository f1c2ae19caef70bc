import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { adoptProposal } from './adopt.js';
import { InputError } from '../src/core/errors.js';
import {
  assertProposalId,
  latestProposal,
  listProposals,
  MAX_PROPOSAL_ID_LENGTH,
  readProposal,
} from './list.js';
import { rejectProposal } from './reject.js';
import { stageProposal } from './stage.js';

const T0 = Date.UTC(2025, 0, 2, 3, 0, 0);

const tempDirs: string[] = [];
function tempProject(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'proposals-list-'));
  tempDirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of tempDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

async function stageAt(project: string, now: number, night: number, text = `night ${night}\n`) {
  return stageProposal({
    projectDir: project,
    night,
    now,
    targets: [
      { kind: 'memory', livePath: path.join(project, 'CLAUDE.md'), baseText: null, proposedText: text },
    ],
    reportMd: `# night ${night}\n`,
    reportJson: { night },
  });
}

describe('listProposals', () => {
  it('is empty when nothing was staged', async () => {
    const project = tempProject();
    expect(await listProposals(project)).toEqual({ proposals: [], skipped: [] });
    expect(await latestProposal(project)).toBeNull();
  });

  it('lists newest first by createdAt, then id, and skips broken folders', async () => {
    const project = tempProject();
    const first = await stageAt(project, T0, 1);
    const third = await stageAt(project, T0 + 2000, 3);
    const second = await stageAt(project, T0 + 1000, 2);
    // Same createdAt: the id breaks the tie, with numeric collation for the collision suffix.
    const sameSecond = [];
    for (let i = 0; i < 10; i++) sameSecond.push(await stageAt(project, T0 + 3000, 4));
    const root = path.join(project, '.skillopt-sleep/proposals');
    fs.mkdirSync(path.join(root, 'half-written'));
    fs.mkdirSync(path.join(root, 'garbage'));
    fs.writeFileSync(path.join(root, 'garbage/manifest.json'), 'not json');
    fs.writeFileSync(path.join(root, 'stray.txt'), 'ignored');

    const { proposals, skipped } = await listProposals(project);
    expect(proposals.map((p) => p.id)).toEqual([
      ...sameSecond.map((s) => s.id).reverse(),
      third.id,
      second.id,
      first.id,
    ]);
    expect(sameSecond.at(-1)?.id).toBe('20250102-030003-4-10');
    expect(proposals[0]).toEqual({
      id: '20250102-030003-4-10',
      dir: path.join(root, '20250102-030003-4-10'),
      night: 4,
      createdAt: T0 + 3000,
      status: 'staged',
      targets: [
        { kind: 'memory', name: 'CLAUDE.md', livePath: path.join(project, 'CLAUDE.md'), adopted: false },
      ],
    });
    // Every older proposal targets the same file: superseded by the newest.
    expect(proposals.slice(1).every((p) => p.status === 'superseded')).toBe(true);
    expect(proposals[1]?.supersededBy).toBe('20250102-030003-4-10');
    expect(skipped.map((s) => s.name).sort()).toEqual(['garbage', 'half-written']);
    expect(skipped.find((s) => s.name === 'half-written')?.reason).toContain('manifest.json is missing');
    expect(skipped.find((s) => s.name === 'garbage')?.reason).toContain('not valid JSON');
    expect((await latestProposal(project))?.id).toBe('20250102-030003-4-10');
  });

  it('skips a folder whose manifest names another id', async () => {
    const project = tempProject();
    const staged = await stageAt(project, T0, 1);
    fs.renameSync(staged.dir, path.join(path.dirname(staged.dir), 'renamed'));
    const { proposals, skipped } = await listProposals(project);
    expect(proposals).toEqual([]);
    expect(skipped[0]?.reason).toContain('names id');
  });

  it('reports adopted status and time', async () => {
    const project = tempProject();
    const staged = await stageAt(project, T0, 1);
    await adoptProposal({ projectDir: project, now: T0 + 5000 });
    const { proposals } = await listProposals(project);
    expect(proposals[0]).toMatchObject({ id: staged.id, status: 'adopted', adoptedAt: T0 + 5000 });
  });

  it('a rejected newer proposal supersedes nothing', async () => {
    const project = tempProject();
    const older = await stageAt(project, T0, 1);
    const newer = await stageAt(project, T0 + 1000, 2);
    expect((await listProposals(project)).proposals.map((p) => p.status)).toEqual(['staged', 'superseded']);
    await rejectProposal({ projectDir: project, id: newer.id, now: T0 + 2000 });
    const { proposals } = await listProposals(project);
    expect(proposals.map((p) => [p.id, p.status])).toEqual([
      [newer.id, 'rejected'],
      [older.id, 'staged'],
    ]);
  });

  it('refuses a symlinked proposals folder', async () => {
    const project = tempProject();
    fs.mkdirSync(path.join(project, '.skillopt-sleep'));
    fs.symlinkSync(tempProject(), path.join(project, '.skillopt-sleep/proposals'));
    await expect(listProposals(project)).rejects.toMatchObject({ name: 'InputError' });
  });
});

describe('readProposal', () => {
  const reportSchema = z.object({ night: z.number() });

  it('returns manifest, report, diff and receipt', async () => {
    const project = tempProject();
    const staged = await stageAt(project, T0, 5);
    const details = await readProposal(project, staged.id, reportSchema);
    expect(details.manifest).toEqual(staged.manifest);
    expect(details.report).toEqual({ night: 5 });
    expect(details.diff).toBe('--- /dev/null\n+++ b/CLAUDE.md\n@@ -0,0 +1 @@\n+night 5\n');
    expect(details.summary.status).toBe('staged');
    expect(details.receipt).toBeNull();

    await adoptProposal({ projectDir: project, id: staged.id, now: T0 + 1 });
    const adopted = await readProposal(project, staged.id, reportSchema);
    expect(adopted.summary).toMatchObject({ status: 'adopted', adoptedAt: T0 + 1 });
    expect(adopted.receipt?.targets[0]?.livePath).toBe(path.join(project, 'CLAUDE.md'));
  });

  it("fails with InputError naming the field when the report does not fit the caller's schema", async () => {
    const project = tempProject();
    const staged = await stageAt(project, T0, 5);
    const strict = z.object({ night: z.string() });
    await expect(readProposal(project, staged.id, strict)).rejects.toThrow(
      /report\.json is malformed: night/,
    );
  });

  it('fails with InputError for a missing or invalid id', async () => {
    const project = tempProject();
    await expect(readProposal(project, '20250101-000000-1', reportSchema)).rejects.toMatchObject({
      code: 'no_proposal',
    });
    await expect(readProposal(project, '..', reportSchema)).rejects.toMatchObject({ name: 'InputError' });
  });
});

describe('assertProposalId', () => {
  it('accepts generated ids and refuses empty, path-like and overlong ones', () => {
    expect(() => assertProposalId('20250102-030003-4-10')).not.toThrow();
    expect(() => assertProposalId('')).toThrow(/invalid proposal id ""/);
    expect(() => assertProposalId('../x')).toThrow(/invalid proposal id/);
    expect(() => assertProposalId('a'.repeat(MAX_PROPOSAL_ID_LENGTH))).not.toThrow();
    const long = 'a'.repeat(300);
    expect(() => assertProposalId(long)).toThrow(InputError);
    // The message stays one short line: the id is cut, its length given.
    expect(() => assertProposalId(long)).toThrow(/^invalid proposal id "a{40}"… \(300 characters\)/);
  });
});
