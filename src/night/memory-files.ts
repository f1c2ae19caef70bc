/**
 * Which memory file each agent reads, as data: one row per transcript source, so a new source is one
 * row. A lesson goes to the file of the agent whose sessions taught it, or to `AGENTS.md` when the
 * sessions of several agents (whose files differ) taught it (`memory-routes.ts`).
 *
 * Files are relative to the project. Two of them carry frontmatter an agent reads (`memory-format.ts`):
 * Cursor's rules (`.cursor/rules/*.mdc`) and Copilot's scoped instructions
 * (`.github/instructions/*.instructions.md`), which `memory_target` may name.
 */

export interface MemoryFileRow {
  /** The transcript source (`SourceId`). */
  source: string;
  /** The file the agent reads its standing instructions from, relative to the project. */
  file: string;
}

export const MEMORY_FILE_ROWS: readonly MemoryFileRow[] = [
  { source: 'claude', file: 'CLAUDE.md' },
  { source: 'codex', file: 'AGENTS.md' },
  { source: 'copilot', file: '.github/copilot-instructions.md' },
  { source: 'copilot-cli', file: '.github/copilot-instructions.md' },
  { source: 'gemini', file: 'GEMINI.md' },
  { source: 'pi', file: 'AGENTS.md' },
  // Both read AGENTS.md beside their own rules folders (.clinerules, .roo/rules).
  { source: 'cline', file: 'AGENTS.md' },
  { source: 'roo', file: 'AGENTS.md' },
  // Cursor's agent reads its project rules; one always-applied rule file holds what it learned.
  { source: 'cursor-cli', file: '.cursor/rules/skillopt-sleep-learned.mdc' },
  // Aider reads it when told to (`--read CONVENTIONS.md`, or `read:` in `.aider.conf.yml`).
  { source: 'aider', file: 'CONVENTIONS.md' },
  // OpenCode reads AGENTS.md (its /init writes it); Goose reads AGENTS.md beside its .goosehints.
  { source: 'opencode', file: 'AGENTS.md' },
  { source: 'goose', file: 'AGENTS.md' },
  // The Cursor editor's agent reads the same project rules as its CLI.
  { source: 'cursor-ide', file: '.cursor/rules/skillopt-sleep-learned.mdc' },
];

/** Where a lesson several agents taught goes: the file most agents read. */
export const SHARED_MEMORY_FILE = 'AGENTS.md';

/** The agent used when no session names one (a tasks file, without `transcript_source`). */
export const DEFAULT_MEMORY_AGENT = 'claude';

/** The memory file of a source; null for a source no row names. */
export function memoryFileOf(source: string): string | null {
  return MEMORY_FILE_ROWS.find((row) => row.source === source)?.file ?? null;
}

/** The sources in table order (ties between agents go to the earlier row). */
export const MEMORY_SOURCES: readonly string[] = MEMORY_FILE_ROWS.map((row) => row.source);

/** The source of a session key (`<source>:<id>`); '' when it has none. */
export function sourceOfSession(sessionKey: string): string {
  const colon = sessionKey.indexOf(':');
  return colon <= 0 ? '' : sessionKey.slice(0, colon);
}
