/**
 * A trained skill package back into files: the joined document split into SKILL.md and its
 * references, and each file that changed made one proposal target under the skill's name. A SKILL.md
 * whose front matter would no longer follow the format is not staged (the note says why).
 */
import type { StageTarget } from '../../proposals/index.js';
import { frontmatterProblems } from '../skill-package/frontmatter.js';
import { splitPackage, type SkillPackage } from '../skill-package/package.js';

export interface PackageTargets {
  targets: StageTarget[];
  note: string | null;
}

export function packageTargets(
  name: string,
  pkg: SkillPackage,
  proposed: string,
  allowOutside: boolean,
): PackageTargets {
  const files = splitPackage(pkg, proposed);
  const [skillMd] = files;
  const problems = skillMd ? frontmatterProblems(skillMd.text) : ['SKILL.md is missing'];
  if (problems.length > 0) return { targets: [], note: `skill ${name} not staged: ${problems.join('; ')}` };
  const before = new Map([pkg.skill, ...pkg.references].map((f) => [f.relPath, f.text]));
  const targets = files
    .filter((f) => before.get(f.relPath) !== f.text)
    .map((f) => ({
      kind: 'skill' as const,
      name,
      livePath: f.livePath,
      baseText: before.get(f.relPath) ?? null,
      proposedText: f.text,
      ...(allowOutside ? { allowOutside: true } : {}),
    }));
  return { targets, note: null };
}
