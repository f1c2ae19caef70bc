/**
 * The skills a user names (`run --skill PATH`, `skills:`), trained whole: each path (a SKILL.md or its
 * folder, relative to the project, or a bare skill name found in one skill folder) must resolve, symbolic links included, inside the project or one of
 * the skill roots (`skill-roots.ts`: the project's and the user's skill folders, `skill_roots`); its
 * front matter must follow the skill format. A task whose session used the skill (its `skill_hint`)
 * trains that skill; every other task trains the first one named.
 */
import { existsSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { InputError } from '../core/errors.js';
import type { TaskRecord } from '../core/task.js';
import type { Config } from '../config/schema.js';
import { frontmatterName, frontmatterProblems } from '../skill-package/frontmatter.js';
import { joinPackage, readSkillPackage, type SkillPackage } from '../skill-package/package.js';
import { isSafeSkillName, resolveSkill, skillRoots } from './skill-roots.js';

export interface NamedSkill {
  name: string;
  pkg: SkillPackage;
  /** The package as the one document a night trains. */
  joined: string;
  /** The skill lies outside the project (in a user's skill root): staged with its root allowed. */
  allowOutside: boolean;
  tasks: TaskRecord[];
}

export interface NamedSkillsPlan {
  skills: NamedSkill[];
  /** The skill roots a skill outside the project must stay in (for staging and adoption). */
  roots: string[];
}

const inside = (child: string, parent: string): boolean => {
  const rel = path.relative(parent, child);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
};

function realSkillMd(project: string, given: string, roots: readonly string[]): string {
  const abs = path.resolve(project, given);
  // A bare name that is no path in the project is looked up in the skill folders, as fan-out does.
  if (isSafeSkillName(given) && !existsSync(abs)) {
    const found = resolveSkill(given, roots);
    if (found.status !== 'found') throw new InputError(`skill ${given}: ${found.status}: ${found.reason}`);
    return found.livePath;
  }
  let real: string;
  try {
    real = realpathSync(abs);
    if (statSync(real).isDirectory()) real = realpathSync(path.join(real, 'SKILL.md'));
  } catch {
    throw new InputError(`skill ${given}: no SKILL.md there`);
  }
  if (path.basename(real) !== 'SKILL.md' || !statSync(real).isFile())
    throw new InputError(`skill ${given}: name a SKILL.md or the folder holding one`);
  return real;
}

export function planNamedSkills(
  tasks: readonly TaskRecord[],
  config: Config,
  project: string,
  userHome: string,
): NamedSkillsPlan {
  const roots = skillRoots(project, userHome, config.skill_roots);
  const realProject = realpathSync(project);
  const skills: NamedSkill[] = [];
  for (const given of config.skills) {
    const skillMd = realSkillMd(project, given, roots);
    const inProject = inside(skillMd, realProject);
    if (!inProject && !roots.some((r) => inside(skillMd, r)))
      throw new InputError(`skill ${given} resolves outside the project and every skill folder; refusing it`);
    if (skills.some((s) => s.pkg.skill.livePath === skillMd)) continue;
    const pkg = readSkillPackage(skillMd, config.skill_inline_reference_tokens);
    const problems = frontmatterProblems(pkg.skill.text);
    if (problems.length > 0) throw new InputError(`skill ${given}: ${problems.join('; ')}`);
    const name = frontmatterName(pkg.skill.text) ?? path.basename(pkg.dir);
    skills.push({ name, pkg, joined: joinPackage(pkg), allowOutside: !inProject, tasks: [] });
  }
  assignTasks(skills, tasks);
  return { skills, roots };
}

/** Each task to the named skill its session used, else to the first named (replacing what they had). */
export function assignTasks(skills: readonly NamedSkill[], tasks: readonly TaskRecord[]): void {
  for (const s of skills) s.tasks = [];
  for (const t of tasks) {
    const hint = t.skill_hint.trim();
    const own = skills.find((s) => hint !== '' && (s.name === hint || path.basename(s.pkg.dir) === hint));
    (own ?? skills[0])?.tasks.push(t);
  }
}
