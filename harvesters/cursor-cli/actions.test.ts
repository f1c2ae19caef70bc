import { describe, expect, it } from 'vitest';
import type { ToolAction } from '../../src/core/session.js';
import { cursorToolActions, cursorToolPaths } from './actions.js';
import { act } from '../shared/test-helpers.js';

describe('cursor tool calls', () => {
  it('maps Cursor names and the older snake_case ones by their arguments', () => {
    const cases: Array<[string, unknown, ToolAction[]]> = [
      ['Shell', { command: 'npm test', working_directory: '/w' }, [act('run', 'Shell', 'npm test')]],
      ['ReadFile', { path: '/w/a.ts' }, [act('read', 'ReadFile', '/w/a.ts')]],
      ['Write', { path: '/w/b.ts', contents: 'x' }, [act('write', 'Write', '/w/b.ts', 'x')]],
      [
        'StrReplace',
        { path: 'a', old_string: 'o', new_string: 'n' },
        [act('edit', 'StrReplace', 'a', 'n', 'o')],
      ],
      [
        'MultiEdit',
        {
          file_path: 'a',
          edits: [
            { old_string: 'o1', new_string: 'n1' },
            { old_string: 'o2', new_string: 'n2' },
          ],
        },
        [act('edit', 'MultiEdit', 'a', 'n1\nn2', 'o1\no2')],
      ],
      ['Delete', { path: 'gone.txt' }, [act('delete', 'Delete', 'gone.txt')]],
      [
        'ApplyPatch',
        { patch: '*** Begin Patch\n*** Add File: n.md\n+hi\n*** End Patch' },
        [act('write', 'ApplyPatch', 'n.md', 'hi')],
      ],
      [
        'ApplyPatch',
        { path: 'src/app.ts', patch: '@@ -1 +1 @@\n-a\n+b' },
        [act('edit', 'ApplyPatch', 'src/app.ts')],
      ],
      ['Grep', { pattern: 'TODO', path: '/w' }, [act('search', 'Grep', 'TODO')]],
      ['Glob', { glob_pattern: '**/*.md' }, [act('search', 'Glob', '**/*.md')]],
      ['SemanticSearch', { query: 'auth flow' }, [act('search', 'SemanticSearch', 'auth flow')]],
      ['WebSearch', { search_term: 'zod v4' }, [act('search', 'WebSearch', 'zod v4')]],
      ['run_terminal_cmd', { command: 'ls' }, [act('run', 'run_terminal_cmd', 'ls')]],
      ['read_file', { target_file: 'x.py' }, [act('read', 'read_file', 'x.py')]],
      ['edit_file', { target_file: 'x.py', code_edit: 'y' }, [act('edit', 'edit_file', 'x.py', 'y')]],
      [
        'search_replace',
        { file_path: 'x.py', old_string: 'a', new_string: 'b' },
        [act('edit', 'search_replace', 'x.py', 'b', 'a')],
      ],
      ['grep_search', { query: 'foo' }, [act('search', 'grep_search', 'foo')]],
      ['file_search', { query: 'conf' }, [act('search', 'file_search', 'conf')]],
      ['codebase_search', { query: 'where' }, [act('search', 'codebase_search', 'where')]],
      ['delete_file', { target_file: 'old.py' }, [act('delete', 'delete_file', 'old.py')]],
      ['TodoWrite', { todos: [] }, [act('other', 'TodoWrite')]],
      ['CallMcpTool', { server: 'x' }, [act('other', 'CallMcpTool')]],
      ['Shell', 'not an object', [act('run', 'Shell', '')]],
    ];
    for (const [name, input, expected] of cases)
      expect(cursorToolActions(name, input), name).toEqual(expected);
  });

  it('an ApplyPatch whose input is the patch text itself', () => {
    const patch = '*** Begin Patch\n*** Update File: a.md\n@@\n-x\n+y\n*** Delete File: b.md\n*** End Patch';
    expect(cursorToolActions('ApplyPatch', patch)).toEqual([
      act('edit', 'ApplyPatch', 'a.md', 'y', 'x'),
      act('delete', 'ApplyPatch', 'b.md'),
    ]);
  });

  it('lists the absolute paths a call names, for finding the workspace', () => {
    expect(
      cursorToolPaths({ path: 'rel/a.ts', working_directory: '/w/app', target_directory: 'C:\\w' }),
    ).toEqual(['/w/app', 'C:\\w']);
    expect(cursorToolPaths('patch text')).toEqual([]);
  });
});
