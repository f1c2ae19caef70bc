/**
 * The files coding agents read their standing instructions from: a memory document (`CLAUDE.md`,
 * `AGENTS.md`, `GEMINI.md`, Copilot's instructions), a rules file or folder (Cursor, Windsurf, Cline,
 * Roo), or an agent's settings. These are the agents' own conventions, not words of any log: an agent
 * that writes one of them in reply to a follow-up is recording what the user just told it.
 */

const MEMORY_NAMES = new Set([
  'claude.md',
  'claude.local.md',
  'agents.md',
  'agent.md',
  'gemini.md',
  'copilot-instructions.md',
  '.cursorrules',
  '.windsurfrules',
  '.clinerules',
  '.roorules',
  'conventions.md',
]);

/** Folders whose files are instructions to an agent. */
const INSTRUCTION_FOLDERS = [
  '/.cursor/rules/',
  '/.clinerules/',
  '/.roo/rules',
  '/.windsurf/rules/',
  '/.github/instructions/',
  '/.claude/rules/',
  '/.claude/memory/',
];

/** An agent's own settings files (permissions, hooks: "ask before …"). */
const SETTINGS = /\/\.(?:claude|codex|gemini|cursor)\/(?:settings(?:\.local)?\.json|config\.toml)$/;

export function isAgentInstructionFile(filePath: string): boolean {
  const p = `/${filePath.replace(/\\/g, '/').toLowerCase().replace(/^\/+/, '')}`;
  const name = p.slice(p.lastIndexOf('/') + 1);
  if (MEMORY_NAMES.has(name)) return true;
  if (SETTINGS.test(p)) return true;
  // Claude Code keeps a project's auto memory under ~/.claude/projects/<folder>/memory/.
  if (p.includes('/.claude/projects/') && p.includes('/memory/')) return true;
  return INSTRUCTION_FOLDERS.some((folder) => p.includes(folder));
}

/**
 * Where an agent keeps its own standing state rather than a project's documents: its auto memory and
 * its settings. An agent that opens, lists or searches one of these in reply to a follow-up (even
 * when the session ends before it writes) is about to record what the user just told it; reading a
 * project's `CLAUDE.md` before a task is not that.
 */
const AGENT_STATE =
  /\/\.(?:claude|codex|gemini|cursor)\/(?:settings[^/]*\.json|config\.toml)$|\/\.claude\/projects\/[^/]+\/memory(?:\/|$)/;

/** Whether a tool's target (a path, a glob, or a command line holding paths) names an agent's own state. */
export function namesAgentState(target: string): boolean {
  return target
    .split(/[\s'"`;|&()<>]+/)
    .some(
      (word) =>
        word !== '' && AGENT_STATE.test(`/${word.replace(/\\/g, '/').toLowerCase().replace(/^\/+/, '')}`),
    );
}
