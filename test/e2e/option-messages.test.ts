/**
 * Messages that name what the user typed (issue 37, item 22): a cross-key limit blames the key the
 * user set, not the one left at its default; a repeatable option's help shows no "(default: [])".
 */
import { describe, expect, it } from 'vitest';
import { runCli, sandbox } from './cli-helpers.js';

describe('option messages', () => {
  it('--val-fraction 1 is blamed on val_fraction, set on the command line', async () => {
    const r = await runCli(sandbox(), ['dry-run', '--backend', 'mock', '--demo', '--val-fraction', '1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('command-line option: key "val_fraction"');
  });

  it('forget --help shows no default for --session', async () => {
    const r = await runCli(sandbox(), ['forget', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('--session <id>');
    expect(r.stdout).not.toContain('(default: [])');
  });
});
