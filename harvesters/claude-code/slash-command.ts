/**
 * Claude Code writes a slash command as a user record of tags (`<command-name>/x</command-name>`,
 * `<command-args>…</command-args>`). A command that is a prompt (a custom command, a skill, `/review`)
 * is followed by its expansion, a meta record the user did not type; a local command (`/model`,
 * `/compact`) is not. So the command line of a prompt command with arguments is a prompt, written as
 * the user typed it; a bare one typed no words (the next prompt picks the job).
 */
const NAME = /<command-name>\s*([^<]*?)\s*<\/command-name>/;
const ARGS = /<command-args>([\s\S]*?)<\/command-args>/;

/** `/name args` from a command record, or undefined when it has no name or no arguments. */
export function typedCommandLine(text: string): string | undefined {
  const name = NAME.exec(text)?.[1];
  const args = ARGS.exec(text)?.[1]?.trim();
  if (name === undefined || name === '' || args === undefined || args === '') return undefined;
  return `${name.startsWith('/') ? name : `/${name}`} ${args}`;
}

/** A meta user record carrying a prompt's text (not a tag block such as the local-command caveat). */
export function isCommandExpansion(record: Record<string, unknown>, text: string): boolean {
  if (record['isMeta'] !== true || record['isSidechain'] === true || record['isCompactSummary'] === true)
    return false;
  const trimmed = text.trim();
  return trimmed !== '' && !(trimmed.startsWith('<') && trimmed.endsWith('>'));
}
