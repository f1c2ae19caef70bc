/** Per-skill proposals: each skill the sessions used is trained against its own SKILL.md. */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PERSONAS, runCli, sandbox } from './cli-helpers.js';

interface Task {
  id: string;
  skill_hint: string;
  [key: string]: unknown;
}

describe('multi_skill_fanout', () => {
  it('stages one target per skill, skips unknown skills, and adopts a reviewed subset', async () => {
    const box = sandbox();
    const persona = JSON.parse(readFileSync(path.join(PERSONAS, 'researcher.tasks.json'), 'utf8')) as {
      tasks: Task[];
    };
    const copy = (suffix: string, hint: string): Task[] =>
      persona.tasks.map((t) => ({ ...t, id: `${t.id}-${suffix}`, skill_hint: hint }));
    const tasks = {
      ...persona,
      tasks: [...copy('a', 'alpha'), ...copy('g', 'gamma'), ...copy('x', 'ghost').slice(0, 1)],
    };
    const tasksFile = path.join(box.root, 'tasks.json');
    writeFileSync(tasksFile, JSON.stringify(tasks));
    const alpha = path.join(box.project, '.claude/skills/alpha/SKILL.md');
    const gamma = path.join(box.home, '.claude/skills/gamma/SKILL.md');
    const hand = '# Alpha\n\nHand-written.  Keep\tit.\n';
    for (const file of [alpha, gamma]) mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(alpha, hand);
    writeFileSync(gamma, '# Gamma\n');

    const run = await runCli(box, ['run', '--json', '--tasks-file', tasksFile, '--multi-skill-fanout']);
    expect(run.code, run.stderr).toBe(0);
    const night = run.json();
    const groups = night.skill_groups as Array<{
      skill_name: string;
      status: string;
      accepted: boolean;
      edits: Array<{ content: string }>;
    }>;
    const rulesOf = (name: string): string[] =>
      groups.find((g) => g.skill_name === name)?.edits.map((e) => e.content) ?? [];
    expect(groups.map((g) => [g.skill_name, g.status, g.accepted])).toEqual([
      ['alpha', 'consolidated', true],
      ['gamma', 'consolidated', true],
      ['ghost', 'skipped', false],
    ]);
    expect((night.notes as string[]).some((n) => n.startsWith('skipped skill ghost: missing'))).toBe(true);
    const manifest = JSON.parse(
      readFileSync(path.join(String(night.staging_dir), 'manifest.json'), 'utf8'),
    ) as {
      targets: Array<{ name: string; livePath: string }>;
      allowedRoots: string[];
    };
    expect(manifest.targets.map((t) => t.name)).toEqual(['alpha', 'gamma']);
    expect(manifest.allowedRoots).toContain(path.join(box.home, '.claude/skills'));

    const adopt = await runCli(box, ['adopt', '--skill', 'alpha', '--json']);
    expect(adopt.code, adopt.stderr).toBe(0);
    expect(adopt.json().updated_paths).toEqual([alpha]);
    const after = readFileSync(alpha, 'utf8');
    expect(after.startsWith(hand)).toBe(true);
    expect(rulesOf('alpha').length).toBeGreaterThan(0);
    for (const rule of rulesOf('alpha')) expect(after).toContain(rule);
    expect(readFileSync(gamma, 'utf8')).toBe('# Gamma\n');

    const rest = await runCli(box, ['adopt', '--all-skills', '--json']);
    expect(rest.code, rest.stderr).toBe(0);
    expect(rest.json().updated_paths).toEqual([gamma]);
    expect(rulesOf('gamma').length).toBeGreaterThan(0);
    for (const rule of rulesOf('gamma')) expect(readFileSync(gamma, 'utf8')).toContain(rule);
  });
});
