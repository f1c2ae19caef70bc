/**
 * One style for what the CLI says: every message line starts with `[sleep] ` (errors `[sleep] error: `,
 * warnings `[sleep] warning: `); only indented continuation lines (edits, rules, targets) and JSON differ.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sandbox, spawnCli, type CliResult } from './cli-helpers.js';

// Stays spawned: the bin's own contract (what reaches the real stderr/stdout, exit codes) is checked here.
const runCli = (...args: Parameters<typeof spawnCli>): Promise<CliResult> =>
  Promise.resolve(spawnCli(...args));

function messageLines(r: CliResult): string[] {
  return `${r.stdout}${r.stderr}`.split('\n').filter((line) => line !== '' && !line.startsWith('   '));
}

function expectOneStyle(r: CliResult): void {
  const lines = messageLines(r);
  expect(lines.length).toBeGreaterThan(0);
  for (const line of lines) expect(line).toMatch(/^\[sleep\] (?!\[)/);
  expect(`${r.stdout}${r.stderr}`).not.toMatch(/^(error|\[train\]|\[eval\])|\[sleep\] (train|eval):/m);
}

describe('message style', () => {
  it('train and eval speak like every other command', async () => {
    const box = sandbox();
    const out = path.join(box.root, 'run');
    const train = await runCli(box, ['train', '--demo', '--backend', 'mock', '--out', out, '--progress']);
    expect(train.code).toBe(0);
    expectOneStyle(train);
    const evalAll = await runCli(box, ['eval', '--demo', '--out', out, '--split', 'test']);
    expect(evalAll.code).toBe(0);
    expectOneStyle(evalAll);
    expect(evalAll.stdout).toMatch(/^\[sleep\] best skill on test: \d+ items, hard /m);
    const evalOne = await runCli(box, ['eval', '--demo', '--skill', path.join(out, 'best_skill.md')]);
    expectOneStyle(evalOne);
  });

  it('option errors and command errors share the `[sleep] error:` prefix', async () => {
    const box = sandbox();
    for (const args of [
      ['run', '--frobnicate'],
      ['status', '--limit', '0'],
      ['train'],
      ['proposals', 'show'],
      ['adopt', '--skill', ''],
    ]) {
      const r = await runCli(box, args);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^\[sleep\] error: /);
      expectOneStyle(r);
    }
  });
});
