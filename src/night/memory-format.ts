/**
 * The formats of memory files: plain Markdown, or Markdown under a frontmatter an agent reads.
 *
 * - Cursor's rules, `.cursor/rules/*.mdc`: `description` (text), `globs` (a comma-separated list, not
 *   strict YAML: `**\/*.ts` unquoted is usual), `alwaysApply` (`true` or `false`, never quoted: a quoted
 *   one is not applied).
 * - Copilot's scoped instructions, `.github/instructions/*.instructions.md`: `applyTo` (the globs of the
 *   files they apply to; without it the file is never applied on its own), optional `description`.
 *
 * A night changes only the learned block of the body, so an existing frontmatter stays byte for byte;
 * a new file starts with a frontmatter that applies everywhere. Before a document is staged its
 * frontmatter is read back (`frontmatterProblem`): a proposal never holds one an agent would skip.
 */
import path from 'node:path';

export type MemoryFormat = 'markdown' | 'cursor-rule' | 'copilot-instructions';

const FENCE = '---';

export function memoryFormatOf(livePath: string): MemoryFormat {
  const posix = livePath.split(path.sep).join('/');
  const name = path.posix.basename(posix);
  if (name.endsWith('.mdc') && posix.includes('/.cursor/rules/')) return 'cursor-rule';
  if (name.endsWith('.instructions.md') && posix.includes('/.github/instructions/'))
    return 'copilot-instructions';
  return 'markdown';
}

/** What a new file of the format starts with (the learned block follows it). */
export function newMemoryText(format: MemoryFormat): string {
  switch (format) {
    case 'markdown':
      return '';
    case 'cursor-rule':
      return [
        FENCE,
        'description: Rules learned from your corrections by skillopt-sleep',
        'globs:',
        'alwaysApply: true',
        FENCE,
        '',
      ].join('\n');
    case 'copilot-instructions':
      return [
        FENCE,
        'description: Rules learned from your corrections by skillopt-sleep',
        "applyTo: '**'",
        FENCE,
        '',
      ].join('\n');
    default: {
      const never: never = format;
      return never;
    }
  }
}

interface Frontmatter {
  /** Keys in order, values as written (after the colon, trimmed). */
  fields: Map<string, string>;
  /** A line that is neither `key: value`, a continuation, a comment nor blank. */
  badLine: string | null;
}

/** The frontmatter of `text` (a `---` line first, closed by another); null when it has none. */
export function readFrontmatter(text: string): Frontmatter | null {
  const lines = text.split('\n');
  if ((lines[0] ?? '').trimEnd() !== FENCE) return null;
  const end = lines.findIndex((line, i) => i > 0 && line.trimEnd() === FENCE);
  if (end === -1) return { fields: new Map(), badLine: '(no closing ---)' };
  const fields = new Map<string, string>();
  let badLine: string | null = null;
  let last = '';
  for (const line of lines.slice(1, end)) {
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    const field = /^([A-Za-z_][\w-]*)\s*:(.*)$/.exec(line);
    if (field) {
      last = field[1] ?? '';
      fields.set(last, (field[2] ?? '').trim());
    } else if (/^\s/.test(line) && last !== '') {
      // A continuation (an indented list item or a folded value) of the key before it.
      fields.set(last, `${fields.get(last) ?? ''}\n${line.trim()}`.trim());
    } else badLine ??= line;
  }
  return { fields, badLine };
}

const unquoted = (value: string): string => value.replace(/^(['"])(.*)\1$/s, '$2');

/**
 * Why the document's frontmatter would not be read by its agent; null when it would. A Markdown file
 * needs none; a rule or instructions file must have one its agent applies.
 */
export function frontmatterProblem(format: MemoryFormat, text: string): string | null {
  if (format === 'markdown') return null;
  const fm = readFrontmatter(text);
  if (fm === null) return 'it has no frontmatter (a --- block first)';
  if (fm.badLine !== null) return `its frontmatter has a line that is not "key: value": ${fm.badLine}`;
  if (format === 'cursor-rule') {
    const always = fm.fields.get('alwaysApply');
    if (always !== undefined && always !== 'true' && always !== 'false')
      return `alwaysApply is ${always}, not true or false`;
    const applies =
      always === 'true' ||
      unquoted(fm.fields.get('globs') ?? '') !== '' ||
      unquoted(fm.fields.get('description') ?? '') !== '';
    return applies ? null : 'it applies nowhere: no alwaysApply: true, globs or description';
  }
  const applyTo = unquoted(fm.fields.get('applyTo') ?? '');
  return applyTo === '' ? 'it has no applyTo: Copilot would never apply it' : null;
}

/** The frontmatter block as written (with its fences and newline), '' when there is none. */
export function frontmatterBlock(text: string): string {
  if (readFrontmatter(text) === null) return '';
  const close = text.indexOf(`\n${FENCE}`, FENCE.length);
  if (close === -1) return '';
  const lineEnd = text.indexOf('\n', close + 1);
  return lineEnd === -1 ? text : text.slice(0, lineEnd + 1);
}
