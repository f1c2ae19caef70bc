// A target outside the project is refused before the night starts, the same way by dry-run and run.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PERSONAS, runCli, sandbox } from './cli-helpers.js';

const TASKS = path.join(PERSONAS, 'programmer.tasks.json');

describe('night targets are checked before the night', () => {
  it('a target skill outside the project is exit 2 with one line in dry-run and run alike', async () => {
    const box = sandbox();
    const outside = path.join(box.root, 'elsewhere', 'SKILL.md');
    for (const mode of ['dry-run', 'run']) {
      const r = await runCli(box, [mode, '--tasks-file', TASKS, '--target-skill-path', outside]);
      expect(r.code, `${mode}: ${r.stderr}`).toBe(2);
      const lines = r.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`the target skill (--target-skill-path / target_skill_path) ${outside}`);
      expect(lines[0]).toContain('is outside the project');
      expect(lines[0]).not.toContain('allowOutside');
    }
    // The refused run recorded no night.
    expect((await runCli(box, ['status', '--json'])).json().n_nights).toBe(0);
  });

  it('a skill path inside the project that links outside it is refused too', async () => {
    const box = sandbox();
    const elsewhere = path.join(box.root, 'elsewhere');
    mkdirSync(elsewhere, { recursive: true });
    writeFileSync(path.join(elsewhere, 'SKILL.md'), '# theirs\n');
    symlinkSync(elsewhere, path.join(box.project, 'skills'));
    const r = await runCli(box, ['dry-run', '--tasks-file', TASKS, '--target-skill-path', 'skills/SKILL.md']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('is outside the project');
  });

  it('a configured memory document outside the project is refused by dry-run', async () => {
    const box = sandbox();
    mkdirSync(box.stateHome, { recursive: true });
    writeFileSync(
      path.join(box.stateHome, 'config.json'),
      JSON.stringify({ evolve_memory: true, memory_target: '../AGENTS.md' }),
    );
    const r = await runCli(box, ['dry-run', '--tasks-file', TASKS]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('the memory document (memory_target)');
  });

  it("in the project's own config it is refused when the config is loaded, naming the key", async () => {
    const box = sandbox();
    mkdirSync(path.join(box.project, '.skillopt-sleep'), { recursive: true });
    writeFileSync(
      path.join(box.project, '.skillopt-sleep', 'config.json'),
      JSON.stringify({ evolve_memory: true, memory_target: '../AGENTS.md' }),
    );
    const r = await runCli(box, ['dry-run', '--tasks-file', TASKS]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('"memory_target" to "../AGENTS.md" (outside the project');
  });
});
