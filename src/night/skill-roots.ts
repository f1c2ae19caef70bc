/**
 * Finding a named skill's live SKILL.md for per-skill proposals (`multi_skill_fanout`): searched in
 * `<project>/.claude/skills`, `<project>/.agents/skills`, the user's `~/.claude/skills` and every
 * `skill_roots` folder. A name found in no root is missing, in two or more ambiguous, and a name that
 * is not one safe folder name, or whose SKILL.md resolves outside its root, is rejected: such skills
 * are skipped and reported, never written elsewhere.
 */
import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';

export type SkillResolution =
  | { status: 'found'; name: string; livePath: string; root: string }
  | { status: 'missing' | 'ambiguous' | 'rejected'; name: string; reason: string };

/** The search roots that exist, in order, deduplicated by real path. */
export function skillRoots(project: string, userHome: string, extra: readonly string[]): string[] {
  const inProject = [path.join(project, '.claude', 'skills'), path.join(project, '.agents', 'skills')];
  const candidates = [
    ...inProject,
    path.join(userHome, '.claude', 'skills'),
    ...extra.map((r) => path.resolve(project, r)),
  ];
  const realProject = realDir(project);
  const seen = new Set<string>();
  const roots: string[] = [];
  for (const dir of candidates) {
    const real = realDir(dir);
    if (real === null || seen.has(real)) continue;
    // The project's own skill folders are the repository's: one that links out of it is not a root.
    if (inProject.includes(dir) && (realProject === null || !isInside(real, realProject))) continue;
    seen.add(real);
    roots.push(real);
  }
  return roots;
}

/** One path segment of letters, digits, `.`, `_`, `-` (not `.` or `..`), at most 100 characters. */
export function isSafeSkillName(name: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/.test(name) && name !== '.' && name !== '..';
}

export function resolveSkill(name: string, roots: readonly string[]): SkillResolution {
  if (!isSafeSkillName(name)) {
    return { status: 'rejected', name, reason: 'not a single safe folder name' };
  }
  const found: Array<{ livePath: string; root: string }> = [];
  const escaped: string[] = [];
  for (const root of roots) {
    const candidate = path.join(root, name, 'SKILL.md');
    let real: string;
    try {
      real = realpathSync(candidate);
      if (!statSync(real).isFile()) continue;
    } catch {
      continue;
    }
    if (!isInside(real, root)) {
      escaped.push(candidate);
      continue;
    }
    found.push({ livePath: real, root });
  }
  const [only, ...more] = found;
  if (only !== undefined && more.length === 0) return { status: 'found', name, ...only };
  if (found.length > 1) {
    return { status: 'ambiguous', name, reason: `found in ${found.map((f) => f.root).join(' and ')}` };
  }
  if (escaped.length > 0) {
    return { status: 'rejected', name, reason: `${escaped.join(', ')} leads outside its skills folder` };
  }
  return {
    status: 'missing',
    name,
    reason: `no ${name}/SKILL.md in ${roots.join(', ') || 'any skills folder'}`,
  };
}

function realDir(dir: string): string | null {
  try {
    const real = realpathSync(dir);
    return statSync(real).isDirectory() ? real : null;
  } catch {
    return null;
  }
}

function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}
