/** `install copilot`: Copilot CLI's mcp-config.json (user level) and VS Code's .vscode/mcp.json (project). */
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, runCli, sandbox } from './cli-helpers.js';
import { actions, cli, onlyInserted, seed, tree } from './install-helpers.js';
import { parse } from 'jsonc-parser';

const COPILOT = `{"mcpServers":{"github":{"type":"http","url":"https://example.invalid/mcp","tools":["*"]}}}`;
const VSCODE = `// shared with the team
{
\t"inputs": [{ "type": "promptString", "id": "key", "password": true }],
\t"servers": {
\t\t"db": { "type": "stdio", "command": "db-mcp", "env": { "KEY": "\${input:key}" } }, // keep me
\t}
}
`;

describe('install copilot', () => {
  it('user level: merges into ~/.copilot/mcp-config.json and back to its bytes', async () => {
    const box = sandbox();
    seed(box.home, { '.copilot/mcp-config.json': COPILOT }, 0o600);
    const original = tree(box.home);
    expect(actions(await cli(box, ['install', 'copilot']))).toEqual({ 'mcp-config.json': 'merged' });
    const text = readFileSync(path.join(box.home, '.copilot/mcp-config.json'), 'utf8');
    onlyInserted(COPILOT, text);
    const config = JSON.parse(text) as { mcpServers: Record<string, unknown> };
    expect(config.mcpServers.github).toEqual({
      type: 'http',
      url: 'https://example.invalid/mcp',
      tools: ['*'],
    });
    expect(config.mcpServers['skillopt-sleep']).toEqual({
      type: 'local',
      command: process.execPath,
      args: [CLI, 'mcp'],
      tools: ['*'],
    });
    expect(tree(box.home)['.copilot/mcp-config.json']?.startsWith('600 ')).toBe(true);
    const installed = tree(box.home);
    expect((await cli(box, ['install', 'copilot'])).changed).toBe(false);
    expect(tree(box.home)).toEqual(installed);
    expect(actions(await cli(box, ['uninstall', 'copilot']))).toEqual({ 'mcp-config.json': 'restored' });
    expect(tree(box.home)).toEqual(original);
  });

  it('--project: merges into .vscode/mcp.json (comments, tabs, trailing commas kept) and back', async () => {
    const box = sandbox();
    seed(box.project, { '.vscode/mcp.json': VSCODE });
    const original = tree(box.project);
    expect(actions(await cli(box, ['install', 'copilot', '--project']))).toEqual({ 'mcp.json': 'merged' });
    const text = readFileSync(path.join(box.project, '.vscode/mcp.json'), 'utf8');
    expect(onlyInserted(VSCODE, text)).toMatch(/\n\t\t"skillopt-sleep": \{/);
    const config = parse(text) as { servers: Record<string, unknown>; inputs: unknown[] };
    expect(Object.keys(config.servers)).toEqual(['db', 'skillopt-sleep']);
    expect(config.servers['skillopt-sleep']).toEqual({
      type: 'stdio',
      command: process.execPath,
      args: [CLI, 'mcp'],
    });
    expect(config.inputs).toHaveLength(1);
    expect((await cli(box, ['install', 'copilot', '--project'])).changed).toBe(false);
    await cli(box, ['uninstall', 'copilot', '--project']);
    expect(tree(box.project)).toEqual(original);
  });

  it('accepts and keeps a UTF-8 byte order mark (issue 37, item 14), in JSON and JSONC alike', async () => {
    const box = sandbox();
    const bom = '\uFEFF';
    seed(box.project, { '.vscode/mcp.json': bom + VSCODE });
    seed(box.home, { '.copilot/mcp-config.json': bom + COPILOT });
    const project = tree(box.project);
    const home = tree(box.home);
    expect(actions(await cli(box, ['install', 'copilot', '--project']))).toEqual({ 'mcp.json': 'merged' });
    expect(actions(await cli(box, ['install', 'copilot']))).toEqual({ 'mcp-config.json': 'merged' });
    for (const file of [
      path.join(box.project, '.vscode/mcp.json'),
      path.join(box.home, '.copilot/mcp-config.json'),
    ]) {
      const text = readFileSync(file, 'utf8');
      expect(text.startsWith(bom), file).toBe(true);
      const config = parse(text.slice(1)) as { servers?: object; mcpServers?: object };
      expect(Object.keys(config.servers ?? config.mcpServers ?? {})).toContain('skillopt-sleep');
    }
    await cli(box, ['uninstall', 'copilot', '--project']);
    await cli(box, ['uninstall', 'copilot']);
    expect(tree(box.project)).toEqual(project);
    expect(tree(box.home)).toEqual(home);
  });

  it('refuses a project whose .vscode is a symlink leading outside it (exit 2, nothing written)', async () => {
    const box = sandbox();
    const elsewhere = path.join(box.root, 'elsewhere');
    mkdirSync(elsewhere);
    symlinkSync(elsewhere, path.join(box.project, '.vscode'));
    const r = await runCli(box, ['install', 'copilot', '--project']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/outside .*refusing to follow a symlink/);
    expect(tree(elsewhere)).toEqual({});
  });

  it('refuses a server of the same name the user wrote by hand', async () => {
    const box = sandbox();
    seed(box.project, {
      '.vscode/mcp.json':
        '{"servers": {"skillopt-sleep": {"command": "npx", "args": ["skillopt-sleep", "mcp"]}}}',
    });
    const r = await runCli(box, ['install', 'copilot', '--project']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/already has its own "servers\.skillopt-sleep" entry/);
  });
});
