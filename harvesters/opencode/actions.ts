/**
 * OpenCode tool parts (`{"type":"tool","tool":name,"state":{"input":…}}`) → `ToolAction`s, from its built-in
 * tools' parameters (packages/opencode/src/tool/*.ts in sst/opencode: camelCase `filePath`, `oldString`,
 * `newString`). MCP and plugin tools are `other` with their name.
 */
import { joinStrings, stringArg, toolAction } from '../shared/actions.js';
import { patchActions } from '../shared/patch-actions.js';
import { isRecord } from '../shared/values.js';
import type { ToolAction } from '../../src/core/session.js';

export function openCodeToolActions(name: string, input: unknown): ToolAction[] {
  const args = isRecord(input) ? input : {};
  const file = stringArg(args['filePath']);
  switch (name) {
    case 'bash':
      return [toolAction('run', name, stringArg(args['command']))];
    case 'read':
      return [toolAction('read', name, file)];
    case 'edit':
      return [toolAction('edit', name, file, stringArg(args['newString']), stringArg(args['oldString']))];
    case 'multiedit': {
      const edits = Array.isArray(args['edits']) ? args['edits'].filter(isRecord) : [];
      return [
        toolAction(
          'edit',
          name,
          file,
          joinStrings(edits.map((e) => e['newString'])),
          joinStrings(edits.map((e) => e['oldString'])),
        ),
      ];
    }
    case 'write':
      return [toolAction('write', name, file, stringArg(args['content']))];
    case 'patch':
    case 'apply_patch':
      return patchActions(name, stringArg(args['patchText']));
    case 'grep':
    case 'glob':
      return [toolAction('search', name, stringArg(args['pattern']))];
    case 'websearch':
    case 'codesearch':
      return [toolAction('search', name, stringArg(args['query']))];
    default:
      return [toolAction('other', name)];
  }
}

/** The file a read, edit or write names ('' for other tools). */
export function openCodeToolFile(name: string, input: unknown): string {
  if (!['read', 'edit', 'multiedit', 'write'].includes(name) || !isRecord(input)) return '';
  return stringArg(input['filePath']).trim();
}
