/**
 * Claude Code `tool_use` blocks → `ToolAction`s, from each built-in tool's input schema. MCP tools,
 * agents, todo lists and tools added later are `other` with their name; nothing is dropped.
 */
import { joinStrings, stringArg, toolAction } from '../shared/actions.js';
import { isRecord } from '../shared/values.js';
import type { ToolAction } from '../../src/core/session.js';

export function claudeToolAction(name: string, input: unknown): ToolAction {
  const args = isRecord(input) ? input : {};
  switch (name) {
    case 'Bash':
      return toolAction('run', name, stringArg(args['command']));
    case 'Read':
      return toolAction('read', name, stringArg(args['file_path']));
    case 'NotebookRead':
      return toolAction('read', name, stringArg(args['notebook_path']));
    case 'Edit':
      return toolAction(
        'edit',
        name,
        stringArg(args['file_path']),
        stringArg(args['new_string']),
        stringArg(args['old_string']),
      );
    case 'MultiEdit': {
      const edits = Array.isArray(args['edits']) ? args['edits'].filter(isRecord) : [];
      return toolAction(
        'edit',
        name,
        stringArg(args['file_path']),
        joinStrings(edits.map((e) => e['new_string'])),
        joinStrings(edits.map((e) => e['old_string'])),
      );
    }
    case 'NotebookEdit':
      return toolAction('edit', name, stringArg(args['notebook_path']), stringArg(args['new_source']));
    case 'Write':
      return toolAction('write', name, stringArg(args['file_path']), stringArg(args['content']));
    case 'Grep':
    case 'Glob':
      return toolAction('search', name, stringArg(args['pattern']));
    case 'WebSearch':
      return toolAction('search', name, stringArg(args['query']));
    default:
      // BashOutput/KillShell (a running shell), LS, Task/Agent, TodoWrite, WebFetch, Skill, mcp__…
      return toolAction('other', name);
  }
}
