import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveSkill, skillRoots } from './skill-roots.js';

const dirs: string[] = [];
function temp(): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'skill-roots-')));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function skill(root: string, name: string): string {
  const file = path.join(root, name, 'SKILL.md');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `# ${name}\n`);
  return file;
}

describe('skill resolution', () => {
  it('finds a skill in exactly one root, reports missing, ambiguous and rejected names', () => {
    const project = temp();
    const home = temp();
    const extra = temp();
    const alpha = skill(path.join(project, '.claude/skills'), 'alpha');
    skill(path.join(project, '.agents/skills'), 'beta');
    skill(path.join(home, '.claude/skills'), 'beta');
    const delta = skill(extra, 'delta');
    const roots = skillRoots(project, home, [extra, extra]);
    expect(roots).toEqual([
      path.join(project, '.claude/skills'),
      path.join(project, '.agents/skills'),
      path.join(home, '.claude/skills'),
      extra,
    ]);
    expect(resolveSkill('alpha', roots)).toMatchObject({ status: 'found', livePath: alpha });
    expect(resolveSkill('delta', roots)).toMatchObject({ status: 'found', livePath: delta, root: extra });
    expect(resolveSkill('beta', roots).status).toBe('ambiguous');
    expect(resolveSkill('ghost', roots).status).toBe('missing');
    expect(resolveSkill('../alpha', roots).status).toBe('rejected');
    expect(resolveSkill('a/b', roots).status).toBe('rejected');
  });

  it('rejects a SKILL.md that is a symlink leading out of its root', () => {
    const project = temp();
    const outside = temp();
    fs.writeFileSync(path.join(outside, 'victim.md'), 'x\n');
    const dir = path.join(project, '.claude/skills/sneaky');
    fs.mkdirSync(dir, { recursive: true });
    fs.symlinkSync(path.join(outside, 'victim.md'), path.join(dir, 'SKILL.md'));
    const roots = skillRoots(project, temp(), []);
    expect(resolveSkill('sneaky', roots)).toMatchObject({ status: 'rejected' });
  });

  it("skips a project skill folder the repository links out of the project (the user's roots stay)", () => {
    const project = temp();
    const home = temp();
    const outside = temp();
    skill(outside, 'web');
    fs.mkdirSync(path.join(project, '.claude'), { recursive: true });
    fs.symlinkSync(outside, path.join(project, '.claude', 'skills'));
    expect(skillRoots(project, home, [])).toEqual([]);
    expect(resolveSkill('web', skillRoots(project, home, [])).status).toBe('missing');
    // Named by the user (skill_roots from their own config or --skill-root), the same folder is a root.
    expect(skillRoots(project, home, [outside])).toEqual([outside]);
  });
});
