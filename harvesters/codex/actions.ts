/**
 * Codex tool calls → `ToolAction`s. A call is kept as it was recorded (`CodexCall`) and only turned into
 * actions for the stream the session's turns are built from (codex-session.ts), so the duplicate stream
 * costs nothing. Shell tools give the command line (for `["bash", "-lc", script]` the script), apply_patch
 * one action per file; a shell command that pipes a patch into `apply_patch` is read as that patch.
 */
import { stringArg, toolAction } from '../shared/actions.js';
import { isRecord } from './text.js';
import { diffText, isPatchText, patchActions } from '../shared/patch-actions.js';
import type { ToolAction } from '../../src/core/session.js';

/** A tool call as the rollout recorded it. */
export type CodexCall =
  /**
   * `function_call.arguments` / chat `tool_calls` arguments (JSON, parsed or still text) and
   * `custom_tool_call.input` (free text).
   */
  | { type: 'function'; args: unknown }
  /** `local_shell_call.action` / `web_search_call.action`. */
  | { type: 'action'; action: unknown }
  /** `exec_command_end` event: its `command`. */
  | { type: 'execEvent'; command: unknown }
  /** `patch_apply_end` event: its `changes` (path → add/update/delete). */
  | { type: 'patchEvent'; changes: unknown };

const RUN_TOOLS = new Set(['shell', 'shell_command', 'exec_command', 'local_shell', 'container.exec']);
const SHELL_SCRIPT_FLAGS = new Set(['-c', '-lc', '-ic', '-lic', '-cl']);
const APPLY_PATCH_COMMAND = /(?:^|[\s;&|(])apply_?patch\b/;

export function codexActions(name: string, call: CodexCall): ToolAction[] {
  switch (call.type) {
    case 'execEvent':
      return runActions(name, call.command);
    case 'patchEvent':
      return patchEventActions(name, call.changes);
    case 'action':
      return actionItemActions(name, call.action);
    case 'function':
      return functionActions(name, call.args);
  }
}

function functionActions(name: string, rawArgs: unknown): ToolAction[] {
  const args = parseArguments(rawArgs);
  const fields = isRecord(args) ? args : {};
  if (RUN_TOOLS.has(name)) return runActions(name, fields['command'] ?? fields['cmd']);
  if (name === 'apply_patch') {
    const patch = typeof args === 'string' ? args : stringArg(fields['input'] ?? fields['patch']);
    const actions = patchActions(name, patch);
    return actions.length > 0 ? actions : [toolAction('edit', name)];
  }
  if (name === 'read_file' || name === 'view_image') {
    return [toolAction('read', name, stringArg(fields['file_path'] ?? fields['path']))];
  }
  if (name === 'grep_files') return [toolAction('search', name, stringArg(fields['pattern']))];
  return [toolAction('other', name)]; // update_plan, list_dir, write_stdin, MCP tools…
}

/** `local_shell_call` runs `action.command`; `web_search_call` searches `action.query`. */
function actionItemActions(name: string, action: unknown): ToolAction[] {
  const fields = isRecord(action) ? action : {};
  if (name === 'web_search') return [toolAction('search', name, stringArg(fields['query']))];
  if (RUN_TOOLS.has(name)) return runActions(name, fields['command']);
  return [toolAction('other', name)];
}

/** `function_call.arguments` is JSON text; custom tools (apply_patch) take free text. */
function parseArguments(args: unknown): unknown {
  if (typeof args !== 'string' || !args.trimStart().startsWith('{')) return args;
  try {
    return JSON.parse(args) as unknown;
  } catch {
    return args;
  }
}

function runActions(name: string, command: unknown): ToolAction[] {
  const argv = Array.isArray(command) ? command.filter((a): a is string => typeof a === 'string') : [];
  // `["apply_patch", "*** Begin Patch…"]`: the older way Codex applied a patch through its shell tool.
  if (argv.length >= 2 && /^apply_?patch$/.test(argv[0] ?? '') && isPatchText(argv[1] ?? '')) {
    return patchActions(name, argv[1] ?? '');
  }
  const line = typeof command === 'string' ? command : commandLine(argv);
  // `bash -lc "apply_patch <<'PATCH'\n*** Begin Patch…"`: the patch, not the heredoc.
  if (isPatchText(line) && APPLY_PATCH_COMMAND.test(line)) {
    const actions = patchActions(name, line);
    if (actions.length > 0) return actions;
  }
  return [toolAction('run', name, line)];
}

/** The script of `["bash", "-lc", script]` (what the agent wrote), else the words joined. */
function commandLine(argv: readonly string[]): string {
  const flag = argv.findIndex((arg, i) => i > 0 && SHELL_SCRIPT_FLAGS.has(arg));
  const script = flag === -1 ? undefined : argv[flag + 1];
  return script ?? argv.join(' ');
}

/** `changes: {path: {add: {content}} | {update: {unified_diff}} | {delete: …}}` (or `{type: …}`). */
function patchEventActions(name: string, changes: unknown): ToolAction[] {
  if (!isRecord(changes)) return [toolAction('edit', name)];
  const actions: ToolAction[] = [];
  for (const [filePath, change] of Object.entries(changes)) {
    const c = isRecord(change) ? change : {};
    const tag = typeof c['type'] === 'string' ? c['type'] : undefined;
    const body = (key: string): Record<string, unknown> | undefined =>
      tag === key ? c : isRecord(c[key]) ? c[key] : undefined;
    const add = body('add');
    const update = body('update');
    if (add !== undefined) actions.push(toolAction('write', name, filePath, stringArg(add['content'])));
    else if (body('delete') !== undefined) actions.push(toolAction('delete', name, filePath));
    else {
      const diff = diffText(stringArg(update?.['unified_diff']));
      actions.push(toolAction('edit', name, filePath, diff.added, diff.removed));
    }
  }
  return actions.length > 0 ? actions : [toolAction('edit', name)];
}
