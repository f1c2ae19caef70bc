/**
 * The user's exclusions and a repository's `.skillopt-sleep-ignore`, through the CLI: what they keep out
 * is not in the store file (WAL included), a night in an opted-out repository mines nothing of it, and a
 * repository cannot set the privacy keys.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, sandbox, type Sandbox, storeBytes } from './cli-helpers.js';
import { claudeProjectDir, claudeSessionLines } from './claude-transcript.js';

function writeSession(box: Sandbox, cwd: string, id: string, marker: string): void {
  mkdirSync(cwd, { recursive: true });
  const dir = claudeProjectDir(box.home, cwd);
  mkdirSync(dir, { recursive: true });
  const lines = claudeSessionLines(cwd, id, `run the release checklist ${marker}`, `released ${marker}`);
  writeFileSync(path.join(dir, `${id}.jsonl`), `${lines.join('\n')}\n`);
}

const userConfig = (box: Sandbox, values: Record<string, unknown>): void => {
  mkdirSync(box.stateHome, { recursive: true });
  writeFileSync(path.join(box.stateHome, 'config.json'), JSON.stringify(values));
};

describe('privacy exclusions through the CLI', () => {
  it('exclude_paths in the user config: harvest --json counts it, the store has no byte of it', async () => {
    const box = sandbox();
    writeSession(box, path.join(box.home, 'work', 'client-orion'), 'e2e-excluded', 'ZX-MARKER-EXCLUDED');
    writeSession(box, box.project, 'e2e-kept', 'ZX-MARKER-KEPT');
    userConfig(box, { exclude_paths: ['~/work/client-*'] });
    const r = await runCli(box, ['harvest', '--json', '--scope', 'all', '--source', 'claude']);
    expect(r.code, r.stderr).toBe(0);
    const sources = r.json().sources as Record<string, { new: number; excluded: number }>;
    expect(sources.claude).toMatchObject({ new: 1, excluded: 1 });
    const raw = storeBytes(box);
    expect(raw).toContain('ZX-MARKER-KEPT');
    expect(raw).not.toContain('ZX-MARKER-EXCLUDED');
    expect(raw).not.toContain('client-orion');
  });

  it('a project with .skillopt-sleep-ignore: its night finds no session, the store holds none of it', async () => {
    const box = sandbox();
    writeSession(box, path.join(box.project, 'app'), 'e2e-opted-1', 'ZX-MARKER-OPTED');
    writeSession(box, path.join(box.project, 'app'), 'e2e-opted-2', 'ZX-MARKER-OPTED');
    writeFileSync(path.join(box.project, '.skillopt-sleep-ignore'), '# this repository is not harvested\n');
    const r = await runCli(box, ['dry-run', '--backend', 'mock', '--json', '--lookback-hours', '0']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().n_sessions).toBe(0);
    expect(storeBytes(box)).not.toContain('ZX-MARKER-OPTED');
  });

  it('sessions stored before an exclusion stay until forget --excluded, which the harvest offers', async () => {
    const box = sandbox();
    const client = path.join(box.home, 'work', 'client-vega');
    writeSession(box, client, 'e2e-before', 'ZX-MARKER-BEFORE');
    expect((await runCli(box, ['harvest', '--scope', 'all'])).code).toBe(0);
    userConfig(box, { exclude_paths: [client] });
    const r = await runCli(box, ['harvest', '--json', '--scope', 'all']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().excluded_stored).toBe(1);
    expect(r.stderr).toMatch(
      /\[sleep\] warning: 1 stored session was harvested before your exclusions.*forget --excluded/,
    );

    // The offer taken: --dry-run shows it, then forget --excluded deletes it, and only it.
    writeSession(box, box.project, 'e2e-stays', 'ZX-MARKER-STAYS');
    expect((await runCli(box, ['harvest'])).code).toBe(0);
    const dry = await runCli(box, ['forget', '--excluded', '--dry-run', '--json']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.json().sessions).toEqual(['claude:e2e-before']);
    expect(storeBytes(box)).toContain('ZX-MARKER-BEFORE');
    const gone = await runCli(box, ['forget', '--excluded', '--json']);
    expect(gone.code, gone.stderr).toBe(0);
    expect(gone.json().sessions).toEqual(['claude:e2e-before']);
    const raw = storeBytes(box);
    expect(raw).not.toContain('ZX-MARKER-BEFORE');
    expect(raw).toContain('ZX-MARKER-STAYS');
    const after = await runCli(box, ['harvest', '--json', '--scope', 'all']);
    expect(after.json().excluded_stored).toBe(0);
  });

  it("refuses a repository's config that sets a privacy key (exit 2, naming it)", async () => {
    const box = sandbox();
    mkdirSync(path.join(box.project, '.skillopt-sleep'), { recursive: true });
    writeFileSync(
      path.join(box.project, '.skillopt-sleep', 'config.json'),
      JSON.stringify({ exclude_paths: ['/'] }),
    );
    const r = await runCli(box, ['harvest']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/may not set "exclude_paths"/);
  });
});
