/**
 * Copilot tool calls → `ToolAction`s: the Copilot CLI's tools (`bash`, `view`, `edit`, `create`,
 * `str_replace_editor`, `grep`, `glob`…) and VS Code Copilot Chat's (`run_in_terminal`, `read_file` /
 * `copilot_readFile`, `replace_string_in_file`, `create_file`, `apply_patch`, search tools…). The
 * event streams (`events.jsonl`, VS Code's `transcripts/`) record each call's arguments; VS Code's chat
 * sessions record none and use only `vscodeToolKind` (copilot-vscode-actions.ts reads their messages).
 */
import { stringArg, toolAction } from './actions.js';
import { patchActions } from './patch-actions.js';
import { isRecord } from './values.js';
import type { ActionKind, ToolAction } from '../../src/core/session.js';

/** Copilot CLI tool names. */
const CLI_KINDS = new Map<string, ActionKind>([
  ['bash', 'run'],
  ['shell', 'run'],
  ['powershell', 'run'],
  ['view', 'read'],
  ['edit', 'edit'],
  ['str_replace', 'edit'],
  ['create', 'write'],
  ['grep', 'search'],
  ['glob', 'search'],
]);
/** `str_replace_editor` does what its `command` argument says. */
const EDITOR_COMMAND_KINDS = new Map<string, ActionKind>([
  ['view', 'read'],
  ['create', 'write'],
  ['str_replace', 'edit'],
  ['insert', 'edit'],
  ['undo_edit', 'edit'],
]);
/** VS Code Copilot Chat tool ids, both the model-facing names and the `copilot_*` ids VS Code stores. */
const VSCODE_KINDS = new Map<string, ActionKind>([
  ['run_in_terminal', 'run'],
  ['copilot_runInTerminal', 'run'],
  ['read_file', 'read'],
  ['copilot_readFile', 'read'],
  ['replace_string_in_file', 'edit'],
  ['copilot_replaceString', 'edit'],
  ['multi_replace_string_in_file', 'edit'],
  ['copilot_multiReplaceString', 'edit'],
  ['insert_edit_into_file', 'edit'],
  ['copilot_insertEdit', 'edit'],
  ['apply_patch', 'edit'],
  ['copilot_applyPatch', 'edit'],
  ['edit_notebook_file', 'edit'],
  ['copilot_editNotebook', 'edit'],
  ['create_file', 'write'],
  ['copilot_createFile', 'write'],
]);
/** `copilot_findTextInFiles`, `file_search`, `semantic_search`, `copilot_searchCodebase`… */
const SEARCH_TOOL = /find|grep|search/i;

export function vscodeToolKind(toolId: string): ActionKind {
  return VSCODE_KINDS.get(toolId) ?? (SEARCH_TOOL.test(toolId) ? 'search' : 'other');
}

/** One call of an event stream (its arguments an object or their JSON text) → its actions. */
export function copilotToolActions(name: string, rawArgs: unknown): ToolAction[] {
  const parsed = parseArguments(rawArgs);
  const args = isRecord(parsed) ? parsed : {};
  if (name === 'apply_patch' || name === 'copilot_applyPatch') {
    const actions = patchActions(name, typeof parsed === 'string' ? parsed : stringArg(args['input']));
    return actions.length > 0 ? actions : [toolAction('edit', name)];
  }
  if (name === 'multi_replace_string_in_file' || name === 'copilot_multiReplaceString') {
    const replacements = Array.isArray(args['replacements']) ? args['replacements'].filter(isRecord) : [];
    if (replacements.length > 0) return replacements.map((r) => fileAction('edit', name, r));
  }
  const kind = kindOf(name, args);
  if (kind === 'run') return [toolAction(kind, name, stringArg(args['command'] ?? args['cmd']))];
  if (kind === 'search') return [toolAction(kind, name, stringArg(args['pattern'] ?? args['query']))];
  if (kind === 'other') return [toolAction(kind, name)];
  return [fileAction(kind, name, args)];
}

export function parseArguments(args: unknown): unknown {
  if (typeof args !== 'string' || !args.trimStart().startsWith('{')) return args;
  try {
    return JSON.parse(args) as unknown;
  } catch {
    return args;
  }
}

function kindOf(name: string, args: Record<string, unknown>): ActionKind {
  if (name === 'str_replace_editor') return EDITOR_COMMAND_KINDS.get(stringArg(args['command'])) ?? 'edit';
  return CLI_KINDS.get(name) ?? vscodeToolKind(name);
}

/** read/edit/write/delete: the path, and for changes the new and the replaced text. */
function fileAction(kind: ActionKind, name: string, args: Record<string, unknown>): ToolAction {
  const target = stringArg(args['path'] ?? args['filePath'] ?? args['file_path']);
  if (kind === 'read' || kind === 'delete') return toolAction(kind, name, target);
  const added = firstString(args, ['new_str', 'newString', 'file_text', 'content', 'code', 'newCode']);
  return toolAction(kind, name, target, added, firstString(args, ['old_str', 'oldString']));
}

function firstString(args: Record<string, unknown>, keys: readonly string[]): string {
  for (const key of keys) {
    const value = args[key];
    if (typeof value === 'string') return value;
  }
  return '';
}
