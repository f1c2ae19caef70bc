/**
 * An option that takes a value refuses an empty one (issue 37, item 17): before, `train --demo --out ''`
 * wrote into the current folder, `--tasks-from ''` read it, and `--tasks-file ''`, `harvest --output ''`
 * and `--replay ''` were dropped with exit 0.
 */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli, sandbox } from './cli-helpers.js';

describe('an empty option value', () => {
  it.each([
    [['train', '--demo', '--out', ''], '--out'],
    [['dry-run', '--backend', 'mock', '--tasks-file', ''], '--tasks-file'],
    [['dry-run', '--backend', 'mock', '--tasks-from', ''], '--tasks-from'],
    [['dry-run', '--backend', 'mock', '--replay', ''], '--replay'],
    [['harvest', '--output', ''], '--output'],
    [['report', '--html', '--out', '', '--force'], '--out'],
  ])('%j is refused in one line, exit 2, and writes nothing', async (args, name) => {
    const box = sandbox();
    const r = await runCli(box, args);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([
      `[sleep] error: ${name} needs a value, not an empty string`,
    ]);
    expect(readdirSync(box.project)).toEqual([]);
  });
});
