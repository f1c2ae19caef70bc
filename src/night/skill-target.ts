/** Which live skill file a night trains, and its current text (or a scaffold when it does not exist yet). */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { TextDecoder } from 'node:util';
import { InputError, IoError, errorMessage } from '../core/errors.js';
import { defaultSkillPath, templatesDir } from '../config/paths.js';
import type { Config } from '../config/schema.js';
import { withoutLearnedBlock } from '../trainer/learned-block.js';

export interface SkillTarget {
  livePath: string;
  /** The live bytes as text, or null when the file does not exist. */
  liveText: string | null;
  /** What training starts from: the live text, or the scaffold for a new file. */
  workingText: string;
}

export function resolveSkillPath(project: string, config: Config): string {
  if (config.target_skill_path === '') return defaultSkillPath(project, config.managed_skill_name);
  return path.resolve(project, config.target_skill_path);
}

export function readUtf8OrNull(file: string): string | null {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    if (code === 'EISDIR') throw new InputError(`target skill ${file} is a directory, not a file`);
    throw new IoError(`cannot read target skill ${file}: ${errorMessage(err)}`);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new InputError(`target skill ${file} is not valid UTF-8; refusing to edit it`);
  }
}

export function skillScaffold(name: string): string {
  const template = readFileSync(path.join(templatesDir(), 'skill-scaffold.md'), 'utf8');
  return template.replaceAll('{{name}}', name);
}

export function loadSkillTarget(project: string, config: Config): SkillTarget {
  const livePath = resolveSkillPath(project, config);
  const liveText = readUtf8OrNull(livePath);
  const name = path.basename(path.dirname(livePath)) || config.managed_skill_name;
  return { livePath, liveText, workingText: liveText ?? skillScaffold(name) };
}

/**
 * The skill a benchmark seed's night starts from: the seed's SKILL.md while the target file does not
 * exist, or the target itself when it is that skill with rules an earlier night learned (adopted). Any
 * other file there is refused: the night's proposal would replace it with the seed.
 */
export function seedSkillTarget(target: SkillTarget, seedSkill: string): SkillTarget {
  if (target.liveText === null) return { ...target, workingText: seedSkill };
  if (withoutLearnedBlock(target.liveText, target.livePath).trimEnd() === seedSkill.trimEnd()) return target;
  throw new InputError(
    `target skill ${target.livePath} exists and is not the seed's SKILL.md (with or without learned rules): train the seed into another file with --target-skill-path`,
    'seed_target_taken',
  );
}
