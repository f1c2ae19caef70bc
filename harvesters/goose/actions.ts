/**
 * Goose tool requests (`{"type":"toolRequest","toolCall":{"status":"success","value":{"name","arguments"}}}`)
 * → `ToolAction`s. An extension's tool is named `<extension>__<tool>` (`developer__shell`); the developer
 * extension's tools (`developer__<tool>`, or unprefixed since it became a platform extension; block/goose, crates/goose-mcp/src/developer and, since it became a platform extension,
 * crates/goose/src/agents/platform_extensions/developer) are read by their own name: `shell` (`command`),
 * `text_editor` (`command`: view, write, str_replace, insert, undo_edit; `path`, `file_text`, `old_str`,
 * `new_str`), `write` (`path`, `content`), `edit` (`path`, `before`, `after`), `glob`/`grep` (`pattern`).
 * Any other tool is `other` with its full name.
 */
import { stringArg, toolAction } from '../shared/actions.js';
import { isRecord } from '../shared/values.js';
import type { ToolAction } from '../../src/core/session.js';

/** A developer tool's own name (`developer__shell` → `shell`); other extensions' tools keep theirs. */
function baseName(name: string): string {
  const at = name.indexOf('__');
  return at >= 0 && name.slice(0, at) === 'developer' ? name.slice(at + 2) : name;
}

export function gooseToolAction(name: string, input: unknown): ToolAction {
  const args = isRecord(input) ? input : {};
  const file = stringArg(args['path']);
  switch (baseName(name)) {
    case 'shell':
      return toolAction('run', name, stringArg(args['command']));
    case 'text_editor':
      return textEditorAction(name, args, file);
    case 'write':
      return toolAction('write', name, file, stringArg(args['content']));
    case 'edit':
      return toolAction('edit', name, file, stringArg(args['after']), stringArg(args['before']));
    case 'glob':
    case 'grep':
      return toolAction('search', name, stringArg(args['pattern']) || stringArg(args['query']));
    default:
      return toolAction('other', name);
  }
}

function textEditorAction(name: string, args: Record<string, unknown>, file: string): ToolAction {
  switch (args['command']) {
    case 'view':
      return toolAction('read', name, file);
    case 'write':
      return toolAction('write', name, file, stringArg(args['file_text']));
    case 'str_replace':
      return toolAction('edit', name, file, stringArg(args['new_str']), stringArg(args['old_str']));
    case 'insert':
    case 'undo_edit':
      return toolAction('edit', name, file, stringArg(args['new_str']));
    default:
      return toolAction('other', name);
  }
}

/** The file a read, edit or write names ('' for other tools). */
export function gooseToolFile(name: string, input: unknown): string {
  const action = gooseToolAction(name, input);
  return ['read', 'edit', 'write'].includes(action.kind) ? action.target.trim() : '';
}
