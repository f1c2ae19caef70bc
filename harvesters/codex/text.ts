/**
 * Codex text rules: which user texts are real prompts (harvest-spec §3.4, §6.2), what a tool output
 * says about the call (§3.6), and the few names kept from tool arguments (skills, patched files).
 * Pure functions; nothing here reads files.
 */
import { isRecord, parseUtcMs } from '../shared/values.js';

export { isRecord, parseUtcMs };

/** Codex-injected user messages start with one of these; they are context, not prompts. */
const INJECTED_PREFIXES = [
  '<environment_context',
  '<user_instructions',
  '<codex_internal_context',
  '<permissions instructions',
  '<INSTRUCTIONS>',
  '# AGENTS.md instructions for ',
];
/** A prompt typed after injected blocks in the same message starts after the last of these. */
const INJECTED_CLOSERS = [
  '</environment_context>',
  '</user_instructions>',
  '</codex_internal_context>',
  '</permissions instructions>',
  '</INSTRUCTIONS>',
];
const PROJECT_DOC_MARKER = '--- project-doc ---';
/** IDE wrappers (VS Code extension, Desktop): the prompt follows the last request marker. */
const IDE_WRAPPER_PREFIXES = ['# Context from my IDE setup:', '# Files mentioned by the user:'];
const IDE_REQUEST_MARKER = '## My request for Codex:';
const COMMAND_MARKERS = ['<command-message>', '<command-name>'];
const COMMAND_MARKER_WINDOW = 200;
/** A bare slash command ("/review", "/model gpt-5") is not a task; a path ("/src/a.ts fails") is. */
const SLASH_COMMAND = /^\/[A-Za-z][\w:-]*$/;
const MAX_SLASH_COMMAND_WORDS = 3;
/** `<cwd>…</cwd>` (most builds) or a `Current working directory: …` line (Aug 2025). */
const ENV_CWD =
  /<environment_context>[\s\S]*?(?:<cwd>([^<]*)<\/cwd>|Current working directory:[ \t]*([^\n<]*))/;
const SKILL_BLOCK_NAME = /^<skill>\s*<name>([^<]+)<\/name>/;

/**
 * The prompt a user message carries, or undefined when it is injected context, an IDE wrapper with
 * no request, or a meta prompt. Line breaks are normalised (old files use bare `\r`), NULs removed.
 */
export function cleanUserText(raw: string): string | undefined {
  let text = raw.replace(/\r\n?/g, '\n').replace(/\0/g, '').trim();
  if (IDE_WRAPPER_PREFIXES.some((prefix) => text.startsWith(prefix))) {
    const marker = text.lastIndexOf(IDE_REQUEST_MARKER);
    if (marker < 0) return undefined;
    text = text.slice(marker + IDE_REQUEST_MARKER.length).trim();
  }
  if (INJECTED_PREFIXES.some((prefix) => text.startsWith(prefix))) {
    const rest = textAfterInjectedBlocks(text);
    if (rest === undefined) return undefined;
    text = rest;
  }
  if (text.includes(PROJECT_DOC_MARKER)) return undefined;
  return isMetaPrompt(text) ? undefined : text;
}

/** What follows the last injected block; undefined when nothing typed by the user is left. */
function textAfterInjectedBlocks(text: string): string | undefined {
  let end = -1;
  for (const closer of INJECTED_CLOSERS) {
    const at = text.lastIndexOf(closer);
    if (at >= 0) end = Math.max(end, at + closer.length);
  }
  if (end < 0) return undefined;
  const rest = text.slice(end).trim();
  return rest === '' || rest.startsWith('<') ? undefined : rest;
}

/** harvest-spec §6.2, with the slash rule narrowed to command-like first words. */
function isMetaPrompt(text: string): boolean {
  if (text === '') return true;
  if (text.startsWith('<') && text.endsWith('>')) return true;
  if (text.startsWith('[Pasted text') || text.startsWith('Caveat:') || text.startsWith('# /')) return true;
  const head = text.slice(0, COMMAND_MARKER_WINDOW);
  if (COMMAND_MARKERS.some((marker) => head.includes(marker))) return true;
  const words = text.split(/\s+/);
  return words.length <= MAX_SLASH_COMMAND_WORDS && SLASH_COMMAND.test(words[0] ?? '');
}

/** The `<cwd>` of an `<environment_context>` block (the only cwd the Aug-2025 files record). */
export function environmentCwd(text: string): string | undefined {
  const match = ENV_CWD.exec(text);
  const cwd = (match?.[1] ?? match?.[2])?.trim();
  return cwd === undefined || cwd === '' ? undefined : cwd;
}

/** The skill named by an injected `<skill><name>…</name>` block (a `$skill` the user invoked). */
export function injectedSkillName(text: string): string | undefined {
  const name = SKILL_BLOCK_NAME.exec(text.trim())?.[1]?.trim();
  return name === undefined || name === '' ? undefined : name;
}

// ---------------------------------------------------------------------------------------------
// Tool outputs

export type ToolOutcome = 'ok' | 'error' | 'rejected';

/** `Exit code: N` (shell_command) or `Process exited with code N` (exec_command) in the header. */
const EXIT_CODE_LINE = /(?:^|\n)(?:Exit code:|Process exited with code)\s*(-?\d+)/;
const OUTPUT_HEADER_CHARS = 400;
/** First-line shapes of Codex's own failure messages (patch verification, sandbox, bad calls). */
const ERROR_OUTPUT_PATTERNS = [
  /^error\b/i,
  /^[\w.-]+ verification failed\b/i,
  /^failed\b/i,
  /^unsupported call\b/i,
  /^execution error\b/i,
  /^sandbox error\b/i,
];
/** What Codex records when the user denies an approval request. */
const REJECTION_PATTERN = /^(?:exec command |patch )?rejected by user/i;

/**
 * What a function/custom tool output says: a non-zero exit code or a failure message is an error;
 * a denied approval is a rejection (an interrupt, as for Claude). Outputs are read, never kept.
 */
export function classifyToolOutput(output: unknown): ToolOutcome {
  if (isRecord(output) && output['success'] === false) return 'error';
  const text = toolOutputText(output).trim();
  if (text === '') return 'ok';
  if (REJECTION_PATTERN.test(text)) return 'rejected';
  if (text.startsWith('{')) return classifyJsonOutput(text);
  const exit = EXIT_CODE_LINE.exec(text.slice(0, OUTPUT_HEADER_CHARS));
  if (exit?.[1] !== undefined) return Number(exit[1]) === 0 ? 'ok' : 'error';
  return ERROR_OUTPUT_PATTERNS.some((pattern) => pattern.test(text)) ? 'error' : 'ok';
}

/** Aug-2025 shell outputs and apply_patch outputs: `{"output": …, "metadata": {"exit_code": N}}`. */
function classifyJsonOutput(text: string): ToolOutcome {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'ok';
  }
  if (!isRecord(value)) return 'ok';
  if (value['success'] === false) return 'error';
  const metadata = value['metadata'];
  const exitCode = isRecord(metadata) ? metadata['exit_code'] : undefined;
  return typeof exitCode === 'number' && exitCode !== 0 ? 'error' : 'ok';
}

/** Outputs are a string, a list of content items, or (newer builds) `{content, success}`. */
function toolOutputText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (Array.isArray(output)) return contentText(output);
  return isRecord(output) ? toolOutputText(output['content']) : '';
}

/** Text of a message `content`: a string or `input_text` / `output_text` / `text` parts joined. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter(isRecord)
    .filter((part) => typeof part['text'] === 'string' && part['type'] !== 'reasoning_text')
    .map((part) => part['text'] as string)
    .join('\n');
}

// ---------------------------------------------------------------------------------------------
// Names kept from tool arguments

const MAX_TOOL_NAME = 80;
const PATCH_FILE = /^\*\*\* (?:Add File|Update File|Delete File|Move to): (.+)$/gm;
/** `…/skills/[.system/]<name>/SKILL.md` read by a shell command: the agent opened that skill. */
const SKILL_FILE = /[\\/]skills[\\/]+(?:[^\s"'`\\/]+[\\/]+)*?([^\s"'`\\/]+)[\\/]+SKILL\.md\b/g;
const MAX_STRING_DEPTH = 4;

/** harvest-spec §3.6: `[^A-Za-z0-9_.:-]+` → `_`, at most 80 characters. */
export function sanitizeToolName(name: string): string {
  return name
    .trim()
    .replace(/[^A-Za-z0-9_.:-]+/g, '_')
    .slice(0, MAX_TOOL_NAME);
}

/** Every string in a tool's arguments (JSON-encoded strings are decoded first). */
export function argumentStrings(value: unknown, depth = 0): string[] {
  if (typeof value === 'string') {
    const trimmed = value.trimStart();
    if (depth < MAX_STRING_DEPTH && (trimmed.startsWith('{') || trimmed.startsWith('['))) {
      try {
        return argumentStrings(JSON.parse(trimmed) as unknown, depth + 1);
      } catch {
        return [value];
      }
    }
    return [value];
  }
  if (depth >= MAX_STRING_DEPTH) return [];
  if (Array.isArray(value)) return value.flatMap((item) => argumentStrings(item, depth + 1));
  if (isRecord(value)) return Object.values(value).flatMap((item) => argumentStrings(item, depth + 1));
  return [];
}

/** Files named in `*** Update File:`-style apply_patch headers. */
export function patchedFiles(text: string): string[] {
  if (!text.includes('*** ')) return [];
  return [...text.matchAll(PATCH_FILE)].map((m) => (m[1] ?? '').trim()).filter((p) => p !== '');
}

export function skillFileNames(text: string): string[] {
  if (!text.includes('SKILL.md')) return [];
  return [...text.matchAll(SKILL_FILE)].map((m) => m[1] ?? '').filter((name) => name !== '');
}

// ---------------------------------------------------------------------------------------------
// Small helpers shared by the Codex modules

export function nonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}
