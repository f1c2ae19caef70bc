/** `report --html` from the CLI: one self-contained file, private, and its refusals (exit 2, one line). */
import { statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PERSONAS, runCli, sandbox } from './cli-helpers.js';

describe('report --html', () => {
  it('writes one page with everything inlined: no src or href to anywhere', async () => {
    const box = sandbox();
    const night = await runCli(box, ['run', '--tasks-file', path.join(PERSONAS, 'researcher.tasks.json')]);
    expect(night.code, night.stderr).toBe(0);
    const out = await runCli(box, ['report', '--html']);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toMatch(/^<!doctype html>/i);
    expect(out.stdout).toContain('id="nights-data"');
    expect(out.stdout).toContain('id="diff"');
    expect(out.stdout).not.toMatch(/\s(?:src|href|action)=/);
    expect(out.stdout).toContain("default-src 'none'");

    const file = path.join(box.root, 'r.html');
    const written = await runCli(box, ['report', '--html', '--out', file]);
    expect(written.code, written.stderr).toBe(0);
    expect(written.stdout).toMatch(/^\[sleep\] wrote .*r\.html \(proposal /);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('refuses without --html, over an existing file, and a malformed id', async () => {
    const box = sandbox();
    const bare = await runCli(box, ['report']);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toMatch(/^\[sleep\] error: report writes HTML: pass --html/);
    const file = path.join(box.root, 'taken.html');
    writeFileSync(file, 'mine');
    const taken = await runCli(box, ['report', '--html', '--out', file]);
    expect(taken.code).toBe(2);
    expect(taken.stderr).toContain('already exists; pass --force');
    const bad = await runCli(box, ['report', '../x', '--html']);
    expect(bad.code).toBe(2);
  });
});
