/** The memory document: trained only when asked, in the agent's own file, never created empty. */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PERSONAS, runCli, sandbox } from './cli-helpers.js';

const TASKS = path.join(PERSONAS, 'researcher.tasks.json');

function projectConfig(project: string, config: object): void {
  mkdirSync(path.join(project, '.skillopt-sleep'), { recursive: true });
  writeFileSync(path.join(project, '.skillopt-sleep/config.json'), JSON.stringify(config));
}

describe('memory documents', () => {
  it('a Codex project learns into AGENTS.md, keeping the hand-written text byte-identical', async () => {
    const box = sandbox();
    projectConfig(box.project, { evolve_skill: false, evolve_memory: true, transcript_source: 'codex' });
    const agents = path.join(box.project, 'AGENTS.md');
    const hand = '# Team rules\n\nTabs,\tnot spaces.  Keep this.\n';
    writeFileSync(agents, hand);
    const run = await runCli(box, ['run', '--json', '--tasks-file', TASKS]);
    expect(run.code, run.stderr).toBe(0);
    const night = run.json();
    expect(night).toMatchObject({ accepted: true, schema_version: 2 });
    expect(night.memory).toMatchObject({ target_path: agents, chosen_by: 'codex', accepted: true });
    expect((night.edits as Array<{ target: string }>).every((e) => e.target === 'memory')).toBe(true);
    // Every field of report.json is documented in docs/report-schema.md.
    const schemaDoc = readFileSync(path.resolve(import.meta.dirname, '../../docs/report-schema.md'), 'utf8');
    for (const key of Object.keys(night)) expect(schemaDoc, key).toContain(`\`${key}\``);

    const adopt = await runCli(box, ['adopt', '--json']);
    expect(adopt.code, adopt.stderr).toBe(0);
    expect(adopt.json().updated_paths).toEqual([agents]);
    const after = readFileSync(agents, 'utf8');
    expect(after.startsWith(hand)).toBe(true);
    const learned = (night.memory as { learned_rules: string[] }).learned_rules;
    expect(learned.length).toBeGreaterThan(0);
    for (const rule of learned) expect(after).toContain(rule);
    expect(existsSync(path.join(box.project, 'CLAUDE.md'))).toBe(false);
    expect(existsSync(path.join(box.project, '.claude'))).toBe(false);
  });

  it('an unchanged memory document is not staged and adoption creates no empty CLAUDE.md', async () => {
    const box = sandbox();
    projectConfig(box.project, { evolve_memory: true });
    const run = await runCli(box, ['run', '--json', '--tasks-file', TASKS]);
    expect(run.code, run.stderr).toBe(0);
    const night = run.json();
    // The skill pass learned every rule; the memory pass had nothing left to fix.
    expect(night.memory).toMatchObject({ accepted: false });
    const manifest = JSON.parse(
      readFileSync(path.join(String(night.staging_dir), 'manifest.json'), 'utf8'),
    ) as {
      targets: Array<{ kind: string }>;
    };
    expect(manifest.targets.map((t) => t.kind)).toEqual(['skill']);
    expect((await runCli(box, ['adopt'])).code).toBe(0);
    expect(existsSync(path.join(box.project, 'CLAUDE.md'))).toBe(false);
  });

  it('refuses a night with both passes off', async () => {
    const box = sandbox();
    projectConfig(box.project, { evolve_skill: false });
    const run = await runCli(box, ['run', '--json', '--tasks-file', TASKS]);
    expect(run.code).toBe(2);
    expect(String(run.json().message)).toContain('nothing to train');
  });
});
