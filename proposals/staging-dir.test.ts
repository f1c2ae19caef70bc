import { existsSync, mkdirSync, mkdtempSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ownIdentity } from '../src/core/process-identity.js';
import { listProposals, proposalsRootOf } from './list.js';
import { commitStagingDir, createStagingDir, removeLeftoverStaging } from './staging-dir.js';
import { memoryLedger } from './test-helpers.js';

function root(): string {
  const project = mkdtempSync(path.join(os.tmpdir(), 'sos-staging-'));
  const dir = proposalsRootOf(project);
  mkdirSync(dir, { recursive: true });
  return dir;
}

const age = (dir: string, minutes: number): void => {
  const t = (Date.now() - minutes * 60_000) / 1000;
  utimesSync(dir, t, t);
};

describe('staging folders', () => {
  it('publish under the first free id, never replacing a proposal', async () => {
    const r = root();
    mkdirSync(path.join(r, '20260101-000000-1'));
    writeFileSync(path.join(r, '20260101-000000-1', 'manifest.json'), '{}');
    const staging = await createStagingDir(r);
    const ids: string[] = [];
    const done = await commitStagingDir(staging, r, '20260101-000000-1', {
      claim: async (id) => {
        ids.push(id);
        writeFileSync(path.join(staging, 'manifest.json'), id);
        return Promise.resolve(true);
      },
      unclaim: () => undefined,
    });
    expect(done.id).toBe('20260101-000000-1-2');
    expect(ids).toEqual(['20260101-000000-1-2']);
    expect(existsSync(staging)).toBe(false);
  });

  it("are not listed, and a killed staging's leftovers are removed, a live one's kept", async () => {
    const r = root();
    const live = await createStagingDir(r);
    const dead = path.join(r, `.staging-${2 ** 22 + 7}-0-abcdef`);
    mkdirSync(dead);
    // An older version's half-written folder: no manifest, only what staging writes before it.
    const legacy = path.join(r, '20250101-000000-3');
    mkdirSync(path.join(legacy, 'files'), { recursive: true });
    writeFileSync(path.join(legacy, 'proposal.diff'), '');
    age(legacy, 60);
    const fresh = path.join(r, '20250101-000000-4');
    mkdirSync(fresh);
    // A folder of the user's with other files is never removed.
    const mine = path.join(r, '20250101-000000-5');
    mkdirSync(mine);
    writeFileSync(path.join(mine, 'notes.txt'), 'keep');
    age(mine, 60);
    const listing = await listProposals(path.dirname(path.dirname(r)), memoryLedger());
    expect(listing.foreign.map((s) => s.name).sort()).toEqual([
      '20250101-000000-3',
      '20250101-000000-4',
      '20250101-000000-5',
    ]);
    expect(await removeLeftoverStaging(r)).toEqual(
      expect.arrayContaining([path.basename(dead), '20250101-000000-3']),
    );
    expect(readdirSync(r).sort()).toEqual(
      [path.basename(live), '20250101-000000-4', '20250101-000000-5'].sort(),
    );
    expect(path.basename(live)).toContain(`.staging-${ownIdentity().pid}-`);
  });
});
