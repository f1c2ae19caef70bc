/**
 * Which memory document a night trains: the one the agent the sessions came from reads (`CLAUDE.md`
 * for Claude Code, `AGENTS.md` for Codex, Pi, Cline, Roo Code and Cursor, `.github/copilot-instructions.md`
 * for Copilot, `GEMINI.md` for Gemini CLI, `CONVENTIONS.md` for Aider, the file its documentation has users
 * load with `--read`), unless `memory_target` names a file. The reference always wrote `CLAUDE.md`, even for Codex users.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { TextDecoder } from 'node:util';
import { InputError, IoError, errorMessage } from '../core/errors.js';
import type { Config } from '../config/schema.js';

export const MEMORY_FILES = {
  claude: 'CLAUDE.md',
  codex: 'AGENTS.md',
  copilot: '.github/copilot-instructions.md',
  'copilot-cli': '.github/copilot-instructions.md',
  gemini: 'GEMINI.md',
  pi: 'AGENTS.md',
  // Both read AGENTS.md beside their own rules folders (.clinerules, .roo/rules).
  cline: 'AGENTS.md',
  roo: 'AGENTS.md',
  'cursor-cli': 'AGENTS.md',
  aider: 'CONVENTIONS.md',
  // OpenCode reads AGENTS.md (its /init writes it); Goose reads AGENTS.md beside its .goosehints.
  opencode: 'AGENTS.md',
  goose: 'AGENTS.md',
  'cursor-ide': 'AGENTS.md',
} as const;
type Agent = keyof typeof MEMORY_FILES;
const AGENTS = Object.keys(MEMORY_FILES) as Agent[];

export interface MemoryTarget {
  livePath: string;
  /** null when the file does not exist (adoption then creates it, never empty). */
  liveText: string | null;
  /** Why this file: 'config' or the agent whose sessions dominated. */
  chosenBy: string;
}

/**
 * The agent most of the night's sessions came from (session keys are `<source>:<id>`); ties go to
 * the first in claude, codex, copilot, copilot-cli, gemini, pi, cline, roo, cursor-cli, aider, opencode, goose, cursor-ide order. null when there are no sessions.
 */
export function dominantAgent(sessionKeys: readonly string[]): Agent | null {
  const counts = new Map<Agent, number>();
  for (const key of sessionKeys) {
    const source = key.slice(0, key.indexOf(':')) as Agent;
    if (AGENTS.includes(source)) counts.set(source, (counts.get(source) ?? 0) + 1);
  }
  let best: Agent | null = null;
  for (const agent of AGENTS) {
    if ((counts.get(agent) ?? 0) > (best === null ? 0 : (counts.get(best) ?? 0))) best = agent;
  }
  return best;
}

export function resolveMemoryPath(
  project: string,
  config: Config,
  sessionKeys: readonly string[],
): { livePath: string; chosenBy: string } {
  if (config.memory_target !== 'auto') {
    return { livePath: path.resolve(project, config.memory_target), chosenBy: 'config' };
  }
  const fromSessions = dominantAgent(sessionKeys);
  const configured = config.transcript_source === 'all' ? null : config.transcript_source;
  const agent = fromSessions ?? configured ?? 'claude';
  return { livePath: path.join(project, MEMORY_FILES[agent]), chosenBy: agent };
}

export function loadMemoryTarget(
  project: string,
  config: Config,
  sessionKeys: readonly string[],
): MemoryTarget {
  const { livePath, chosenBy } = resolveMemoryPath(project, config, sessionKeys);
  return { livePath, liveText: readUtf8OrNull(livePath), chosenBy };
}

function readUtf8OrNull(file: string): string | null {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    if (code === 'EISDIR') throw new InputError(`memory document ${file} is a directory, not a file`);
    throw new IoError(`cannot read memory document ${file}: ${errorMessage(err)}`);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new InputError(`memory document ${file} is not valid UTF-8; refusing to edit it`);
  }
}
