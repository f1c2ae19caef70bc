/**
 * Proposal ids typed on the command line: an empty one is never "the latest" (a script with an unset
 * `$ID`), an overlong one is a usage error, not an internal ENAMETOOLONG.
 */
import { describe, expect, it } from 'vitest';
import { runCli, sandbox, type CliResult } from './cli-helpers.js';
import { readOrNull, stageFixture } from './proposal-fixture.js';

function expectRefusedId(r: CliResult): void {
  expect(r.stderr).not.toContain('internal error');
  const lines = r.stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^\[sleep\] error: invalid proposal id /);
  expect(r.code).toBe(2);
}

describe('proposal ids', () => {
  it('adopt "" and revert "" are refused (exit 2) and change nothing', async () => {
    const box = sandbox();
    const f = await stageFixture(box);
    const adopt = await runCli(box, ['adopt', '']);
    expectRefusedId(adopt);
    expect(readOrNull(f.alpha)).toBe(f.originals.get(f.alpha));
    // Adopted for real, so a `revert ""` read as "the latest" would have something to undo.
    const ok = await runCli(box, ['adopt', f.staged.id]);
    expect(ok.code, ok.stderr).toBe(0);
    const revert = await runCli(box, ['revert', '']);
    expectRefusedId(revert);
    expect(readOrNull(f.alpha)).toBe(f.proposed.get(f.alpha));
  });

  it('a 300-character id is a one-line usage error for every command that takes an id', async () => {
    const box = sandbox();
    await stageFixture(box);
    const long = 'a'.repeat(300);
    for (const args of [
      ['adopt', long],
      ['revert', long],
      ['reject', long],
      ['proposals', 'show', long],
      ['proposals', 'diff', long],
    ]) {
      const r = await runCli(box, args);
      expectRefusedId(r);
      expect(r.stderr, args[0]).toContain('(300 characters)');
      expect(r.stderr.length).toBeLessThan(200);
    }
    for (const args of [
      ['reject', ''],
      ['proposals', 'show', ''],
      ['proposals', 'diff', ''],
    ])
      expectRefusedId(await runCli(box, args));
  });
});
