import { describe, expect, it } from 'vitest';
import { clineToolActions, searchReplaceText, xmlToolCalls } from './actions.js';
import { act } from '../shared/test-helpers.js';

describe('searchReplaceText', () => {
  it('reads every block of the current Cline markers', () => {
    const diff = [
      '------- SEARCH',
      'a = 1',
      '=======',
      'a = 2',
      '+++++++ REPLACE',
      '',
      '------- SEARCH',
      'b = 1',
      '=======',
      'b = 2',
      'c = 3',
      '+++++++ REPLACE',
    ].join('\n');
    expect(searchReplaceText(diff)).toEqual({ removed: 'a = 1\nb = 1', added: 'a = 2\nb = 2\nc = 3' });
  });

  it("reads the older conflict-style markers, without Roo's line hints", () => {
    const diff =
      '<<<<<<< SEARCH\r\n:start_line:10\r\n-------\r\nold()\r\n=======\r\nnew()\r\n>>>>>>> REPLACE\r\n';
    expect(searchReplaceText(diff)).toEqual({ removed: 'old()', added: 'new()' });
  });

  it('keeps a searched line that looks like a divider after the first text line', () => {
    const diff = '<<<<<<< SEARCH\nheader\n-------\n=======\nheader\n>>>>>>> REPLACE';
    expect(searchReplaceText(diff)).toEqual({ removed: 'header\n-------', added: 'header' });
  });

  it('gives nothing for a text without blocks', () => {
    expect(searchReplaceText('just words')).toEqual({ removed: '', added: '' });
  });
});

describe('xmlToolCalls', () => {
  it('takes the known tool tags out of the text and reads their parameters', () => {
    const text =
      'First <b>look</b>.\n\n<execute_command>\n<command>ls -la</command>\n<requires_approval>false</requires_approval>\n</execute_command>\n\n\n\nthen done';
    expect(xmlToolCalls(text)).toEqual({
      prose: 'First <b>look</b>.\n\nthen done',
      calls: [{ name: 'execute_command', input: { command: 'ls -la', requires_approval: 'false' } }],
    });
  });

  it('keeps the first value of a parameter and file text that holds tags', () => {
    const text =
      '<write_to_file>\n<path>a.html</path>\n<content>\n<path>x</path>\n</content>\n</write_to_file>';
    const { calls, prose } = xmlToolCalls(text);
    expect(prose).toBe('');
    expect(calls.flatMap(clineToolActions)).toEqual([
      act('write', 'write_to_file', 'a.html', '<path>x</path>'),
    ]);
  });

  it('leaves unknown tags as text', () => {
    expect(xmlToolCalls('<thinking>hmm</thinking>')).toEqual({
      prose: '<thinking>hmm</thinking>',
      calls: [],
    });
  });
});

describe('clineToolActions', () => {
  it('maps each tool by its schema', () => {
    const calls = [
      { name: 'edit', input: { file_path: 'a.ts', old_string: 'x', new_string: 'y' } },
      { name: 'edit_file', input: { file_path: 'b.ts', old_string: '1', new_string: '2' } },
      { name: 'search_and_replace', input: { path: 'c.ts', search: 'foo', replace: 'bar' } },
      { name: 'read_file', input: { files: [{ path: 'd.ts' }, { path: 'e.ts' }] } },
      { name: 'read_file', input: {} },
      { name: 'web_search', input: { query: 'vitest mocks' } },
      { name: 'apply_patch', input: { patch: '*** Begin Patch\n*** Delete File: old.ts\n*** End Patch' } },
      { name: 'browser_action', input: { action: 'launch', url: 'http://localhost' } },
      { name: 'execute_command', input: { command: 42 } },
    ];
    expect(calls.flatMap(clineToolActions)).toEqual([
      act('edit', 'edit', 'a.ts', 'y', 'x'),
      act('edit', 'edit_file', 'b.ts', '2', '1'),
      act('edit', 'search_and_replace', 'c.ts', 'bar', 'foo'),
      act('read', 'read_file', 'd.ts'),
      act('read', 'read_file', 'e.ts'),
      act('read', 'read_file', ''),
      act('search', 'web_search', 'vitest mocks'),
      act('delete', 'apply_patch', 'old.ts'),
      act('other', 'browser_action'),
      act('run', 'execute_command', ''),
    ]);
  });
});
