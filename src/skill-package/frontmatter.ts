/**
 * SKILL.md's YAML front matter, checked against the Agent Skills format (agentskills.io, Anthropic's
 * SKILL.md): `name` 1-64 characters of lowercase letters, digits and single hyphens, neither starting
 * nor ending with one; `description` 1-1024 characters; neither holds an XML tag. The trainer never
 * edits the front matter; a proposal whose SKILL.md would break these rules is refused.
 */
import { parse } from 'yaml';

export const NAME_MAX = 64;
export const DESCRIPTION_MAX = 1024;
const NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const XML_TAG = /<\/?[A-Za-z][^>]*>/;
/** The opening `---` line, the YAML, and the closing `---` line (with its line end). */
const FRONT = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

export interface FrontmatterSplit {
  /** The front matter with its delimiters, byte for byte ('' when there is none). */
  front: string;
  body: string;
}

export function splitFrontmatter(text: string): FrontmatterSplit {
  const m = FRONT.exec(text);
  if (!m) return { front: '', body: text };
  return { front: m[0], body: text.slice(m[0].length) };
}

/** What is wrong with a SKILL.md's front matter, or [] when it follows the format. */
export function frontmatterProblems(text: string): string[] {
  const m = FRONT.exec(text);
  if (!m) return ['no YAML front matter (--- name/description ---) at the top'];
  let data: unknown;
  try {
    data = parse(m[1] ?? '', { maxAliasCount: 0 });
  } catch {
    return ['the front matter is not valid YAML'];
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data))
    return ['the front matter is not a map'];
  const fields = data as Record<string, unknown>;
  const problems: string[] = [];
  const name = fields.name;
  if (typeof name !== 'string' || name.length === 0) problems.push('`name` is missing');
  else if (name.length > NAME_MAX) problems.push(`\`name\` is longer than ${NAME_MAX} characters`);
  else if (!NAME.test(name)) problems.push('`name` must be lowercase letters, digits and single hyphens');
  const description = fields.description;
  if (typeof description !== 'string' || description.trim() === '') problems.push('`description` is missing');
  else if (description.length > DESCRIPTION_MAX)
    problems.push(`\`description\` is longer than ${DESCRIPTION_MAX} characters`);
  else if (XML_TAG.test(description)) problems.push('`description` holds an XML tag');
  return problems;
}

/** The front matter's `name`, when it has a string one. */
export function frontmatterName(text: string): string | null {
  const m = FRONT.exec(text);
  if (!m) return null;
  try {
    const data = parse(m[1] ?? '', { maxAliasCount: 0 }) as unknown;
    const name = data && typeof data === 'object' ? (data as Record<string, unknown>).name : undefined;
    return typeof name === 'string' ? name : null;
  } catch {
    return null;
  }
}
