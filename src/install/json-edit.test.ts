import { describe, expect, it } from 'vitest';
import { appendJsonItem, JsonEditError, jsonValueAt, removeJsonValue, setJsonValue } from './json-edit.js';

const USER = `// my editor's MCP servers
{
    "servers": {
        /* the one I use daily */
        "other":   { "command": "other-mcp", "args": ["--x"] },   // trailing remark
    },
    "inputs": [ ]
}
`;

describe('setJsonValue / removeJsonValue', () => {
  it('adds an entry beside the others and keeps every foreign byte around it', () => {
    const { text, insertedAt } = setJsonValue(USER, ['servers', 'skillopt-sleep'], {
      command: 'node',
      args: ['m.js'],
    });
    expect(insertedAt).toEqual(['servers', 'skillopt-sleep']);
    expect(jsonValueAt(text, ['servers', 'skillopt-sleep'])).toEqual({ command: 'node', args: ['m.js'] });
    expect(jsonValueAt(text, ['servers', 'other'])).toEqual({ command: 'other-mcp', args: ['--x'] });
    for (const piece of ['// my editor', '/* the one I use daily */', '// trailing remark', '"inputs": [ ]'])
      expect(text).toContain(piece);
    // Indented like its neighbours (four spaces).
    expect(text).toMatch(/\n {8}"skillopt-sleep"/);
    expect(removeJsonValue(text, ['servers', 'skillopt-sleep'])).toBe(USER);
  });

  it('creates the missing parent and removes it again once empty', () => {
    const base = '{\n  "theme": "dark"\n}\n';
    const { text, insertedAt } = setJsonValue(base, ['mcpServers', 'skillopt-sleep'], { command: 'n' });
    expect(insertedAt).toEqual(['mcpServers']);
    expect(jsonValueAt(text, ['theme'])).toBe('dark');
    expect(removeJsonValue(text, ['mcpServers', 'skillopt-sleep'], insertedAt)).toBe(base);
  });

  it('starts an empty file as an object', () => {
    const { text } = setJsonValue('', ['mcpServers', 'a'], { command: 'n' });
    expect(JSON.parse(text)).toEqual({ mcpServers: { a: { command: 'n' } } });
  });

  it('refuses a file that does not parse, a root that is not an object, a parent that is not one', () => {
    expect(() => setJsonValue('{ "servers": ', ['servers', 'x'], 1)).toThrow(JsonEditError);
    expect(() => setJsonValue('[1, 2]', ['servers', 'x'], 1)).toThrow(/not a JSON object/);
    expect(() => setJsonValue('{"servers": "no"}', ['servers', 'x'], 1)).toThrow(/not an object/);
  });
});

describe('appendJsonItem', () => {
  it('appends after the hooks already there and removing it gives the file back', () => {
    const base = `{
\t"hooks": {
\t\t"SessionEnd": [
\t\t\t{ "hooks": [ { "type": "command", "command": "mine.sh" } ] }
\t\t]
\t}
}`;
    const item = { hooks: [{ type: 'command', command: 'ours' }] };
    const { text, insertedAt } = appendJsonItem(base, ['hooks', 'SessionEnd'], item);
    expect(insertedAt).toEqual(['hooks', 'SessionEnd', 1]);
    const list = jsonValueAt(text, ['hooks', 'SessionEnd']) as unknown[];
    expect(list).toHaveLength(2);
    expect(list[0]).toEqual({ hooks: [{ type: 'command', command: 'mine.sh' }] });
    expect(list[1]).toEqual(item);
    expect(removeJsonValue(text, insertedAt, insertedAt)).toBe(base);
  });

  it('refuses a hooks event that is not a list', () => {
    expect(() => appendJsonItem('{"hooks": {"SessionEnd": {}}}', ['hooks', 'SessionEnd'], 1)).toThrow(
      /not a list/,
    );
  });
});

describe('a file that starts with a UTF-8 byte order mark', () => {
  it('is read, edited and restored with its mark kept', () => {
    const bom = `\uFEFF${USER}`;
    expect(jsonValueAt(bom, ['servers', 'other'])).toEqual({ command: 'other-mcp', args: ['--x'] });
    const set = setJsonValue(bom, ['servers', 'skillopt-sleep'], { command: 'node' });
    expect(set.text.startsWith('\uFEFF// my editor')).toBe(true);
    expect(set.text.slice(1)).toBe(
      setJsonValue(USER, ['servers', 'skillopt-sleep'], { command: 'node' }).text,
    );
    expect(removeJsonValue(set.text, ['servers', 'skillopt-sleep'])).toBe(bom);
    const appended = appendJsonItem(bom, ['inputs'], { id: 'x' });
    expect(appended.text.startsWith('\uFEFF')).toBe(true);
    expect(jsonValueAt(appended.text, ['inputs'])).toEqual([{ id: 'x' }]);
    expect(setJsonValue('\uFEFF', ['a'], 1).text).toBe('\uFEFF{\n  "a": 1\n}\n');
  });
});
