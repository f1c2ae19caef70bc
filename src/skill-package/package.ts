/**
 * A skill package as an agent has it: `SKILL.md`, the Markdown files in `references/`, and the
 * programs in `scripts/`. A night trains SKILL.md and the references as one joined document and reads
 * it the way an agent would load the package: SKILL.md first, then each reference of at most
 * `inlineTokens` tokens inlined after its file marker; larger references and every script are only
 * named in a closing listing (a lesson can point to a script, but no script is ever read or edited).
 * A reference that is a symbolic link, not a regular file, or not valid UTF-8 is left out.
 */
import { lstatSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { TextDecoder } from 'node:util';
import { InputError } from '../core/errors.js';
import { ANY_MARKER, fileMarker, LISTING_END, LISTING_START, skillMdEnd } from './markers.js';
import { estimateTokens } from './tokens.js';

export interface PackageFile {
  /** Relative to the package folder, with `/` (`SKILL.md`, `references/api.md`). */
  relPath: string;
  livePath: string;
  text: string;
}

export interface SkillPackage {
  dir: string;
  skill: PackageFile;
  /** The references inlined into the joined document, in name order. */
  references: PackageFile[];
  /** References named but not inlined (over the inline limit). */
  namedReferences: string[];
  /** `scripts/...` entries, never read. */
  scripts: string[];
}

const utf8 = (bytes: Buffer): string | null => {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
};

/** Regular files directly in `dir` (a symbolic link or a linked folder is not followed). */
function regularFiles(dir: string): string[] {
  try {
    if (!lstatSync(dir).isDirectory()) return [];
    return readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isFile())
      .map((d) => d.name)
      .sort();
  } catch {
    return [];
  }
}

/** Read the package of a SKILL.md the caller has checked is where it may be. */
export function readSkillPackage(skillMd: string, inlineTokens: number): SkillPackage {
  const dir = path.dirname(skillMd);
  const bytes = readFileSync(skillMd);
  const text = utf8(bytes);
  if (text === null) throw new InputError(`skill ${skillMd} is not valid UTF-8; refusing to edit it`);
  if (ANY_MARKER.test(text))
    throw new InputError(`skill ${skillMd} holds a skillopt-sleep package marker; remove it`);
  const references: PackageFile[] = [];
  const namedReferences: string[] = [];
  const realDir = realpathSync(dir);
  for (const name of regularFiles(path.join(dir, 'references')).filter((n) => n.endsWith('.md'))) {
    const livePath = path.join(dir, 'references', name);
    // The folder itself may be a link out of the package: only what really lies inside it is read.
    if (!realpathSync(livePath).startsWith(realDir + path.sep)) continue;
    const refText = utf8(readFileSync(livePath));
    if (refText === null || ANY_MARKER.test(refText)) continue;
    const relPath = `references/${name}`;
    if (estimateTokens(refText) <= inlineTokens) references.push({ relPath, livePath, text: refText });
    else namedReferences.push(relPath);
  }
  let scripts: string[] = [];
  try {
    const scriptsDir = path.join(dir, 'scripts');
    if (lstatSync(scriptsDir).isDirectory()) {
      scripts = readdirSync(scriptsDir)
        .sort()
        .map((n) => `scripts/${n}`);
    }
  } catch {
    scripts = [];
  }
  return {
    dir,
    skill: { relPath: 'SKILL.md', livePath: skillMd, text },
    references,
    namedReferences,
    scripts,
  };
}

/** The closing listing: what the package holds that the target is not shown (names only). */
function listing(pkg: SkillPackage): string {
  const lines: string[] = [];
  if (pkg.scripts.length > 0)
    lines.push(`Scripts in this skill (run them by path; never edited): ${pkg.scripts.join(', ')}`);
  if (pkg.namedReferences.length > 0)
    lines.push(`References not shown here (read them when needed): ${pkg.namedReferences.join(', ')}`);
  return lines.length === 0 ? '' : `${LISTING_START}${lines.join('\n')}\n${LISTING_END}`;
}

/** The package as the one document a night trains and the target reads. */
export function joinPackage(pkg: SkillPackage): string {
  let doc = pkg.skill.text;
  for (const ref of pkg.references) doc += fileMarker(ref.relPath) + ref.text;
  return doc + listing(pkg);
}

/** Each trained file's text in a joined document; throws when a marker was lost. */
export function splitPackage(pkg: SkillPackage, doc: string): PackageFile[] {
  const tail = listing(pkg);
  if (!doc.endsWith(tail)) throw new InputError(`the joined skill ${pkg.skill.livePath} lost its listing`);
  let rest = doc.slice(0, doc.length - tail.length);
  const files: PackageFile[] = [];
  for (const ref of [...pkg.references].reverse()) {
    const marker = fileMarker(ref.relPath);
    const at = rest.lastIndexOf(marker);
    if (at === -1) throw new InputError(`the joined skill ${pkg.skill.livePath} lost ${ref.relPath}`);
    files.unshift({ ...ref, text: rest.slice(at + marker.length) });
    rest = rest.slice(0, at);
  }
  if (skillMdEnd(rest) !== rest.length)
    throw new InputError(`the joined skill ${pkg.skill.livePath} is malformed`);
  return [{ ...pkg.skill, text: rest }, ...files];
}
