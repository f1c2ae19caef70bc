/** `install mcp`: the MCP server for Claude Code in ~/.claude.json (user) or the project's .mcp.json. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, sandbox } from './cli-helpers.js';
import { actions, cli, onlyInserted, seed, tree } from './install-helpers.js';

const CLAUDE_JSON = JSON.stringify(
  {
    numStartups: 42,
    projects: { '/code/web': { allowedTools: [], mcpServers: { local: { command: 'l' } } } },
    mcpServers: { other: { type: 'stdio', command: 'other-mcp', args: [], env: { A: '1' } } },
  },
  null,
  2,
);

describe('install mcp', () => {
  it('user level: adds our server to ~/.claude.json mcpServers beside the others, and back to its bytes', async () => {
    const box = sandbox();
    seed(box.home, { '.claude.json': CLAUDE_JSON }, 0o600);
    const original = tree(box.home);
    const dry = await cli(box, ['install', 'mcp', '--dry-run']);
    expect(dry.dry_run).toBe(true);
    expect(tree(box.home)).toEqual(original);

    expect(actions(await cli(box, ['install', 'mcp']))).toEqual({ '.claude.json': 'merged' });
    const text = readFileSync(path.join(box.home, '.claude.json'), 'utf8');
    onlyInserted(CLAUDE_JSON, text);
    const config = JSON.parse(text) as { mcpServers: Record<string, unknown>; projects: unknown };
    expect(config.mcpServers['skillopt-sleep']).toEqual({
      type: 'stdio',
      command: process.execPath,
      args: [CLI, 'mcp'],
      env: {},
    });
    expect(config.projects).toEqual(JSON.parse(CLAUDE_JSON).projects);
    const installed = tree(box.home);
    expect((await cli(box, ['install', 'mcp'])).changed).toBe(false);
    expect(tree(box.home)).toEqual(installed);
    expect(actions(await cli(box, ['uninstall', 'mcp']))).toEqual({ '.claude.json': 'restored' });
    expect(tree(box.home)).toEqual(original);
  });

  it('user level with ~/.claude.json rewritten since (as Claude Code does): only our server goes', async () => {
    const box = sandbox();
    seed(box.home, { '.claude.json': CLAUDE_JSON });
    await cli(box, ['install', 'mcp']);
    const file = path.join(box.home, '.claude.json');
    seed(box.home, { '.claude.json': readFileSync(file, 'utf8').replace('42', '43') });
    expect(actions(await cli(box, ['uninstall', 'mcp']))).toEqual({ '.claude.json': 'edited' });
    expect(readFileSync(file, 'utf8')).toBe(CLAUDE_JSON.replace('42', '43'));
  });

  it('--project: creates .mcp.json and uninstall removes the file it created', async () => {
    const box = sandbox();
    expect(actions(await cli(box, ['install', 'mcp', '--project']))).toEqual({ '.mcp.json': 'created' });
    const config = JSON.parse(readFileSync(path.join(box.project, '.mcp.json'), 'utf8')) as {
      mcpServers: Record<string, { args: string[] }>;
    };
    expect(config.mcpServers['skillopt-sleep']?.args).toEqual([CLI, 'mcp']);
    expect(tree(box.project)['.mcp.json']?.startsWith('644 ')).toBe(true);
    expect(actions(await cli(box, ['uninstall', 'mcp', '--project']))).toEqual({ '.mcp.json': 'removed' });
    expect(tree(box.project)).toEqual({});
  });
});
