import { describe, expect, it } from 'vitest';
import { typedCommand } from './commands.js';
import { fileName, replyEditActions, wholeFileAction } from './edit-blocks.js';
import { act } from '../shared/test-helpers.js';

describe('aider edit blocks', () => {
  it('reads file names as aider does', () => {
    expect(fileName('src/app.py')).toBe('src/app.py');
    expect(fileName('**src/app.py**')).toBe('src/app.py');
    expect(fileName('`src/app.py`:')).toBe('src/app.py');
    expect(fileName('#### src/app.py')).toBe('src/app.py');
    expect(fileName('```src/app.py')).toBe('src/app.py');
    expect(fileName('```python')).toBeUndefined();
    expect(fileName('...')).toBeUndefined();
    expect(fileName('Here is the change:')).toBeUndefined();
  });

  it('SEARCH/REPLACE: the name above or inside the fence, else the previous block', () => {
    const reply = [
      'app/models.py',
      '```python',
      '<<<<<<< SEARCH',
      'x = 1',
      '=======',
      'x = 2',
      '>>>>>>> REPLACE',
      '```',
      '',
      '```python',
      '<<<<<<<< SEARCH',
      'y = 1',
      '========',
      'y = 2',
      '=======',
      '```',
      '',
      '````',
      'app/new_module.py',
      '<<<<<<< SEARCH',
      '=======',
      'def hello():',
      '    return 1',
      '>>>>>>> REPLACE',
      '````',
    ].join('\n');
    expect(replyEditActions(reply)).toEqual([
      act('edit', 'search_replace', 'app/models.py', 'x = 2', 'x = 1'),
      act('edit', 'search_replace', 'app/models.py', 'y = 2', 'y = 1'),
      act('write', 'search_replace', 'app/new_module.py', 'def hello():\n    return 1'),
    ]);
  });

  it('a block naming no file, or unfinished, is no edit', () => {
    expect(replyEditActions('<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE')).toEqual([]);
    expect(replyEditActions('a.py\n<<<<<<< SEARCH\na\n=======\nb')).toEqual([]);
  });

  it('patch envelopes and unified diffs', () => {
    const patch =
      '*** Begin Patch\n*** Update File: lib/a.ts\n@@\n-old\n+new\n*** Delete File: lib/b.ts\n*** End Patch';
    expect(replyEditActions(patch)).toEqual([
      act('edit', 'apply_patch', 'lib/a.ts', 'new', 'old'),
      act('delete', 'apply_patch', 'lib/b.ts'),
    ]);
    const udiff = [
      '```diff',
      '--- a/src/util.js',
      '+++ b/src/util.js',
      '@@ -1,2 +1,2 @@',
      ' keep',
      '-const a = 1;',
      '+const a = 2;',
      '--- /dev/null',
      '+++ src/new.js',
      '@@ -0,0 +1 @@',
      '+export {};',
      '```',
    ].join('\n');
    expect(replyEditActions(udiff)).toEqual([
      act('edit', 'udiff', 'src/util.js', 'const a = 2;', 'const a = 1;'),
      act('write', 'udiff', 'src/new.js', 'export {};'),
    ]);
  });

  it('a file aider reports edited: its whole-file block, else an edit without text', () => {
    const reply = 'Here it is:\n\nnotes/todo.md\n```\n- ship it\n```';
    expect(wholeFileAction(reply, 'notes/todo.md')).toEqual(
      act('write', 'whole', 'notes/todo.md', '- ship it'),
    );
    expect(wholeFileAction(reply, 'other.md')).toEqual(act('edit', 'whole', 'other.md'));
  });
});

describe('aider commands', () => {
  it('shell commands run; /add and /read-only read each file; chat modes are nothing', () => {
    expect(typedCommand('!ls -la').actions).toEqual([act('run', '!', 'ls -la')]);
    expect(typedCommand('/run npm test').actions).toEqual([act('run', '/run', 'npm test')]);
    expect(typedCommand('/test').actions).toEqual([act('run', '/test', '')]);
    expect(typedCommand('/git log -1').actions).toEqual([act('run', '/git', 'git log -1')]);
    expect(typedCommand('/add "my file.py" b.py').actions).toEqual([
      act('read', '/add', 'my file.py'),
      act('read', '/add', 'b.py'),
    ]);
    expect(typedCommand('/read-only docs/spec.md').actions).toEqual([
      act('read', '/read-only', 'docs/spec.md'),
    ]);
    expect(typedCommand('/ask why?')).toEqual({ name: 'ask', args: 'why?', actions: [], sends: 'why?' });
    expect(typedCommand('/ok').sends).toBe('');
    expect(typedCommand('/chat-mode ask')).toMatchObject({ actions: [], sends: null });
    expect(typedCommand('/undo').actions).toEqual([act('other', '/undo')]);
  });

  it('a prefix naming one command is that command; others keep the word typed', () => {
    expect(typedCommand('/ru pytest')).toMatchObject({
      name: 'run',
      actions: [act('run', '/run', 'pytest')],
    });
    expect(typedCommand('/read x.md').actions).toEqual([act('read', '/read-only', 'x.md')]);
    expect(typedCommand('/a x.py')).toMatchObject({ name: 'a', actions: [act('other', '/a')] });
    expect(typedCommand('/Add x.py')).toMatchObject({ name: 'Add', actions: [act('other', '/Add')] });
  });
});
