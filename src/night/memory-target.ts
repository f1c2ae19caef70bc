/**
 * Which memory document a night trains: the one the agent the sessions came from reads (the table in
 * `memory-files.ts`: `CLAUDE.md` for Claude Code, `AGENTS.md` for Codex, Pi, Cline and Roo Code,
 * Cursor's rules file for Cursor, `.github/copilot-instructions.md` for Copilot, `GEMINI.md` for Gemini
 * CLI, `CONVENTIONS.md` for Aider), unless `memory_target` names a file. The reference always wrote
 * `CLAUDE.md`, even for Codex users. With several agents a night may train several files
 * (`memory-routes.ts`).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { TextDecoder } from 'node:util';
import { InputError, IoError, errorMessage } from '../core/errors.js';
import type { TaskRecord } from '../core/task.js';
import type { Config } from '../config/schema.js';
import { DEFAULT_MEMORY_AGENT, MEMORY_SOURCES, memoryFileOf, sourceOfSession } from './memory-files.js';
import { memoryFormatOf, newMemoryText, type MemoryFormat } from './memory-format.js';

export interface MemoryTarget {
  livePath: string;
  /** null when the file does not exist (adoption then creates it, never empty). */
  liveText: string | null;
  /** Why this file: 'config', the agent whose sessions taught its lessons, or 'shared' (several agents). */
  chosenBy: string;
  format: MemoryFormat;
  /** What training starts from: the live text, or a new file's frontmatter (empty for Markdown). */
  startText: string;
  /** The tasks whose lessons this file holds; absent: every task the pass trains on. */
  tasks?: TaskRecord[];
}

/**
 * The agent most of the night's sessions came from (session keys are `<source>:<id>`); ties go to
 * the earlier row of the table. null when there are no sessions of a known source.
 */
export function dominantAgent(sessionKeys: readonly string[]): string | null {
  const counts = new Map<string, number>();
  for (const key of sessionKeys) {
    const source = sourceOfSession(key);
    if (MEMORY_SOURCES.includes(source)) counts.set(source, (counts.get(source) ?? 0) + 1);
  }
  let best: string | null = null;
  for (const agent of MEMORY_SOURCES) {
    if ((counts.get(agent) ?? 0) > (best === null ? 0 : (counts.get(best) ?? 0))) best = agent;
  }
  return best;
}

/** The agent a night without sessions of a known source writes for: the configured source, else Claude Code. */
export function fallbackAgent(config: Config): string {
  return config.transcript_source === 'all' ? DEFAULT_MEMORY_AGENT : config.transcript_source;
}

export function resolveMemoryPath(
  project: string,
  config: Config,
  sessionKeys: readonly string[],
): { livePath: string; chosenBy: string } {
  if (config.memory_target !== 'auto') {
    return { livePath: path.resolve(project, config.memory_target), chosenBy: 'config' };
  }
  const agent = dominantAgent(sessionKeys) ?? fallbackAgent(config);
  const file = memoryFileOf(agent) ?? memoryFileOf(DEFAULT_MEMORY_AGENT) ?? 'CLAUDE.md';
  return { livePath: path.join(project, file), chosenBy: agent };
}

/** The document at `livePath`, read (UTF-8, or refused), with what training starts from. */
export function readMemoryTarget(livePath: string, chosenBy: string): MemoryTarget {
  const liveText = readUtf8OrNull(livePath);
  const format = memoryFormatOf(livePath);
  return { livePath, liveText, chosenBy, format, startText: liveText ?? newMemoryText(format) };
}

export function loadMemoryTarget(
  project: string,
  config: Config,
  sessionKeys: readonly string[],
): MemoryTarget {
  const { livePath, chosenBy } = resolveMemoryPath(project, config, sessionKeys);
  return readMemoryTarget(livePath, chosenBy);
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
