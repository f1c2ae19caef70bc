import { describe, expect, it } from 'vitest';
import {
  appendTomlBlock,
  BLOCK_START,
  findTomlBlock,
  removeTomlBlock,
  TomlEditError,
  tomlTableAt,
} from './toml-edit.js';

const USER = `# my Codex settings
model = "o3"   # the good one
approval_policy="on-request"

[mcp_servers.docs]
command = "docs-mcp"
args = [ "--port",  "9" ]

[profiles.fast]
model = "o4-mini"
`;
const TABLE = ['mcp_servers', 'skillopt-sleep'];
const ENTRIES = { command: '/usr/bin/node', args: ['/opt/s o s/main.js', 'mcp'] };

describe('appendTomlBlock / removeTomlBlock', () => {
  it('appends our table after the user text, unchanged, and parses to their tables plus ours', () => {
    const out = appendTomlBlock(USER, TABLE, ENTRIES);
    expect(out.startsWith(USER)).toBe(true);
    expect(tomlTableAt(out, TABLE)).toEqual(ENTRIES);
    expect(tomlTableAt(out, ['mcp_servers', 'docs'])).toEqual({ command: 'docs-mcp', args: ['--port', '9'] });
    expect(tomlTableAt(out, ['profiles', 'fast', 'model'])).toBe('o4-mini');
    expect(removeTomlBlock(out)).toBe(USER);
  });

  it('keeps the user text after our block when it was added later', () => {
    const out = appendTomlBlock(USER, TABLE, ENTRIES) + '\n[mcp_servers.later]\ncommand = "l"\n';
    const removed = removeTomlBlock(out);
    expect(removed).toBe(USER + '\n[mcp_servers.later]\ncommand = "l"\n');
    expect(findTomlBlock(removed)).toBeUndefined();
  });

  it('uses the file line ending and copes with a missing final newline', () => {
    const crlf = 'a = 1\r\nb = 2';
    const out = appendTomlBlock(crlf, TABLE, ENTRIES);
    expect(out.startsWith(crlf + '\r\n\r\n' + BLOCK_START)).toBe(true);
    expect(out.replace(/\r\n/g, '')).not.toContain('\n');
    expect(tomlTableAt(out, ['b'])).toBe(2);
  });

  it('escapes quotes and backslashes in values', () => {
    const out = appendTomlBlock('', TABLE, { command: 'C:\\node "x"', args: [] });
    expect(tomlTableAt(out, TABLE)).toEqual({ command: 'C:\\node "x"', args: [] });
  });

  it('refuses a file that does not parse', () => {
    expect(() => appendTomlBlock('model = \n[x', TABLE, ENTRIES)).toThrow(TomlEditError);
    expect(() => appendTomlBlock('model = \n[x', TABLE, ENTRIES)).toThrow(/line/);
  });

  it('refuses a file whose mcp_servers cannot take a table appended at the end', () => {
    expect(() => appendTomlBlock('mcp_servers = { docs = { command = "d" } }\n', TABLE, ENTRIES)).toThrow(
      TomlEditError,
    );
  });
});
